import { existsSync, statSync } from 'node:fs';
import type { DumpReport, FormatAdapter } from '../adapters/adapter.js';
import type { Finding } from '../adapters/finding.js';
import { parentsFirst } from '../adapters/load-into-store.js';
import { inferFormat } from '../adapters/registry.js';
import { InvalidInputError } from '../errors/annot-error.js';
import { writeAtomically } from '../io/atomic-file.js';
import type { Annotation } from '../model/annotation.js';
import type { AnnotationStore } from '../store/store.js';
import type { CueSpan } from '../sync/cue-occupancy.js';
import { NoCuesToSyncError, SyncUncertainError } from '../sync/errors.js';
import { describeRatio } from '../sync/framerate-ratios.js';
import { estimateSyncToMedia, estimateSyncToReference, LOW_CONFIDENCE, type SyncEstimate, type SyncOptions } from '../sync/sync-estimate.js';
import type { RetimeMap } from '../time/retime.js';
import { stampedAttribute, wholeAnnotationsDropped } from './conversion-losses.js';
import { openAnnotationFile, type OpenOptions } from './open-annotation-file.js';
import { AnnotationRetimer, type RetimeCounts } from './retime-annotations.js';

/** What syncSubtitles takes. */
export interface SyncRequest extends SyncOptions {
  /** The file whose cues are moved, in any format annot reads. */
  readonly subs: string;
  /** The media whose speech the cues are aligned to; exactly one of `media` and `reference`. */
  readonly media?: string;
  /** Another annotation file whose cues the cues are aligned to (as alass does). */
  readonly reference?: string;
  /** Where the retimed file is written (any format, by its name); absent: estimate only, nothing written. */
  readonly output?: string;
  /** The output's format name, when its name does not tell. */
  readonly to?: string;
  /** Reading options of `subs` (and of `reference`): format, rate, encoding. */
  readonly read?: Pick<OpenOptions, 'from' | 'rate' | 'encoding' | 'strictTime'>;
  /** Refuse (SyncUncertainError) a confidence under LOW_CONFIDENCE, and a cue the retime would cut or drop at 0 s. */
  readonly strict?: boolean;
  /** Refuse a retimed time that falls between ticks at its rate, rather than round it. */
  readonly strictTime?: boolean;
  /** What the readers repaired, dropped or guessed. */
  readonly report?: (finding: Finding) => void;
  /** What the writer could not keep. */
  readonly warn?: (message: string) => void;
}

/** What syncSubtitles found and did. */
export interface SyncReport {
  /** The offset, ratio and confidence found. */
  readonly estimate: SyncEstimate;
  /** The estimate as the map the retime applied (or would have): t ↦ t × factor + offset. */
  readonly map: RetimeMap;
  /** Whether the confidence is under LOW_CONFIDENCE: then nothing was written. */
  readonly lowConfidence: boolean;
  /** What was written, or null (no output asked for, or low confidence). */
  readonly written: WrittenSync | null;
}

/** The retimed file syncSubtitles wrote. */
export interface WrittenSync {
  /** Its path. */
  readonly path: string;
  /** Its format's name. */
  readonly format: string;
  /** Annotations it holds. */
  readonly annotations: number;
  /** What the retime lost: cues cut or dropped at 0 s, times rounded; one line each. */
  readonly retimeFindings: readonly string[];
  /** What the retime did, counted. */
  readonly counts: RetimeCounts;
  /** What the output format could not keep (beyond what the input format never had). */
  readonly dropped: DumpReport['dropped'];
}

/**
 * `annot sync`: estimates the offset and frame-rate ratio that lay the cues of `subs` over the
 * speech of `media` (or the cues of `reference`), then writes the file retimed by that exact map
 * to `output`, atomically. A confidence under LOW_CONFIDENCE leaves everything as it was: nothing
 * is written, and under `strict` it is SyncUncertainError. Without `output` it only estimates.
 */
export async function syncSubtitles(request: SyncRequest): Promise<SyncReport> {
  if (request.media !== undefined) requireMediaFile(request.media);
  const reading = holdInMemory(request.subs, request).then((held) => {
    const cues = cueSpans(held.annotations);
    if (cues.length === 0) throw new NoCuesToSyncError(`${request.subs}: no cues with a duration to sync (every annotation is a point or refers to another)`);
    return { held, cues };
  });
  // The media's decoding (the long part) starts beside the reading of the cues.
  const estimate = await estimateFor(request, reading.then(({ cues }) => cues));
  const { held } = await reading;
  const map: RetimeMap = { factor: estimate.ratio, offset: estimate.offset };
  const lowConfidence = estimate.confidence < LOW_CONFIDENCE;
  if (lowConfidence && request.strict) {
    throw new SyncUncertainError(
      `${request.subs}: no clear alignment to ${request.media ?? request.reference} (confidence ${estimate.confidence.toFixed(2)}, under ${LOW_CONFIDENCE}; ` +
        `best offset ${describeOffset(estimate)}, ratio ${describeRatio(estimate.ratio)}); --strict refuses it, nothing was written`,
    );
  }
  if (lowConfidence || request.output === undefined) return { estimate, map, lowConfidence, written: null };
  const written = await writeRetimed(held, map, request.output, request);
  return { estimate, map, lowConfidence, written };
}

function requireMediaFile(media: string): void {
  if (!existsSync(media)) throw new InvalidInputError(`${media}: no such file`);
  if (statSync(media).isDirectory()) throw new InvalidInputError(`${media}: is a directory, expected a media file`);
}

/** The offset as `+2.500 s`. */
export function describeOffset(estimate: SyncEstimate): string {
  const ms = Number((estimate.offset.num * 1000n) / estimate.offset.den);
  return `${ms < 0 ? '-' : '+'}${(Math.abs(ms) / 1000).toFixed(3)} s`;
}

/** A file read whole, its store closed: tiers, metadata and annotations, and its format. */
interface HeldFile {
  readonly format: FormatAdapter;
  readonly tiers: Awaited<ReturnType<AnnotationStore['listTiers']>>;
  readonly meta: Record<string, string>;
  readonly annotations: Annotation[];
}

/**
 * Reads a file (any format; an `.annot` in place, read-only) and closes it, so the output may
 * replace it: subtitles are small, and a whole file in memory is what the retime and the writer
 * need anyway.
 */
async function holdInMemory(path: string, request: SyncRequest): Promise<HeldFile> {
  const opened = await openAnnotationFile(path, { ...request.read, report: request.report });
  try {
    const annotations: Annotation[] = [];
    for await (const annotation of opened.store.all()) annotations.push(annotation);
    return { format: opened.format, tiers: await opened.store.listTiers(), meta: await opened.store.listMeta(), annotations };
  } finally {
    await opened.store.close();
  }
}

/** The stretches of time the annotations cover, in seconds (points and references to annotations have none). */
function cueSpans(annotations: readonly Annotation[]): CueSpan[] {
  const spans: CueSpan[] = [];
  for (const annotation of annotations) {
    if (annotation.reference.kind !== 'media') continue;
    const { start, end } = annotation.reference.interval;
    if (end.v / end.r > start.v / start.r) spans.push({ start: start.v / start.r, end: end.v / end.r });
  }
  return spans;
}

async function estimateFor(request: SyncRequest, cues: Promise<readonly CueSpan[]>): Promise<SyncEstimate> {
  const options: SyncOptions = { maxOffsetSeconds: request.maxOffsetSeconds, fixFramerate: request.fixFramerate, signal: request.signal };
  if (request.reference !== undefined) {
    const spans = await cues;
    const reference = cueSpans((await holdInMemory(request.reference, request)).annotations);
    if (reference.length === 0) throw new NoCuesToSyncError(`${request.reference}: no cues with a duration to sync to`);
    return estimateSyncToReference(reference, spans, options);
  }
  if (request.media === undefined) throw new TypeError('syncSubtitles needs media or reference');
  return estimateSyncToMedia(request.media, cues, options);
}

/** The file retimed by the map, written to `output` atomically in the format its name (or `to`) says. */
async function writeRetimed(held: HeldFile, map: RetimeMap, output: string, request: SyncRequest): Promise<WrittenSync> {
  const target = inferFormat({ explicit: request.to, path: output });
  const retimer = new AnnotationRetimer(map, { strict: request.strict, strictTime: request.strictTime }, cueName(held.annotations));
  const retimed = retimedAnnotations(held.annotations, retimer);
  const { MemoryStore } = await import('../store/memory.js');
  return writeAtomically(output, async (path) => {
    const [targetCodec, sourceCodec] = await Promise.all([target.codec(), held.format.codec()]);
    const store: AnnotationStore = targetCodec.openStore ? await targetCodec.openStore(path, { create: true, scratch: true }) : new MemoryStore();
    try {
      for (const tier of parentsFirst(held.tiers)) await store.addTier(tier);
      for (const [key, value] of Object.entries(held.meta)) await store.setMeta(key, value);
      await store.addMany(retimed);
      const dumped: DumpReport = targetCodec.openStore ? { dropped: [] } : await targetCodec.dump(store, path, { targetName: output, warn: request.warn ?? (() => {}) });
      // The reader's stamps (ids, provenance) on a source that never keeps them were never the file's to lose.
      const neverHad = new Set<string>(sourceCodec.stampsNeverKept ?? []);
      const dropped = dumped.dropped.filter((entry) => !neverHad.has(stampedAttribute(entry.what) ?? ''));
      const annotations = retimed.length - wholeAnnotationsDropped(dumped.dropped);
      return { path: output, format: target.name, annotations, retimeFindings: retimer.findings(), counts: retimer.counts, dropped };
    } finally {
      await store.close();
    }
  });
}

/**
 * The annotations after the retime: those it drops (wholly before 0 s) left out, and with them
 * whatever refers to them (a symbolic child of a dropped cue), which no store would take alone.
 */
function retimedAnnotations(annotations: readonly Annotation[], retimer: AnnotationRetimer): Annotation[] {
  const droppedIds = new Set<string>();
  const out: Annotation[] = [];
  for (const annotation of annotations) {
    const reference = annotation.reference;
    const after = reference.kind === 'annotation' && droppedIds.has(reference.target_id) ? null : retimer.retime(annotation);
    if (after === null) droppedIds.add(annotation.id);
    else out.push(after);
  }
  return out;
}

/** How a refusal names a cue: its number in the file and its start. */
function cueName(annotations: readonly Annotation[]): (annotation: Annotation) => string {
  const numbers = new Map(annotations.map((annotation, index) => [annotation.id, index + 1]));
  return (annotation) => {
    const reference = annotation.reference;
    const at = reference.kind === 'media' ? ` at ${reference.interval.start.toSecondsString()} s` : '';
    return `cue ${numbers.get(annotation.id) ?? '?'}${at}`;
  };
}

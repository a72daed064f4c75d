import { rmSync } from 'node:fs';
import type { DumpOptions, DumpReport, FormatAdapter, FormatCodec, LoadOptions } from '../adapters/adapter.js';
import { CuesOutOfTimeOrder, streamFlatCues } from '../adapters/flat-cues.js';
import type { Annotation } from '../model/annotation.js';
import { TierNotFoundError } from '../store/errors.js';
import type { AnnotationStore } from '../store/store.js';
import { ATTR_ANNOTATION_COUNT, ATTR_FORMAT } from '../telemetry/attributes.js';
import { withSpanIfTracing as withSpan } from '../telemetry/lazy-span.js';
import { stampedAttribute, wholeAnnotationsDropped } from './conversion-losses.js';
import { loadDocument } from '../adapters/load-document.js';
import { unknownTierMessage } from './tier-lookup.js';
import { retimedDocument, retimedWhenAsked, type ConversionRetime, type RetimeReport } from './retimed-document.js';

/**
 * A conversion that streams: each annotation goes from the reader to the writer as it is read,
 * so memory stays flat however long the file (a million SRT cues convert in well under 200 MB).
 *
 * What streams is what the codecs declare (FormatCodec.streamsOnLoad, writeCues, dumpTwoPass):
 * - SRT, WebVTT, SubStation (ASS/SSA), SBV and TextGrid (readers that read as they are consumed:
 *   `streamsOnLoad`; TextGrid's reads its file twice, see textgrid/codec.ts) into SRT, WebVTT,
 *   SubStation and SBV (writers of cues as they come: `writeCues`), in one pass. A TextGrid of several tiers (up to 8, without --strict-time)
 *   is merged in time order by reading the file once per tier (`inTimeOrder`); a tier not itself
 *   in time order shows as cues out of order, and the file converts whole;
 * - SRT and WebVTT into TextGrid, in two passes over the input file (`dumpTwoPass`): TextGrid puts
 *   each tier's bounds and interval count before its intervals, so the first pass counts and the
 *   second writes. Only a document that makes one IntervalTier streams (see textgrid/stream-writer.ts);
 *   TextGrid to TextGrid (tiers that carry their TextGrid class and bounds) converts whole;
 * - `.annot` into SRT, WebVTT and TextGrid, over the store's paged statement (dumpStoreAsStream,
 *   called from convert-file.ts, with a retime too), and SRT, WebVTT and TextGrid into `.annot`, through the new
 *   file's one bulk transaction (convert-file.ts, as before).
 * What does not: EAF, OTIO, JAMS, Label Studio, Web Annotation and TTML on either side.
 *
 * A subtitle file is written in time order. Cues that arrive out of order cannot be written as
 * they come: the stream is abandoned (its partial output removed) and the caller converts the
 * whole document, which sorts them. The findings the abandoned pass printed are not printed again.
 *
 * The output bytes and the report are the whole-document path's: the same writer code runs over
 * the same cues, and the loss report is counted along the way instead of by writing the store
 * again in the source format (see lossesTheSourceHad).
 */
export type StreamOutcome =
  | {
      readonly kind: 'converted';
      readonly annotations: number;
      readonly tiers: number;
      readonly dropped: DumpReport['dropped'];
      readonly quantized: { count: number; maxErrorSeconds: number };
      /** What a retime did (with `retime`), and its findings. */
      readonly retimed?: RetimeReport;
    }
  /** The document turned out not to stream (cues out of time order; a TextGrid that needs several tiers): nothing was written. */
  | { readonly kind: 'whole_document' }
  | { readonly kind: 'cannot_stream' };

export interface StreamRequest {
  readonly inputPath: string;
  readonly outputPath: string;
  readonly source: FormatAdapter;
  readonly target: FormatAdapter;
  readonly load: LoadOptions;
  /** The name the input goes by in messages. */
  readonly inputName: string;
  readonly targetName: string;
  readonly tier?: string;
  readonly variant?: string;
  readonly warn: (message: string) => void;
  readonly onProgress?: (annotations: number) => void;
  /** Called once everything was read and written, before the output is renamed into place (tier-name findings, `--strict`). */
  readonly beforeCommit: (tierNames: readonly string[]) => void;
  /**
   * A retime applied to each annotation as it passes, at the reader's rate (retimed-document.ts):
   * the stream stays a stream, and a dropped annotation is simply not written.
   */
  readonly retime?: ConversionRetime;
}

/** Whether a conversion from `source` to `target` streams (see above). */
export function streams(sourceCodec: FormatCodec, targetCodec: FormatCodec): boolean {
  return sourceCodec.streamsOnLoad === true && (targetCodec.writeCues !== undefined || targetCodec.dumpTwoPass !== undefined);
}

export async function convertAsStream(request: StreamRequest): Promise<StreamOutcome> {
  const { source, target } = request;
  const [sourceCodec, targetCodec] = await Promise.all([source.codec(), target.codec()]);
  if (!streams(sourceCodec, targetCodec)) return { kind: 'cannot_stream' };
  if (targetCodec.writeCues === undefined) return convertInTwoPasses(request, sourceCodec, targetCodec);
  const document = await withSpan(`adapter.load ${source.name}`, { [ATTR_FORMAT]: source.name }, () => loadDocument(sourceCodec, request.inputPath, request.load));
  const retime = request.retime === undefined ? null : retimedDocument(document, request.retime, request.load.sourceName);
  if (request.tier !== undefined && !document.tiers.some((tier) => tier.name === request.tier)) {
    throw new TierNotFoundError(unknownTierMessage(request.tier, document.tiers.map((tier) => tier.name), request.inputName));
  }
  const options = { targetName: request.targetName, tier: request.tier, variant: request.variant, warn: request.warn };
  const writeCues = targetCodec.writeCues;
  // A reader that can merge its tiers in time order (TextGrid) hands the cues over in the order they are written.
  // A retime is applied in the writer's own loop, with no stream between; a merged stream of tiers
  // (TextGrid's) is retimed as a stream of its own, which puts the ties a retime makes in tier order.
  const merged = retime !== null && document.inTimeOrder !== undefined ? retime.document.inTimeOrder?.() : undefined;
  const cues = merged ?? document.inTimeOrder?.() ?? document.annotations;
  const transform = retime !== null && merged === undefined ? retime.retime : undefined;
  const selection = streamFlatCues(document.tiers, cues, options, target.name, request.onProgress, targetCodec.writesComments === true ? 'keep' : 'drop', transform);
  let dumped: DumpReport;
  try {
    dumped = await withSpan(`adapter.dump ${target.name}`, { [ATTR_FORMAT]: target.name }, async (span) => {
      const report = await writeCues(selection, (key) => Promise.resolve(document.meta[key] ?? null), request.outputPath, options);
      span.setAttribute(ATTR_ANNOTATION_COUNT, selection.read);
      return report;
    });
  } catch (error) {
    if (!(error instanceof CuesOutOfTimeOrder)) throw error;
    rmSync(request.outputPath, { force: true });
    return { kind: 'whole_document' };
  }
  request.beforeCommit(document.tiers.map((tier) => tier.name));
  return {
    kind: 'converted',
    annotations: selection.read - wholeAnnotationsDropped(dumped.dropped),
    tiers: document.tiers.length,
    dropped: lossesTheSourceHad(sourceCodec, dumped.dropped),
    quantized: document.quantization(),
    ...(retime === null ? {} : { retimed: { ...retime.counts, findings: retime.findings() } }),
  };
}

/**
 * Into a format that needs counts first (TextGrid): the input is read once to count, with its
 * findings printed and `--strict` applied before anything is written, then read again (silently)
 * to write. A document the writer cannot stream comes back as out of order: the caller converts
 * it whole.
 */
async function convertInTwoPasses(request: StreamRequest, sourceCodec: FormatCodec, targetCodec: FormatCodec): Promise<StreamOutcome> {
  const { source, target } = request;
  const dumpTwoPass = targetCodec.dumpTwoPass;
  if (dumpTwoPass === undefined) return { kind: 'cannot_stream' };
  const loaded = await withSpan(`adapter.load ${source.name}`, { [ATTR_FORMAT]: source.name }, () => loadDocument(sourceCodec, request.inputPath, request.load));
  const { document, report: retimed } = retimedWhenAsked(loaded, request.retime, request.load.sourceName);
  let passes = 0;
  let read = 0;
  async function* firstPass(): AsyncGenerator<Annotation> {
    for await (const annotation of document.annotations) {
      read++;
      yield annotation;
    }
  }
  async function* again(): AsyncGenerator<Annotation> {
    // Retimed afresh: the first pass counted what the retime did, and refused what it refuses.
    const reread = retimedWhenAsked(await loadDocument(sourceCodec, request.inputPath, { ...request.load, report: () => {} }), request.retime, request.load.sourceName);
    yield* reread.document.annotations;
  }
  const replayable = {
    tiers: document.tiers,
    meta: document.meta,
    pass: (): AsyncIterable<Annotation> => {
      if (passes++ === 0) return firstPass();
      // Everything was read once: the findings are all out, and --strict decides before a byte is written.
      request.beforeCommit(document.tiers.map((tier) => tier.name));
      return again();
    },
  };
  const options = { targetName: request.targetName, tier: request.tier, variant: request.variant, warn: request.warn };
  const dumped = await withSpan(`adapter.dump ${target.name}`, { [ATTR_FORMAT]: target.name }, async (span) => {
    const report = await dumpTwoPass(replayable, request.outputPath, options);
    span.setAttribute(ATTR_ANNOTATION_COUNT, read);
    return report;
  });
  if (dumped === null) return { kind: 'whole_document' };
  if (passes < 2) request.beforeCommit(document.tiers.map((tier) => tier.name));
  return {
    kind: 'converted',
    annotations: read - wholeAnnotationsDropped(dumped.dropped),
    tiers: document.tiers.length,
    dropped: lossesTheSourceHad(sourceCodec, dumped.dropped),
    quantized: document.quantization(),
    ...retimed(),
  };
}

/**
 * What the target lost, less the reader stamps the source format could not have kept either
 * (FormatCodec.stampsNeverKept). The whole-document path finds these by writing the store in the
 * source format; for a streaming source the format says them: SRT, WebVTT, SubStation and SBV
 * write the same selection of cues as the target and drop the provenance, ids and confidence of
 * exactly those cues, and a TextGrid writes every annotation and keeps none of the three.
 */
function lossesTheSourceHad(sourceCodec: FormatCodec, dropped: DumpReport['dropped']): DumpReport['dropped'] {
  const cannotKeep = new Set<string>(sourceCodec.stampsNeverKept ?? []);
  return dropped.filter((entry) => {
    const attribute = stampedAttribute(entry.what);
    return attribute === null || !cannotKeep.has(attribute);
  });
}

/**
 * A `.annot` file (or any store) written without holding it: to a flat cue format in one pass
 * over its paged statement, instead of two (one to check the order, one to write); to TextGrid in
 * the writer's two passes. A store the writer cannot stream (annotations not in time order, tiers
 * a TextGrid must lay out whole) returns null, with nothing left written: the caller dumps it as
 * usual.
 */
export async function dumpStoreAsStream(
  store: AnnotationStore,
  targetCodec: FormatCodec,
  path: string,
  options: DumpOptions,
  formatName: string,
  /** A retime, as a function per pass over the store (the first counts what it does; see retimed-document.ts). */
  retimePass?: () => (annotation: Annotation) => Annotation | null,
): Promise<DumpReport | null> {
  const { writeCues, dumpTwoPass } = targetCodec;
  if (writeCues === undefined) {
    if (dumpTwoPass === undefined) return null;
    const pass = (): AsyncIterable<Annotation> => (retimePass === undefined ? store.all() : transformed(store.all(), retimePass()));
    return dumpTwoPass({ tiers: await store.listTiers(), meta: await store.listMeta(), pass }, path, options);
  }
  try {
    const comments = targetCodec.writesComments === true ? 'keep' : 'drop';
    const selection = streamFlatCues(await store.listTiers(), store.all(), options, formatName, undefined, comments, retimePass?.());
    return await writeCues(selection, (key) => store.getMeta(key), path, options);
  } catch (error) {
    if (!(error instanceof CuesOutOfTimeOrder)) throw error;
    rmSync(path, { force: true });
    return null;
  }
}

async function* transformed(annotations: AsyncIterable<Annotation>, transform: (annotation: Annotation) => Annotation | null): AsyncGenerator<Annotation> {
  for await (const annotation of annotations) {
    const result = transform(annotation);
    if (result !== null) yield result;
  }
}

import type { Annotation } from '../model/annotation.js';
import type { Tier } from '../model/tier.js';
import type { AnnotationStore } from '../store/store.js';
import { AnnotError } from '../errors/annot-error.js';
import type { DumpOptions, FlatCue, FlatSelection } from './adapter.js';
import { UnrepresentableError } from './errors.js';

/**
 * Choosing what a flat cue format (WebVTT, SRT) writes from a store that may hold many tiers.
 *
 * With `options.tier` only that tier is written (an unknown tier is an error that lists the
 * tiers). Without it every annotation with an interval, whatever its tier, is written, merged in
 * order of start time, because a subtitle file is one track. Subtitle formats require ascending start times; cues with equal starts keep store order. What that
 * loses is counted: the tier names, annotations on other tiers, symbolic annotations (no time),
 * provenance, confidence.
 *
 * Stores are walked twice rather than held: once to check whether the selection is already in
 * time order (files loaded from a subtitle file are), and once to write. Only a store out of time
 * order is collected and sorted.
 */

export type { FlatCue, FlatSelection };

/** What a writer wants of a selection beyond the tier (DumpOptions.tier). */
export interface FlatSelectionOptions {
  /**
   * Comment events (a body with `comment: true`: ASS `Comment:` lines, which players never show)
   * are written only by a format that has comments too (ASS); others leave them out, counted.
   */
  readonly comments?: 'keep' | 'drop';
  /**
   * A store whose selected annotations all have this body schema is written in store order, not
   * time order: a format whose order means something beyond time (ASS draws later events over
   * earlier ones) gets its own file's order back.
   */
  readonly storeOrderFor?: string;
}

export async function selectFlatCues(store: AnnotationStore, options: DumpOptions, formatName: string, selection: FlatSelectionOptions = {}): Promise<FlatSelection> {
  checkTier(await store.listTiers(), options, formatName);
  const tally = new FlatTally(options, selection.comments ?? 'drop');
  let inOrder = true;
  let lastStart = -Infinity;
  let allOfSchema = selection.storeOrderFor !== undefined;
  for await (const annotation of store.all()) {
    if (!tally.count(annotation)) continue;
    if (allOfSchema && annotation.body_schema_uri !== selection.storeOrderFor) allOfSchema = false;
    const startMs = startOf(annotation);
    if (startMs < lastStart) inOrder = false;
    lastStart = startMs;
  }
  const dropped = tally.dropped();
  const keep = (annotation: Annotation): boolean => tally.keeps(annotation);

  async function* cues(): AsyncGenerator<FlatCue> {
    if (inOrder || allOfSchema) {
      for await (const annotation of store.all()) {
        if (!keep(annotation)) continue;
        yield flatCue(annotation);
      }
      return;
    }
    const all: FlatCue[] = [];
    for await (const annotation of store.all()) if (keep(annotation)) all.push(flatCue(annotation));
    all.sort((a, b) => a.startMs - b.startMs); // stable: store order breaks ties
    yield* all;
  }
  return { cues, dropped, roundedTimes: tally.roundedTimes };
}

/**
 * The selection of a stream of annotations read once (a conversion that streams: see
 * service/convert-stream.ts). The cues are yielded as they come, so they must already be in time
 * order: the first cue that starts before the one above it throws CuesOutOfTimeOrder, and the
 * caller converts the whole document instead. `dropped` (and `roundedTimes`) are complete once
 * cues() has been consumed; writers read them after their last cue.
 */
export function streamFlatCues(
  tiers: readonly Tier[],
  annotations: AsyncIterable<Annotation>,
  options: DumpOptions,
  formatName: string,
  onProgress?: (read: number) => void,
  comments: 'keep' | 'drop' = 'drop',
  /**
   * Applied to each annotation as it is read, in the same loop (no stream between): the new
   * annotation, or null to leave it out as if the input had not had it (a retime's drop).
   */
  transform?: (annotation: Annotation) => Annotation | null,
): FlatSelection & { readonly read: number } {
  checkTier(tiers, options, formatName);
  const tally = new FlatTally(options, comments);
  const dropped: Array<{ what: string; count: number }> = [];
  const selection = {
    dropped,
    roundedTimes: 0,
    /** Annotations read so far, written or not. */
    read: 0,
    async *cues(): AsyncGenerator<FlatCue> {
      let lastStart = -Infinity;
      let read = 0;
      for await (const given of annotations) {
        const annotation = transform === undefined ? given : transform(given);
        if (annotation === null) continue;
        if (++read % 10000 === 0) {
          selection.read = read;
          onProgress?.(read);
        }
        if (!tally.count(annotation)) continue;
        const cue = flatCue(annotation);
        if (cue.startMs < lastStart) throw new CuesOutOfTimeOrder(formatName);
        lastStart = cue.startMs;
        yield cue;
      }
      selection.read = read;
      onProgress?.(read);
      dropped.push(...tally.dropped());
      selection.roundedTimes = tally.roundedTimes;
    },
  };
  return selection;
}

/** A streamed selection met a cue that starts before the cue above it: the stream cannot be written as it comes. */
export class CuesOutOfTimeOrder extends AnnotError {
  readonly code = 'ANNOT_CUES_OUT_OF_TIME_ORDER';

  constructor(formatName: string) {
    super(`${formatName}: the cues are not in order of their start times, so they cannot be written as they are read`);
  }
}

function checkTier(tiers: readonly Tier[], options: DumpOptions, formatName: string): void {
  if (options.tier !== undefined && !tiers.some((tier) => tier.name === options.tier)) {
    throw new UnrepresentableError(`${formatName}: tier ${JSON.stringify(options.tier)} is not in the store; known tiers: ${tiers.map((tier) => tier.name).join(', ') || '(none)'}`);
  }
}

/** Counts, annotation by annotation, what a flat cue format keeps and loses. */
class FlatTally {
  private symbolic = 0;
  private otherTiers = 0;
  private selected = 0;
  private withConfidence = 0;
  private comments = 0;
  private beforeZero = 0;
  private cutAtZero = 0;
  roundedTimes = 0;
  private readonly tiersSeen = new Set<string>();

  constructor(
    private readonly options: DumpOptions,
    private readonly commentsKept: 'keep' | 'drop',
  ) {}

  keeps(annotation: Annotation): boolean {
    if (this.options.tier !== undefined && annotation.tier !== this.options.tier) return false;
    if (this.commentsKept === 'drop' && isComment(annotation)) return false;
    return annotation.reference.kind === 'media' && !whollyBeforeZero(annotation);
  }

  /** Counts one annotation; whether it is written. */
  count(annotation: Annotation): boolean {
    if (this.options.tier !== undefined && annotation.tier !== this.options.tier) {
      this.otherTiers++;
      return false;
    }
    if (annotation.reference.kind !== 'media') {
      this.symbolic++;
      return false;
    }
    if (this.commentsKept === 'drop' && isComment(annotation)) {
      this.comments++;
      return false;
    }
    if (whollyBeforeZero(annotation)) {
      this.beforeZero++;
      return false;
    }
    if (annotation.reference.interval.start.v < 0) this.cutAtZero++;
    this.selected++;
    this.tiersSeen.add(annotation.tier);
    if (annotation.confidence !== null) this.withConfidence++;
    const { start, end } = annotation.reference.interval;
    if (!Number.isInteger((start.v * 1000) / start.r) || !Number.isInteger((end.v * 1000) / end.r)) this.roundedTimes++;
    return true;
  }

  dropped(): Array<{ what: string; count: number }> {
    const dropped: Array<{ what: string; count: number }> = [];
    if (this.selected > 0) dropped.push({ what: 'provenance', count: this.selected }, { what: 'annotation ids', count: this.selected });
    if (this.withConfidence > 0) dropped.push({ what: 'confidence', count: this.withConfidence });
    if (this.symbolic > 0) dropped.push({ what: 'symbolic annotations', count: this.symbolic });
    if (this.otherTiers > 0) dropped.push({ what: 'annotations on other tiers', count: this.otherTiers });
    if (this.comments > 0) dropped.push({ what: COMMENT_EVENTS_DROPPED, count: this.comments });
    if (this.tiersSeen.size > 1) dropped.push({ what: 'tier names (tiers merged into one track)', count: this.tiersSeen.size });
    if (this.roundedTimes > 0) dropped.push({ what: SUB_MILLISECOND_PRECISION, count: this.roundedTimes });
    if (this.beforeZero > 0) dropped.push({ what: 'annotations wholly before 0 s (a subtitle time cannot be negative)', count: this.beforeZero });
    if (this.cutAtZero > 0) dropped.push({ what: 'start times before 0 s (written as 0)', count: this.cutAtZero });
    return dropped;
  }
}

/** How the loss report names times rounded to whole milliseconds; a writer that keeps times its own way (exact ticks, centiseconds) leaves it out. */
export const SUB_MILLISECOND_PRECISION = 'sub-millisecond precision';

/** How the loss report names the comment events a format without comments leaves out. */
export const COMMENT_EVENTS_DROPPED = 'comment events (ASS Comment: lines, which players do not show)';

/** An event its format marks as a comment (ASS `Comment:`), never shown by a player. */
function isComment(annotation: Annotation): boolean {
  return (annotation.body as Record<string, unknown>).comment === true;
}

function startOf(annotation: Annotation): number {
  const { start } = (annotation.reference as { interval: { start: { v: number; r: number } } }).interval;
  return Math.max(0, toMs(start.v, start.r));
}

/**
 * A cue's times in whole milliseconds. Subtitle times cannot be negative: a cue that starts before
 * 0 s and ends after it is cut to start at 0 (one wholly before 0 s is not selected at all).
 */
function flatCue(annotation: Annotation): FlatCue {
  const { start, end } = (annotation.reference as { interval: { start: { v: number; r: number }; end: { v: number; r: number } } }).interval;
  return { startMs: Math.max(0, toMs(start.v, start.r)), endMs: Math.max(0, toMs(end.v, end.r)), annotation };
}

/** An annotation that ends before 0 s, or at 0 s having started before it: no subtitle format can time it. */
function whollyBeforeZero(annotation: Annotation): boolean {
  const { start, end } = (annotation.reference as { interval: { start: { v: number }; end: { v: number } } }).interval;
  return end.v < 0 || (end.v === 0 && start.v < 0);
}

/** Ticks at a rate as whole milliseconds, to the nearest (ties to even) when not exact. */
export function toMs(v: number, r: number): number {
  if (r === 1000) return v;
  if (1000 % r === 0) return v * (1000 / r);
  const exact = (v * 1000) / r;
  if (Number.isSafeInteger(v * 1000)) {
    const remainder = (v * 1000) % r;
    if (remainder === 0) return (v * 1000) / r;
  }
  const floor = Math.floor(exact);
  const diff = exact - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** A body's text for a cue format: `text` when it is a string, else `label`, else `value` (see bodyTextKey). */
export function bodyText(body: Readonly<Record<string, unknown>>): string | null {
  const key = bodyTextKey(body);
  if (key === null) return null;
  const value = body[key];
  return typeof value === 'string' ? value : String(value);
}

/**
 * Which body field is the text a text-only format (cues, TextGrid labels, ELAN values) writes:
 * `text`, else `label`, else a scalar `value` (a JAMS observation's value is its label: the chord
 * `A:7(b9)`, the segment `head`, the tempo 120). The other fields are what such a format loses.
 */
export function bodyTextKey(body: Readonly<Record<string, unknown>>): 'text' | 'label' | 'value' | null {
  if (typeof body.text === 'string') return 'text';
  if (typeof body.label === 'string') return 'label';
  const value = body.value;
  if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') return 'value';
  return null;
}

import type { Annotation } from '../model/annotation.js';
import type { AnnotationStore } from '../store/store.js';
import type { DumpOptions } from './adapter.js';
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

export interface FlatCue {
  readonly startMs: number;
  readonly endMs: number;
  readonly annotation: Annotation;
}

export interface FlatSelection {
  /** The cues in time order, each once. */
  cues(): AsyncIterable<FlatCue>;
  readonly dropped: Array<{ what: string; count: number }>;
  /** How many times were not whole milliseconds (rounded to the nearest). */
  readonly roundedTimes: number;
}

export async function selectFlatCues(store: AnnotationStore, options: DumpOptions, formatName: string): Promise<FlatSelection> {
  const tiers = await store.listTiers();
  if (options.tier !== undefined && !tiers.some((tier) => tier.name === options.tier)) {
    throw new UnrepresentableError(`${formatName}: tier ${JSON.stringify(options.tier)} is not in the store; known tiers: ${tiers.map((tier) => tier.name).join(', ') || '(none)'}`);
  }
  let symbolic = 0;
  let otherTiers = 0;
  let selected = 0;
  let withConfidence = 0;
  let roundedTimes = 0;
  let inOrder = true;
  let lastStart = -Infinity;
  const tiersSeen = new Set<string>();
  const keep = (annotation: Annotation): boolean => {
    if (options.tier !== undefined && annotation.tier !== options.tier) return false;
    return annotation.reference.kind === 'media';
  };
  for await (const annotation of store.all()) {
    if (options.tier !== undefined && annotation.tier !== options.tier) {
      otherTiers++;
      continue;
    }
    if (annotation.reference.kind !== 'media') {
      symbolic++;
      continue;
    }
    selected++;
    tiersSeen.add(annotation.tier);
    if (annotation.confidence !== null) withConfidence++;
    const { start, end } = annotation.reference.interval;
    const startMs = toMs(start.v, start.r);
    if (!Number.isInteger((start.v * 1000) / start.r) || !Number.isInteger((end.v * 1000) / end.r)) roundedTimes++;
    if (startMs < lastStart) inOrder = false;
    lastStart = startMs;
  }
  const dropped: Array<{ what: string; count: number }> = [];
  if (selected > 0) dropped.push({ what: 'provenance', count: selected }, { what: 'annotation ids', count: selected });
  if (withConfidence > 0) dropped.push({ what: 'confidence', count: withConfidence });
  if (symbolic > 0) dropped.push({ what: 'symbolic annotations', count: symbolic });
  if (otherTiers > 0) dropped.push({ what: 'annotations on other tiers', count: otherTiers });
  if (tiersSeen.size > 1) dropped.push({ what: 'tier names (tiers merged into one track)', count: tiersSeen.size });
  if (roundedTimes > 0) dropped.push({ what: 'sub-millisecond precision', count: roundedTimes });

  async function* cues(): AsyncGenerator<FlatCue> {
    if (inOrder) {
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
  return { cues, dropped, roundedTimes };
}

function flatCue(annotation: Annotation): FlatCue {
  const { start, end } = (annotation.reference as { interval: { start: { v: number; r: number }; end: { v: number; r: number } } }).interval;
  return { startMs: toMs(start.v, start.r), endMs: toMs(end.v, end.r), annotation };
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

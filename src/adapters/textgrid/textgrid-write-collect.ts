import type { Annotation } from '../../model/annotation.js';
import type { AnnotationStore } from '../../store/store.js';
import { compareFractions, divideRounding, reduce, type Fraction } from '../../time/decimal.js';
import { bodyTextKey } from '../flat-cues.js';
import { plainCueText } from '../plain-cue-text.js';
import { TEXTGRID_XMAX_META, TEXTGRID_XMIN_META } from './meta-keys.js';
import type { TextGridWriteState } from './textgrid-write-state.js';

/**
 * The first pass: the store's tiers and annotations, each placed as an interval or a point of
 * its tier at its time. Symbolic annotations wait for placeSymbolic, which gives them times.
 */
export async function collectStore(state: TextGridWriteState, store: AnnotationStore): Promise<void> {
  state.storeTiers = await store.listTiers();
  for (const tier of state.storeTiers) {
    state.itemsOf(tier.name);
    state.classOf.set(tier.name, tier.metadata.textgrid_class);
    state.stereotypeOf.set(tier.name, tier.stereotype);
    state.metadataOf.set(tier.name, tier.metadata);
  }
  state.storedMin = await store.getMeta(TEXTGRID_XMIN_META);
  state.storedMax = await store.getMeta(TEXTGRID_XMAX_META);
  for await (const annotation of store.all()) {
    if (annotation.reference.kind !== 'media') {
      state.pending.push(annotation);
      continue;
    }
    place(state, annotation, annotation.reference.interval.start.toFraction(), annotation.reference.interval.end.toFraction());
  }
}

/** An annotation at [start, end]: a point where they meet (unless its tier was an IntervalTier), else an interval. */
function place(state: TextGridWriteState, annotation: Annotation, start: Fraction, end: Fraction): void {
  const { counts } = state;
  counts.annotations++;
  state.placed.set(annotation.id, { start, end });
  if (annotation.confidence !== null) counts.confidence++;
  const body = annotation.body as Record<string, unknown>;
  const textKey = bodyTextKey(body);
  if (Object.keys(body).some((key) => key !== textKey)) counts.otherFields++;
  const text = plainCueText(annotation);
  if (text === null) counts.noText++;
  const entry = state.itemsOf(annotation.tier);
  const item = { start, end, text: text ?? '' };
  // A zero-length interval on an interval tier (times that met after quantizing) stays an interval.
  (compareFractions(start, end) === 0 && state.classOf.get(annotation.tier) !== 'IntervalTier' ? entry.points : entry.intervals).push(item);
}

/**
 * Symbolic annotations get times from their parent, as ELAN's TextGrid export does: the children
 * of one parent on a SYMBOLIC_SUBDIVISION tier share its interval equally (in store order,
 * boundaries on whole milliseconds), a SYMBOLIC_ASSOCIATION child takes the parent's interval.
 * Parents that are symbolic themselves are placed first, in rounds; only an annotation whose
 * parent is missing is lost (counted).
 */
export function placeSymbolic(state: TextGridWriteState): void {
  for (let progress = true; state.pending.length > 0 && progress; ) {
    progress = false;
    const groups = new Map<string, Annotation[]>();
    const waiting: Annotation[] = [];
    for (const annotation of state.pending) {
      const parentId = targetOf(annotation);
      if (!state.placed.has(parentId)) {
        waiting.push(annotation);
        continue;
      }
      const key = `${annotation.tier}\u0000${parentId}`;
      const group = groups.get(key);
      if (group) group.push(annotation);
      else groups.set(key, [annotation]);
    }
    for (const group of groups.values()) {
      progress = true;
      placeGroup(state, group);
    }
    state.pending = waiting;
  }
  state.counts.symbolic = state.pending.length;
}

function placeGroup(state: TextGridWriteState, group: readonly Annotation[]): void {
  const parent = state.placed.get(targetOf(group[0])) as { start: Fraction; end: Fraction };
  const divide = state.stereotypeOf.get(group[0].tier) === 'SYMBOLIC_SUBDIVISION' && group.length > 1;
  group.forEach((annotation, index) => {
    const start = divide ? boundary(parent.start, parent.end, index, group.length) : parent.start;
    const end = divide ? boundary(parent.start, parent.end, index + 1, group.length) : parent.end;
    place(state, annotation, start, end);
  });
}

function targetOf(annotation: Annotation): string {
  return (annotation.reference as { target_id: string }).target_id;
}

/** Boundary `index` of `parts` equal parts of [start, end]: the ends exact, the inner ones on whole milliseconds. */
export function boundary(start: Fraction, end: Fraction, index: number, parts: number): Fraction {
  if (index === 0) return start;
  if (index === parts) return end;
  const n = BigInt(parts);
  const i = BigInt(index);
  // start + (end - start) * i / n, in milliseconds, rounded to the nearest.
  const num = (start.num * end.den * n + (end.num * start.den - start.num * end.den) * i) * 1000n;
  const den = start.den * end.den * n;
  return reduce(divideRounding(num, den, 'round'), 1000n);
}

import { compareFractions, type Fraction } from '../../time/decimal.js';
import { readGridBound } from './meta-keys.js';
import type { Item, TextGridWriteState, TierItems } from './textgrid-write-state.js';

/**
 * The second pass: the TextGrid's shape. The grid's bounds are the file's own when they still
 * cover everything, else the extent of the data (from 0). An interval tier read from a TextGrid
 * is written back as it was read. Any other store tier becomes a TextTier if it holds points
 * only, else an IntervalTier tiled from its bounds with empty intervals; points on an interval
 * tier go to a TextTier of the same name beside it, overlapping intervals to further
 * IntervalTiers of the same name, points at the same time to further TextTiers: nothing with a
 * time is dropped.
 */
export function layOut(state: TextGridWriteState): void {
  gridBounds(state);
  for (const [tierName, entry] of state.byTier) layOutTier(state, tierName, entry);
}

function gridBounds(state: TextGridWriteState): void {
  let lowest: Fraction | null = null;
  let highest: Fraction | null = null;
  for (const entry of state.byTier.values()) {
    for (const item of [...entry.intervals, ...entry.points]) {
      if (lowest === null || less(item.start, lowest)) lowest = item.start;
      if (highest === null || less(highest, item.end)) highest = item.end;
    }
  }
  const zero = { num: 0n, den: 1n };
  let gridMin = readGridBound(state.storedMin) ?? (lowest !== null && less(lowest, zero) ? lowest : zero);
  let gridMax = readGridBound(state.storedMax) ?? highest ?? gridMin;
  if (lowest !== null && less(lowest, gridMin)) gridMin = lowest;
  if (highest !== null && less(gridMax, highest)) gridMax = highest;
  if (less(gridMax, gridMin)) gridMax = gridMin;
  state.gridMin = gridMin;
  state.gridMax = gridMax;
}

function layOutTier(state: TextGridWriteState, tierName: string, entry: TierItems): void {
  const metadata = state.metadataOf.get(tierName) ?? {};
  const name = typeof metadata.textgrid_name === 'string' ? metadata.textgrid_name : tierName;
  let tierMin = readGridBound(typeof metadata.textgrid_xmin === 'string' ? metadata.textgrid_xmin : null) ?? state.gridMin;
  let tierMax = readGridBound(typeof metadata.textgrid_xmax === 'string' ? metadata.textgrid_xmax : null) ?? state.gridMax;
  for (const item of [...entry.intervals, ...entry.points]) {
    if (less(item.start, tierMin)) tierMin = item.start;
    if (less(tierMax, item.end)) tierMax = item.end;
  }
  // Each TextGrid tier writes (and counts, when inexact) its own bounds.
  const bounds = () => ({ name, xmin: state.decimal(tierMin), xmax: state.decimal(tierMax) });
  const intervalTier = (items: readonly Item[]) => {
    state.written.push({ kind: 'IntervalTier', ...bounds(), items: items.map((item) => ({ start: state.decimal(item.start), end: state.decimal(item.end), text: item.text })) });
  };
  if (metadata.textgrid_class === 'IntervalTier') {
    // A tier read from a TextGrid is written as it was read: each interval as it is (every one,
    // empty labels included, was an annotation), no filler for a gap the file had (ELAN's exports
    // leave one before the first), an overlap where the file had one (Praat reads both as written).
    intervalTier([...entry.intervals, ...entry.points].sort((a, b) => compareFractions(a.start, b.start) || compareFractions(a.end, b.end)));
    return;
  }
  const pointsOnly = metadata.textgrid_class === 'TextTier' ? entry.intervals.length === 0 : entry.intervals.length === 0 && entry.points.length > 0;
  if (!pointsOnly) {
    const lanes = intervalLanes(entry.intervals);
    state.counts.splitIntervals += entry.intervals.length - lanes[0].length;
    for (const lane of lanes) intervalTier(tile(lane, tierMin, tierMax));
    state.counts.movedPoints += entry.points.length;
  }
  if (pointsOnly || entry.points.length > 0) {
    const lanes = pointLanes(entry.points);
    state.counts.samePointTimes += entry.points.length - lanes[0].length;
    for (const lane of lanes) state.written.push({ kind: 'TextTier', ...bounds(), items: lane.map((item) => ({ start: state.decimal(item.start), end: state.decimal(item.start), text: item.text })) });
  }
}

/**
 * Points sorted by time, dealt into lanes of distinct times: a TextTier holds one point per time
 * (Praat keeps only one of several at the same time), so the others go to further TextTiers.
 */
export function pointLanes(points: readonly Item[]): Item[][] {
  const lanes: Item[][] = [[]];
  for (const point of [...points].sort((a, b) => compareFractions(a.start, b.start))) {
    const lane = lanes.find((candidate) => candidate.length === 0 || less(candidate[candidate.length - 1].start, point.start));
    if (lane) lane.push(point);
    else lanes.push([point]);
  }
  return lanes;
}

function less(a: Fraction, b: Fraction): boolean {
  return compareFractions(a, b) < 0;
}

/** Intervals sorted by start, dealt into as few non-overlapping lanes as a greedy pass finds (the first lane takes the most). */
export function intervalLanes(intervals: readonly Item[]): Item[][] {
  const sorted = [...intervals].sort((a, b) => compareFractions(a.start, b.start) || compareFractions(a.end, b.end));
  const lanes: Item[][] = [[]];
  for (const item of sorted) {
    const lane = lanes.find((candidate) => candidate.length === 0 || compareFractions(candidate[candidate.length - 1].end, item.start) <= 0);
    if (lane) lane.push(item);
    else lanes.push([item]);
  }
  return lanes;
}

/** A lane of intervals tiled from `min` to `max`, gaps filled with empty labels. */
export function tile(lane: readonly Item[], min: Fraction, max: Fraction): Item[] {
  if (lane.length === 0) return [];
  const out: Item[] = [];
  let cursor = min;
  for (const item of lane) {
    if (less(cursor, item.start)) out.push({ start: cursor, end: item.start, text: '' });
    out.push(item);
    cursor = item.end;
  }
  if (less(cursor, max)) out.push({ start: cursor, end: max, text: '' });
  return out;
}

import { readFile, writeFile } from 'node:fs/promises';
import { makeAnnotation, mediaRef, type Annotation } from '../../model/annotation.js';
import { makeProvenance } from '../../model/provenance.js';
import { makeTier, type Tier } from '../../model/tier.js';
import type { AnnotationStore } from '../../store/store.js';
import { divideRounding, fractionToDecimal, parseSeconds, reduce, type Fraction } from '../../time/decimal.js';
import type { RationalTime } from '../../time/rational-time.js';
import { TimeInterval } from '../../time/time-interval.js';
import { InvalidInputError } from '../../errors/annot-error.js';
import type { DumpOptions, DumpReport, FormatCodec, LoadedDocument, LoadOptions } from '../adapter.js';
import { bodyText, bodyTextKey } from '../flat-cues.js';
import { ImportClock } from '../import-clock.js';
import { importProvenance } from '../import-provenance.js';
import { decodeSource } from '../source-text.js';
import { readTextGrid, type TextGridItem, type TextGridTierHead } from './parser.js';
import { writeTextGrid, type TextGridVariant, type WritableTier } from './writer.js';

export const TEXTGRID_LABEL_SCHEMA = 'annot://schema/textgrid-label/v1';
export const DEFAULT_TEXTGRID_ASSET = 'textgrid:unspecified';
/** Store metadata keys for the grid's own bounds, as written. */
export const TEXTGRID_XMIN_META = 'textgrid.xmin';
export const TEXTGRID_XMAX_META = 'textgrid.xmax';

/**
 * Loads a TextGrid (long or short, UTF-8 or UTF-16 either endianness, any line breaks). Every
 * tier becomes a tier, every interval an interval annotation (empty labels included: they are
 * part of the file), every point a point annotation, in file order. The rate is the finest
 * decimal the file's times need (capped at nanoseconds; longer floats are quantized and
 * counted) unless `--rate` says otherwise. Tier names must be unique in a store, so a repeated
 * name gets ` (2)`, ` (3)`... and an empty one `(unnamed N)`; the name as written, the tier class
 * and the tier's own bounds are kept in the tier metadata and written back.
 */
export async function load(path: string, options: LoadOptions): Promise<LoadedDocument> {
  const source = decodeSource(await readFile(path), options.sourceName);
  // First pass: check the file, report overlaps and find the rate its times need, keeping only
  // the tier heads; the annotations are made on a second pass, as they are read.
  let grid = { xmin: '0', xmax: '0' };
  const heads: TextGridTierHead[] = [];
  const rate = new DecimalRate();
  const overlaps = new OverlapCheck(options);
  for (const event of readTextGrid(source, options.sourceName)) {
    if ('grid' in event) {
      grid = event.grid;
      rate.visit(grid.xmin);
      rate.visit(grid.xmax);
    } else if ('tier' in event) {
      heads.push(event.tier);
      overlaps.startTier(event.tier);
    } else {
      rate.visit(event.item.start);
      if (event.item.end !== event.item.start) rate.visit(event.item.end);
      overlaps.item(event.item);
    }
  }
  const clock = new ImportClock(options.rate ?? rate.value(), options.strictTime ?? false);
  const assetId = options.assetId ?? DEFAULT_TEXTGRID_ASSET;
  const provenance = makeProvenance(importProvenance('textgrid', options));

  const used = new Set<string>();
  const tiers: Tier[] = heads.map((tier, index) => {
    const base = tier.name.length > 0 ? tier.name : `(unnamed ${index + 1})`;
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base} (${n})`;
    used.add(name);
    return makeTier({ name, metadata: { textgrid_name: tier.name, textgrid_class: tier.kind, textgrid_xmin: tier.xmin, textgrid_xmax: tier.xmax } });
  });

  async function* annotations(): AsyncGenerator<Annotation> {
    let t = -1;
    for (const event of readTextGrid(source, options.sourceName)) {
      if ('tier' in event) t++;
      if (!('item' in event)) continue;
      const item = event.item;
      const where = `${options.sourceName}:${item.line}`;
      const start = clock.seconds(item.start, where);
      const interval = item.start === item.end ? TimeInterval.point(start) : new TimeInterval(start, clock.seconds(item.end, where));
      yield makeAnnotation({ tier: tiers[t].name, reference: mediaRef(assetId, interval), body: { text: item.text }, body_schema_uri: TEXTGRID_LABEL_SCHEMA, provenance });
    }
  }

  return {
    tiers,
    meta: { [TEXTGRID_XMIN_META]: grid.xmin, [TEXTGRID_XMAX_META]: grid.xmax },
    annotations: annotations(),
    quantization: () => clock.quantization(),
  };
}

/**
 * Praat refuses an IntervalTier whose intervals overlap (each must start where the previous one
 * ended). The annotations are still read; each overlap is an error finding at the line of the
 * interval that starts too early.
 */
class OverlapCheck {
  private tier: TextGridTierHead | null = null;
  private previous: TextGridItem | null = null;

  constructor(private readonly options: LoadOptions) {}

  startTier(tier: TextGridTierHead): void {
    this.tier = tier;
    this.previous = null;
  }

  item(item: TextGridItem): void {
    const { tier, previous } = this;
    if (tier === null || tier.kind !== 'IntervalTier') return;
    if (previous !== null && Number(item.start) < Number(previous.end)) {
      this.options.report({
        code: 'tier_overlap',
        severity: 'error',
        file: this.options.sourceName,
        location: { line: item.line },
        message: `interval ${JSON.stringify(item.text)} of tier ${JSON.stringify(tier.name)} starts at ${item.start}, before the previous interval (${JSON.stringify(previous.text)}, line ${previous.line}) ends at ${previous.end}; Praat requires the intervals of a tier not to overlap`,
      });
    }
    this.previous = item;
  }
}

interface Item {
  start: Fraction;
  end: Fraction;
  text: string;
}

/**
 * Writes a TextGrid, long by default or short with `variant: 'short'`. Tiers keep store order
 * and their TextGrid names. A tier of points only becomes a TextTier; any other becomes an
 * IntervalTier whose gaps are filled with empty intervals (Praat requires a tier to be tiled), so
 * gaps come back as empty-label annotations. Points on an interval tier go to a TextTier of the
 * same name beside it, and overlapping intervals to further IntervalTiers of the same name:
 * nothing with a time is dropped. Lost: ids, provenance, confidence, body fields other than text,
 * tier stereotypes and parents, symbolic annotations.
 */
export async function dump(store: AnnotationStore, path: string, options: DumpOptions): Promise<DumpReport> {
  const variant = (options.variant ?? 'long') as TextGridVariant;
  if (variant !== 'long' && variant !== 'short') {
    throw new InvalidInputError(`textgrid: unknown variant ${JSON.stringify(options.variant)}; use "long" (Praat's text file) or "short" (short text file)`);
  }
  const storeTiers = await store.listTiers();
  const byTier = new Map<string, { intervals: Item[]; points: Item[] }>();
  for (const tier of storeTiers) byTier.set(tier.name, { intervals: [], points: [] });
  const classOf = new Map(storeTiers.map((tier) => [tier.name, tier.metadata.textgrid_class]));
  let count = 0;
  let symbolic = 0;
  let confidence = 0;
  let otherFields = 0;
  let noText = 0;
  let inexact = 0;
  const place = (annotation: Annotation, start: Fraction, end: Fraction): void => {
    count++;
    if (annotation.confidence !== null) confidence++;
    const body = annotation.body as Record<string, unknown>;
    const textKey = bodyTextKey(body);
    if (Object.keys(body).some((key) => key !== textKey)) otherFields++;
    const text = bodyText(body);
    if (text === null) noText++;
    let entry = byTier.get(annotation.tier);
    if (!entry) {
      entry = { intervals: [], points: [] };
      byTier.set(annotation.tier, entry);
    }
    const item = { start, end, text: text ?? '' };
    // A zero-length interval on an interval tier (times that met after quantizing) stays an interval.
    const tierClass = classOf.get(annotation.tier);
    (compare(start, end) === 0 && tierClass !== 'IntervalTier' ? entry.points : entry.intervals).push(item);
  };
  const placed = new Map<string, { start: Fraction; end: Fraction }>();
  let pending: Annotation[] = [];
  for await (const annotation of store.all()) {
    if (annotation.reference.kind !== 'media') {
      pending.push(annotation);
      continue;
    }
    const start = fraction(annotation.reference.interval.start);
    const end = fraction(annotation.reference.interval.end);
    placed.set(annotation.id, { start, end });
    place(annotation, start, end);
  }
  // Symbolic annotations get times from their parent, as ELAN's TextGrid export does: the
  // children of one parent on a SYMBOLIC_SUBDIVISION tier share its interval equally (in store
  // order, boundaries on whole milliseconds), a SYMBOLIC_ASSOCIATION child takes the parent's
  // interval. Parents that are symbolic themselves are placed first; only an annotation whose
  // parent is missing is lost.
  const stereotypeOf = new Map(storeTiers.map((tier) => [tier.name, tier.stereotype]));
  for (let progress = true; pending.length > 0 && progress; ) {
    progress = false;
    const groups = new Map<string, Annotation[]>();
    const waiting: Annotation[] = [];
    for (const annotation of pending) {
      const parentId = (annotation.reference as { target_id: string }).target_id;
      if (!placed.has(parentId)) {
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
      const parent = placed.get((group[0].reference as { target_id: string }).target_id) as { start: Fraction; end: Fraction };
      const divide = stereotypeOf.get(group[0].tier) === 'SYMBOLIC_SUBDIVISION' && group.length > 1;
      group.forEach((annotation, index) => {
        const start = divide ? boundary(parent.start, parent.end, index, group.length) : parent.start;
        const end = divide ? boundary(parent.start, parent.end, index + 1, group.length) : parent.end;
        placed.set(annotation.id, { start, end });
        place(annotation, start, end);
      });
    }
    pending = waiting;
  }
  symbolic = pending.length;
  const metadataOf = new Map(storeTiers.map((tier) => [tier.name, tier.metadata]));

  // Grid bounds: as the file had them when they still cover everything, else the extent of the data (from 0).
  let lowest: Fraction | null = null;
  let highest: Fraction | null = null;
  for (const entry of byTier.values()) {
    for (const item of [...entry.intervals, ...entry.points]) {
      if (lowest === null || less(item.start, lowest)) lowest = item.start;
      if (highest === null || less(highest, item.end)) highest = item.end;
    }
  }
  const zero = { num: 0n, den: 1n };
  let gridMin = readBound(await store.getMeta(TEXTGRID_XMIN_META)) ?? (lowest !== null && less(lowest, zero) ? lowest : zero);
  let gridMax = readBound(await store.getMeta(TEXTGRID_XMAX_META)) ?? highest ?? gridMin;
  if (lowest !== null && less(lowest, gridMin)) gridMin = lowest;
  if (highest !== null && less(gridMax, highest)) gridMax = highest;
  if (less(gridMax, gridMin)) gridMax = gridMin;

  const decimal = (value: Fraction): string => {
    const text = fractionToDecimal(value.num, value.den);
    if (text !== null) return text;
    inexact++;
    return String(Number(value.num) / Number(value.den));
  };

  const written: WritableTier[] = [];
  let movedPoints = 0;
  let splitIntervals = 0;
  for (const [tierName, entry] of byTier) {
    const metadata = metadataOf.get(tierName) ?? {};
    const name = typeof metadata.textgrid_name === 'string' ? metadata.textgrid_name : tierName;
    let tierMin = readBound(typeof metadata.textgrid_xmin === 'string' ? metadata.textgrid_xmin : null) ?? gridMin;
    let tierMax = readBound(typeof metadata.textgrid_xmax === 'string' ? metadata.textgrid_xmax : null) ?? gridMax;
    for (const item of [...entry.intervals, ...entry.points]) {
      if (less(item.start, tierMin)) tierMin = item.start;
      if (less(tierMax, item.end)) tierMax = item.end;
    }
    const pointsOnly = metadata.textgrid_class === 'TextTier' ? entry.intervals.length === 0 : entry.intervals.length === 0 && entry.points.length > 0;
    if (!pointsOnly) {
      const lanes = intervalLanes(entry.intervals);
      splitIntervals += entry.intervals.length - lanes[0].length;
      for (const lane of lanes) {
        written.push({ kind: 'IntervalTier', name, xmin: decimal(tierMin), xmax: decimal(tierMax), items: tile(lane, tierMin, tierMax).map((item) => ({ start: decimal(item.start), end: decimal(item.end), text: item.text })) });
      }
      movedPoints += entry.points.length;
    }
    if (pointsOnly || entry.points.length > 0) {
      const points = [...entry.points].sort((a, b) => compare(a.start, b.start));
      written.push({ kind: 'TextTier', name, xmin: decimal(tierMin), xmax: decimal(tierMax), items: points.map((item) => ({ start: decimal(item.start), end: decimal(item.start), text: item.text })) });
    }
  }
  await writeFile(path, writeTextGrid(decimal(gridMin), decimal(gridMax), written, variant), 'utf8');

  const dropped: Array<{ what: string; count: number }> = [];
  if (count > 0) dropped.push({ what: 'provenance', count }, { what: 'annotation ids', count });
  if (confidence > 0) dropped.push({ what: 'confidence', count: confidence });
  if (symbolic > 0) dropped.push({ what: 'symbolic annotations whose parent annotation is missing', count: symbolic });
  if (otherFields > 0) dropped.push({ what: 'body fields other than the text (text, label or value)', count: otherFields });
  if (noText > 0) dropped.push({ what: 'bodies without a text (written as empty labels)', count: noText });
  const constrained = storeTiers.filter((tier) => tier.stereotype !== 'NONE').length;
  if (constrained > 0) dropped.push({ what: 'tier stereotypes and parents', count: constrained });
  if (movedPoints > 0) dropped.push({ what: 'points on interval tiers (written to a point tier of the same name)', count: movedPoints });
  if (splitIntervals > 0) dropped.push({ what: 'overlapping intervals (written to extra tiers of the same name)', count: splitIntervals });
  if (inexact > 0) dropped.push({ what: 'times with no finite decimal (written as the nearest double)', count: inexact });
  return { dropped };
}

/**
 * The power of ten that makes every time as written exact (`1.234` needs 1000), capped at
 * nanoseconds and lowered while the largest time would not fit in a safe integer of ticks.
 * Counted on the written digits, so `1.234` is milliseconds even though 617/500 reduces.
 */
class DecimalRate {
  private digits = 0;
  private largest = 0;

  visit(time: string): void {
    const match = /^[+-]?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(time);
    if (!match) return;
    const fractionDigits = (match[2] ?? '').replace(/0+$/, '').length - Number(match[3] ?? 0);
    this.digits = Math.max(this.digits, fractionDigits);
    this.largest = Math.max(this.largest, Math.abs(Number(time)));
  }

  value(): number {
    let rate = 10 ** Math.min(9, Math.max(0, this.digits));
    while (rate > 1 && Math.ceil(this.largest * rate) > Number.MAX_SAFE_INTEGER) rate /= 10;
    return rate;
  }
}

/** Boundary `index` of `parts` equal parts of [start, end]: the ends exact, the inner ones on whole milliseconds. */
function boundary(start: Fraction, end: Fraction, index: number, parts: number): Fraction {
  if (index === 0) return start;
  if (index === parts) return end;
  const n = BigInt(parts);
  const i = BigInt(index);
  // start + (end - start) * i / n, in milliseconds, rounded to the nearest.
  const num = (start.num * end.den * n + (end.num * start.den - start.num * end.den) * i) * 1000n;
  const den = start.den * end.den * n;
  return reduce(divideRounding(num, den, 'round'), 1000n);
}

function fraction(time: RationalTime): Fraction {
  return time.toFraction();
}

function readBound(text: string | null): Fraction | null {
  if (text === null) return null;
  try {
    return parseSeconds(text);
  } catch {
    return null;
  }
}

function compare(a: Fraction, b: Fraction): number {
  const left = a.num * b.den;
  const right = b.num * a.den;
  return left < right ? -1 : left > right ? 1 : 0;
}

function less(a: Fraction, b: Fraction): boolean {
  return compare(a, b) < 0;
}

/** Intervals sorted by start, dealt into as few non-overlapping lanes as a greedy pass finds (the first lane takes the most). */
function intervalLanes(intervals: Item[]): Item[][] {
  const sorted = [...intervals].sort((a, b) => compare(a.start, b.start) || compare(a.end, b.end));
  const lanes: Item[][] = [[]];
  for (const item of sorted) {
    const lane = lanes.find((candidate) => candidate.length === 0 || compare(candidate[candidate.length - 1].end, item.start) <= 0);
    if (lane) lane.push(item);
    else lanes.push([item]);
  }
  return lanes;
}

/** A lane of intervals tiled from `min` to `max`, gaps filled with empty labels. */
function tile(lane: Item[], min: Fraction, max: Fraction): Item[] {
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

export const textgridCodec: FormatCodec = { load, dump };

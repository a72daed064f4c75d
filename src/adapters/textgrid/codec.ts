import { writeFile } from 'node:fs/promises';
import { makeAnnotation, mediaRef, type Annotation } from '../../model/annotation.js';
import { makeProvenance } from '../../model/provenance.js';
import { makeTier, type Tier } from '../../model/tier.js';
import type { AnnotationStore } from '../../store/store.js';
import { compareFractions, divideRounding, fractionToDecimal, reduce, type Fraction } from '../../time/decimal.js';
import type { RationalTime } from '../../time/rational-time.js';
import { TimeInterval } from '../../time/time-interval.js';
import { InvalidInputError } from '../../errors/annot-error.js';
import type { DumpOptions, DumpReport, FormatCodec, LoadedDocument, LoadOptions } from '../adapter.js';
import { bodyText, bodyTextKey, toMs } from '../flat-cues.js';
import { ImportClock } from '../import-clock.js';
import { importProvenance } from '../import-provenance.js';
import type { SourceDecoder } from '../encoding/source-decoder.js';
import { fileDecoder } from '../source-text.js';
import { laidOutText, layoutMeta, layoutOf, readLayout, TEXT_LAYOUT_META } from '../text-layout.js';
import { styleChoices, styleOfLayout, styleOfText } from './text-style.js';
import { textGridEvents, type TextGridTier } from './parser.js';
import { TextGridFileTokens } from './stream-reader.js';
import { FormatParseError } from '../errors.js';
import type { Finding } from '../finding.js';
import { writeTextGrid, type TextGridVariant, type WritableTier } from './writer.js';

export const TEXTGRID_LABEL_SCHEMA = 'annot://schema/textgrid-label/v1';
export const DEFAULT_TEXTGRID_ASSET = 'textgrid:unspecified';
import { readGridBound, TEXTGRID_XMAX_META, TEXTGRID_XMIN_META } from './meta-keys.js';
import { dumpTwoPass } from './stream-writer.js';

export { TEXTGRID_XMAX_META, TEXTGRID_XMIN_META };

/**
 * Loads a TextGrid (long or short, UTF-8 or UTF-16 either endianness, any line breaks). Every
 * tier becomes a tier, every interval an interval annotation (empty labels included: they are
 * part of the file), every point a point annotation, in file order. The rate is the finest
 * decimal the file's times need (capped at nanoseconds; longer floats are quantized and
 * counted) unless `--rate` says otherwise. Tier names must be unique in a store, so a repeated
 * name gets ` (2)`, ` (3)`... and an empty one `(unnamed N)`; the name as written, the tier class
 * and the tier's own bounds are kept in the tier metadata and written back.
 *
 * The file is read as a stream, twice, and never held: the first reading parses it to the end
 * (a damaged file is refused before anything is imported) and keeps what must be known before
 * the first annotation (the tiers, the rate the times need, the overlaps to report); the second
 * yields the annotations. The encoding is decided once (source-text.ts), before the first reading.
 */
export async function load(path: string, options: LoadOptions): Promise<LoadedDocument> {
  const decoding = fileDecoder(path, options);
  const outline = outlineOf(path, options, decoding.again());
  for (const finding of outline.overlaps) options.report(finding);
  const rate = options.rate ?? outline.digits.rate();
  const clock = new ImportClock(rate, options.strictTime ?? false);
  const assetId = options.assetId ?? DEFAULT_TEXTGRID_ASSET;
  const provenance = makeProvenance(importProvenance('textgrid', options));
  const tiers = storeTiers(outline.tiers);

  const annotationOf = (t: number, item: TextGridTier['items'][number]): Annotation => {
    const where = `${options.sourceName}:${item.line}`;
    const start = clock.seconds(item.start, where);
    const interval = item.start === item.end ? TimeInterval.point(start) : new TimeInterval(start, clock.seconds(item.end, where));
    return makeAnnotation({ tier: tiers[t].name, reference: mediaRef(assetId, interval), body: { text: item.text }, body_schema_uri: TEXTGRID_LABEL_SCHEMA, provenance });
  };

  /** The items of every tier (`only` undefined) or of one, in file order. */
  function* items(only?: number): Generator<Annotation> {
    const tokens = new TextGridFileTokens(path, options.sourceName, decoding.again());
    try {
      let t = -1;
      for (const event of textGridEvents(tokens, options.sourceName)) {
        if (event.kind === 'tier' && ++t > (only ?? Infinity)) return;
        if (event.kind === 'item' && (only === undefined || t === only)) yield annotationOf(t, event.item);
      }
    } finally {
      tokens.close();
    }
  }

  /**
   * The tiers merged in order of start time, one reading of the file per tier (each skipping to its
   * tier). Not offered with --strict-time, whose error names the first inexact time in file order,
   * nor for more than MERGED_TIERS tiers, where the readings would cost more than holding the file.
   */
  async function* merged(): AsyncGenerator<Annotation> {
    const readers = tiers.map((_, t) => items(t));
    try {
      const heads = readers.map((reader) => headOf(reader.next()));
      for (;;) {
        let best = -1;
        for (let t = 0; t < heads.length; t++) {
          const head = heads[t];
          if (head !== null && (best === -1 || head.startMs < (heads[best] as { startMs: number }).startMs)) best = t;
        }
        if (best === -1) return;
        yield (heads[best] as { annotation: Annotation }).annotation;
        heads[best] = headOf(readers[best].next());
      }
    } finally {
      for (const reader of readers) reader.return(undefined);
    }
  }

  return {
    tiers,
    meta: { [TEXTGRID_XMIN_META]: outline.xmin, [TEXTGRID_XMAX_META]: outline.xmax, ...layoutMeta(layoutOf('textgrid', decoding.shape, styleChoices(styleOfText(decoding.shape.head)))) },
    annotations: (async function* () {
      yield* items();
    })(),
    quantization: () => clock.quantization(),
    ...(tiers.length > 1 && tiers.length <= MERGED_TIERS && options.strictTime !== true ? { inTimeOrder: merged } : {}),
  };
}

/** The most tiers merged by reading the file once per tier (see load). */
const MERGED_TIERS = 8;

function headOf(next: IteratorResult<Annotation>): { annotation: Annotation; startMs: number } | null {
  if (next.done === true) return null;
  const { start } = (next.value.reference as { interval: { start: { v: number; r: number } } }).interval;
  return { annotation: next.value, startMs: toMs(start.v, start.r) };
}

/** What a first reading of a TextGrid file finds: everything but the items themselves. */
interface TextGridOutline {
  xmin: string;
  xmax: string;
  tiers: Array<Omit<TextGridTier, 'items'>>;
  /** Overlapping intervals, reported once the whole file has parsed (as the whole-file reader does). */
  overlaps: Finding[];
  digits: DecimalDigits;
}

/**
 * The first of the two readings load() makes: the file parsed to its end (so a damaged file is
 * refused before anything is imported, with the same error as the whole-file reader), keeping
 * the tier headers, the decimal digits the times need and the overlaps to report.
 */
function outlineOf(path: string, options: LoadOptions, decoder: SourceDecoder): TextGridOutline {
  const tokens = new TextGridFileTokens(path, options.sourceName, decoder);
  const outline: TextGridOutline = { xmin: '', xmax: '', tiers: [], overlaps: [], digits: new DecimalDigits() };
  try {
    let previous: TextGridTier['items'][number] | null = null;
    try {
      for (const event of textGridEvents(tokens, options.sourceName)) {
        if (event.kind === 'grid') {
          outline.xmin = event.xmin;
          outline.xmax = event.xmax;
          outline.digits.add(event.xmin);
          outline.digits.add(event.xmax);
        } else if (event.kind === 'tier') {
          outline.tiers.push(event.tier);
          previous = null;
        } else {
          const { item } = event;
          outline.digits.add(item.start);
          outline.digits.add(item.end);
          const tier = outline.tiers[outline.tiers.length - 1];
          if (tier.kind !== 'IntervalTier') continue;
          if (previous !== null && Number(item.start) < Number(previous.end)) outline.overlaps.push(overlapFinding(tier.name, item, previous, options));
          previous = item;
        }
      }
    } catch (error) {
      // The whole-file reader tokenizes (and decodes) everything before it parses: an error there wins.
      if (error instanceof FormatParseError) tokens.drain();
      throw error;
    }
  } finally {
    tokens.close();
  }
  return outline;
}

/** Store tiers for the file's tiers: unique names, the name as written and the class kept in the metadata. */
function storeTiers(fileTiers: ReadonlyArray<Omit<TextGridTier, 'items'>>): Tier[] {
  const used = new Set<string>();
  return fileTiers.map((tier, index) => {
    const base = tier.name.length > 0 ? tier.name : `(unnamed ${index + 1})`;
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base} (${n})`;
    used.add(name);
    return makeTier({ name, metadata: { textgrid_name: tier.name, textgrid_class: tier.kind, textgrid_xmin: tier.xmin, textgrid_xmax: tier.xmax } });
  });
}

function overlapFinding(tierName: string, item: TextGridTier['items'][number], previous: TextGridTier['items'][number], options: LoadOptions): Finding {
  return {
    code: 'tier_overlap',
    severity: 'error',
    file: options.sourceName,
    location: { line: item.line },
    message: `interval ${JSON.stringify(item.text)} of tier ${JSON.stringify(tierName)} starts at ${item.start}, before the previous interval (${JSON.stringify(previous.text)}, line ${previous.line}) ends at ${previous.end}; Praat requires the intervals of a tier not to overlap`,
  };
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
  const variant = options.variant as TextGridVariant | undefined;
  if (variant !== undefined && variant !== 'long' && variant !== 'short') {
    throw new InvalidInputError(`textgrid: unknown variant ${JSON.stringify(options.variant)}; use "long" (Praat's text file) or "short" (short text file)`);
  }
  const layout = readLayout(await store.getMeta(TEXT_LAYOUT_META), 'textgrid');
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
    (compareFractions(start, end) === 0 && tierClass !== 'IntervalTier' ? entry.points : entry.intervals).push(item);
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
  let gridMin = readGridBound(await store.getMeta(TEXTGRID_XMIN_META)) ?? (lowest !== null && less(lowest, zero) ? lowest : zero);
  let gridMax = readGridBound(await store.getMeta(TEXTGRID_XMAX_META)) ?? highest ?? gridMin;
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
    let tierMin = readGridBound(typeof metadata.textgrid_xmin === 'string' ? metadata.textgrid_xmin : null) ?? gridMin;
    let tierMax = readGridBound(typeof metadata.textgrid_xmax === 'string' ? metadata.textgrid_xmax : null) ?? gridMax;
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
      const points = [...entry.points].sort((a, b) => compareFractions(a.start, b.start));
      written.push({ kind: 'TextTier', name, xmin: decimal(tierMin), xmax: decimal(tierMax), items: points.map((item) => ({ start: decimal(item.start), end: decimal(item.start), text: item.text })) });
    }
  }
  await writeFile(path, laidOutText(writeTextGrid(decimal(gridMin), decimal(gridMax), written, styleOfLayout(layout, variant)), layout), 'utf8');

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
 * Counted on the written digits, so `1.234` is milliseconds even though 617/500 reduces. Fed one
 * time at a time, as the file is read.
 */
class DecimalDigits {
  private digits = 0;
  private largest = 0;

  add(time: string): void {
    const match = /^[+-]?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(time);
    if (!match) return;
    const fractionDigits = (match[2] ?? '').replace(/0+$/, '').length - Number(match[3] ?? 0);
    this.digits = Math.max(this.digits, fractionDigits);
    this.largest = Math.max(this.largest, Math.abs(Number(time)));
  }

  rate(): number {
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

function less(a: Fraction, b: Fraction): boolean {
  return compareFractions(a, b) < 0;
}

/** Intervals sorted by start, dealt into as few non-overlapping lanes as a greedy pass finds (the first lane takes the most). */
function intervalLanes(intervals: Item[]): Item[][] {
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

export const textgridCodec: FormatCodec = { load, dump, dumpTwoPass, streamsOnLoad: true };

import { createWriteStream } from 'node:fs';
import type { Annotation } from '../../model/annotation.js';
import { compareFractions, fractionToDecimal, type Fraction } from '../../time/decimal.js';
import type { DumpOptions, DumpReport, ReplayableDocument } from '../adapter.js';
import { bodyText, bodyTextKey } from '../flat-cues.js';
import { BufferedTextWriter } from '../text-writer.js';
import { readGridBound, TEXTGRID_XMAX_META, TEXTGRID_XMIN_META } from './meta-keys.js';

/**
 * A TextGrid written from a document read twice, never held: the long and the short format both
 * put each tier's bounds and its number of intervals before the intervals, so a first pass
 * counts (and measures the grid's extent) and a second writes.
 *
 * Streamed only where the result is one IntervalTier whose intervals come in time order without
 * overlapping: a document of one tier of time-aligned annotations that are not points, each
 * starting at or after the end of the one before (a subtitle file, as subtitle files are). Then
 * the gaps are filled with empty intervals as they come. Anything else (several tiers, points,
 * overlaps that need extra tiers, symbolic annotations, a tier read from a TextGrid) returns
 * null after the first pass, and the caller writes the whole document with dump(): the bytes are
 * the same either way (the test converts every fixture both ways).
 */
export async function dumpTwoPass(document: ReplayableDocument, path: string, options: DumpOptions): Promise<DumpReport | null> {
  const variant = options.variant ?? 'long';
  if (variant !== 'long' && variant !== 'short') return null; // dump() refuses it with its message
  if (document.tiers.length !== 1) return null;
  const [tier] = document.tiers;
  if (tier.stereotype !== 'NONE' || Object.keys(tier.metadata).some((key) => key.startsWith('textgrid_'))) return null;

  // First pass: what dump() would count, the extent, and whether one tiled lane holds it all.
  let count = 0;
  let confidence = 0;
  let otherFields = 0;
  let noText = 0;
  let first: Fraction | null = null;
  let last: Fraction | null = null;
  let gaps = 0;
  for await (const annotation of document.pass()) {
    const span = intervalOf(annotation);
    if (annotation.tier !== tier.name || span === null || compareFractions(span.start, span.end) === 0) return null;
    if (last !== null && compareFractions(span.start, last) < 0) return null;
    if (last !== null && compareFractions(last, span.start) < 0) gaps++;
    first ??= span.start;
    last = span.end;
    count++;
    if (annotation.confidence !== null) confidence++;
    const body = annotation.body as Record<string, unknown>;
    const textKey = bodyTextKey(body);
    if (Object.keys(body).some((key) => key !== textKey)) otherFields++;
    if (bodyText(body) === null) noText++;
  }

  // Grid bounds as dump() finds them: from the metadata when they cover the data, else 0 to the end.
  const zero = { num: 0n, den: 1n };
  let gridMin = readGridBound(document.meta[TEXTGRID_XMIN_META]) ?? (first !== null && compareFractions(first, zero) < 0 ? first : zero);
  let gridMax = readGridBound(document.meta[TEXTGRID_XMAX_META]) ?? last ?? gridMin;
  if (first !== null && compareFractions(first, gridMin) < 0) gridMin = first;
  if (last !== null && compareFractions(gridMax, last) < 0) gridMax = last;
  if (compareFractions(gridMax, gridMin) < 0) gridMax = gridMin;
  if (first !== null && compareFractions(gridMin, first) < 0) gaps++;
  if (last !== null && compareFractions(last, gridMax) < 0) gaps++;

  let inexact = 0;
  const decimal = (value: Fraction): string => {
    const text = fractionToDecimal(value.num, value.den);
    if (text !== null) return text;
    inexact++;
    return String(Number(value.num) / Number(value.den));
  };
  const quote = (text: string): string => `"${text.replaceAll('"', '""')}"`;

  // Second pass: the file, as writer.ts lays it out (asked for before the file is opened: the caller may refuse it).
  const secondPass = document.pass();
  const writer = new BufferedTextWriter(createWriteStream(path));
  const items = count === 0 ? 0 : count + gaps;
  const long = variant === 'long';
  let index = 0;
  let sent: Promise<void> | undefined;
  const item = async (start: Fraction, end: Fraction, text: string): Promise<void> => {
    index++;
    const piece = long
      ? `        intervals [${index}]:\n            xmin = ${decimal(start)} \n            xmax = ${decimal(end)} \n            text = ${quote(text)} \n`
      : `${decimal(start)}\n${decimal(end)}\n${quote(text)}\n`;
    sent = writer.write(piece);
    if (sent) await sent;
  };
  try {
    const xmin = decimal(gridMin);
    const xmax = decimal(gridMax);
    const name = quote(tier.name);
    await writer.write(
      long
        ? `File type = "ooTextFile"\nObject class = "TextGrid"\n\nxmin = ${xmin} \nxmax = ${xmax} \ntiers? <exists> \nsize = 1 \nitem []: \n    item [1]:\n        class = "IntervalTier" \n        name = ${name} \n        xmin = ${decimal(gridMin)} \n        xmax = ${decimal(gridMax)} \n        intervals: size = ${items} \n`
        : `File type = "ooTextFile"\nObject class = "TextGrid"\n\n${xmin}\n${xmax}\n<exists>\n1\n"IntervalTier"\n${name}\n${decimal(gridMin)}\n${decimal(gridMax)}\n${items}\n`,
    );
    let cursor: Fraction = gridMin;
    let written = 0;
    for await (const annotation of secondPass) {
      const span = intervalOf(annotation) as { start: Fraction; end: Fraction };
      if (compareFractions(cursor, span.start) < 0) await item(cursor, span.start, '');
      await item(span.start, span.end, bodyText(annotation.body as Record<string, unknown>) ?? '');
      cursor = span.end;
      written++;
    }
    if (count > 0 && compareFractions(cursor, gridMax) < 0) await item(cursor, gridMax, '');
    if (written !== count || index !== items) throw new Error(`the input changed between two readings (${count} annotations, then ${written})`);
    await writer.close();
  } catch (error) {
    await writer.destroy();
    throw error;
  }

  const dropped: Array<{ what: string; count: number }> = [];
  if (count > 0) dropped.push({ what: 'provenance', count }, { what: 'annotation ids', count });
  if (confidence > 0) dropped.push({ what: 'confidence', count: confidence });
  if (otherFields > 0) dropped.push({ what: 'body fields other than the text (text, label or value)', count: otherFields });
  if (noText > 0) dropped.push({ what: 'bodies without a text (written as empty labels)', count: noText });
  if (inexact > 0) dropped.push({ what: 'times with no finite decimal (written as the nearest double)', count: inexact });
  return { dropped };
}

function intervalOf(annotation: Annotation): { start: Fraction; end: Fraction } | null {
  if (annotation.reference.kind !== 'media') return null;
  const { start, end } = annotation.reference.interval;
  return { start: start.toFraction(), end: end.toFraction() };
}

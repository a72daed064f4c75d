import { createWriteStream } from 'node:fs';
import type { Annotation } from '../../model/annotation.js';
import { compareFractions, fractionToDecimal, type Fraction } from '../../time/decimal.js';
import type { DumpOptions, DumpReport, ReplayableDocument } from '../adapter.js';
import { bodyTextKey } from '../flat-cues.js';
import { plainCueText } from '../plain-cue-text.js';
import { BufferedTextWriter } from '../text-writer.js';
import { readGridBound, TEXTGRID_XMAX_META, TEXTGRID_XMIN_META } from './meta-keys.js';

/** What the first reading finds: the counts dump() reports, the extent, and how many gaps the tier fills. */
interface Survey {
  count: number;
  confidence: number;
  otherFields: number;
  noText: number;
  first: Fraction | null;
  last: Fraction | null;
  gaps: number;
}

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
  const survey = await surveyOf(document, tier.name);
  if (survey === null) return null;
  const [gridMin, gridMax] = gridBounds(survey, document.meta);
  if (survey.first !== null && compareFractions(gridMin, survey.first) < 0) survey.gaps++;
  if (survey.last !== null && compareFractions(survey.last, gridMax) < 0) survey.gaps++;
  const inexact = await writeIntervals(document, path, { name: tier.name, long: variant === 'long', gridMin, gridMax, survey });
  return { dropped: droppedOf(survey, inexact) };
}

/** The first reading: null as soon as the document is not one tiled lane of intervals in time order. */
async function surveyOf(document: ReplayableDocument, tierName: string): Promise<Survey | null> {
  const survey: Survey = { count: 0, confidence: 0, otherFields: 0, noText: 0, first: null, last: null, gaps: 0 };
  for await (const annotation of document.pass()) {
    const span = intervalOf(annotation);
    if (annotation.tier !== tierName || span === null || compareFractions(span.start, span.end) === 0) return null;
    if (survey.last !== null && compareFractions(span.start, survey.last) < 0) return null;
    if (survey.last !== null && compareFractions(survey.last, span.start) < 0) survey.gaps++;
    survey.first ??= span.start;
    survey.last = span.end;
    survey.count++;
    if (annotation.confidence !== null) survey.confidence++;
    const body = annotation.body as Record<string, unknown>;
    const textKey = bodyTextKey(body);
    if (Object.keys(body).some((key) => key !== textKey)) survey.otherFields++;
    if (plainCueText(annotation) === null) survey.noText++;
  }
  return survey;
}

/** Grid bounds as dump() finds them: from the metadata when they cover the data, else 0 to the end. */
function gridBounds(survey: Survey, meta: Readonly<Record<string, string>>): [Fraction, Fraction] {
  const { first, last } = survey;
  const zero = { num: 0n, den: 1n };
  let gridMin = readGridBound(meta[TEXTGRID_XMIN_META]) ?? (first !== null && compareFractions(first, zero) < 0 ? first : zero);
  let gridMax = readGridBound(meta[TEXTGRID_XMAX_META]) ?? last ?? gridMin;
  if (first !== null && compareFractions(first, gridMin) < 0) gridMin = first;
  if (last !== null && compareFractions(gridMax, last) < 0) gridMax = last;
  if (compareFractions(gridMax, gridMin) < 0) gridMax = gridMin;
  return [gridMin, gridMax];
}

interface Layout {
  readonly name: string;
  readonly long: boolean;
  readonly gridMin: Fraction;
  readonly gridMax: Fraction;
  readonly survey: Survey;
}

/** The second reading: the file, as writer.ts lays it out. Returns how many times had no finite decimal. */
async function writeIntervals(document: ReplayableDocument, path: string, layout: Layout): Promise<number> {
  const { survey, gridMin, gridMax } = layout;
  // Asked for before the file is opened: the caller may refuse it.
  const secondPass = document.pass();
  const out = new IntervalWriter(new BufferedTextWriter(createWriteStream(path)), layout.long);
  const items = survey.count === 0 ? 0 : survey.count + survey.gaps;
  try {
    await out.header(layout.name, gridMin, gridMax, items);
    let cursor: Fraction = gridMin;
    let written = 0;
    for await (const annotation of secondPass) {
      const span = intervalOf(annotation) as { start: Fraction; end: Fraction };
      if (compareFractions(cursor, span.start) < 0) await out.interval(cursor, span.start, '');
      await out.interval(span.start, span.end, plainCueText(annotation) ?? '');
      cursor = span.end;
      written++;
    }
    if (survey.count > 0 && compareFractions(cursor, gridMax) < 0) await out.interval(cursor, gridMax, '');
    if (written !== survey.count || out.index !== items) throw new Error(`the input changed between two readings (${survey.count} annotations, then ${written})`);
    await out.writer.close();
  } catch (error) {
    await out.writer.destroy();
    throw error;
  }
  return out.inexact;
}

/** One IntervalTier in the long or short format, interval by interval. */
class IntervalWriter {
  index = 0;
  inexact = 0;

  constructor(
    readonly writer: BufferedTextWriter,
    private readonly long: boolean,
  ) {}

  async header(name: string, gridMin: Fraction, gridMax: Fraction, items: number): Promise<void> {
    const xmin = this.decimal(gridMin);
    const xmax = this.decimal(gridMax);
    const quoted = quote(name);
    await this.writer.write(
      this.long
        ? `File type = "ooTextFile"\nObject class = "TextGrid"\n\nxmin = ${xmin} \nxmax = ${xmax} \ntiers? <exists> \nsize = 1 \nitem []: \n    item [1]:\n        class = "IntervalTier" \n        name = ${quoted} \n        xmin = ${this.decimal(gridMin)} \n        xmax = ${this.decimal(gridMax)} \n        intervals: size = ${items} \n`
        : `File type = "ooTextFile"\nObject class = "TextGrid"\n\n${xmin}\n${xmax}\n<exists>\n1\n"IntervalTier"\n${quoted}\n${this.decimal(gridMin)}\n${this.decimal(gridMax)}\n${items}\n`,
    );
  }

  async interval(start: Fraction, end: Fraction, text: string): Promise<void> {
    this.index++;
    const piece = this.long
      ? `        intervals [${this.index}]:\n            xmin = ${this.decimal(start)} \n            xmax = ${this.decimal(end)} \n            text = ${quote(text)} \n`
      : `${this.decimal(start)}\n${this.decimal(end)}\n${quote(text)}\n`;
    const sent = this.writer.write(piece);
    if (sent) await sent;
  }

  private decimal(value: Fraction): string {
    const text = fractionToDecimal(value.num, value.den);
    if (text !== null) return text;
    this.inexact++;
    return String(Number(value.num) / Number(value.den));
  }
}

function quote(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

function droppedOf(survey: Survey, inexact: number): Array<{ what: string; count: number }> {
  const dropped: Array<{ what: string; count: number }> = [];
  if (survey.count > 0) dropped.push({ what: 'provenance', count: survey.count }, { what: 'annotation ids', count: survey.count });
  if (survey.confidence > 0) dropped.push({ what: 'confidence', count: survey.confidence });
  if (survey.otherFields > 0) dropped.push({ what: 'body fields other than the text (text, label or value)', count: survey.otherFields });
  if (survey.noText > 0) dropped.push({ what: 'bodies without a text (written as empty labels)', count: survey.noText });
  if (inexact > 0) dropped.push({ what: 'times with no finite decimal (written as the nearest double)', count: inexact });
  return dropped;
}

function intervalOf(annotation: Annotation): { start: Fraction; end: Fraction } | null {
  if (annotation.reference.kind !== 'media') return null;
  const { start, end } = annotation.reference.interval;
  return { start: start.toFraction(), end: end.toFraction() };
}

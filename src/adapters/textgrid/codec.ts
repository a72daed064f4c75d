import { makeProvenance } from '../../model/provenance.js';
import { makeTier, type Tier } from '../../model/tier.js';
import { ALL_STAMPS, type FormatCodec, type LoadedDocument, type LoadOptions } from '../adapter.js';
import { FormatParseError } from '../errors.js';
import type { Finding } from '../finding.js';
import { fractionToDecimal, parseSeconds } from '../../time/decimal.js';
import { ImportClock } from '../import-clock.js';
import { importProvenance } from '../import-provenance.js';
import type { SourceDecoder } from '../encoding/source-decoder.js';
import { placedInFile } from '../refusal-place.js';
import { fileDecoder } from '../source-text.js';
import { layoutMeta, layoutOf } from '../text-layout.js';
import { styleChoices, styleOfText } from './text-style.js';
import { TEXTGRID_XMAX_META, TEXTGRID_XMIN_META } from './meta-keys.js';
import { textGridEvents, type TextGridTier } from './parser.js';
import { TextGridFileTokens } from './stream-reader.js';
import { dumpTwoPass } from './stream-writer.js';
import { dump } from './textgrid-dump.js';
import { fileAnnotations, mergedByStart, TextGridAnnotationFactory, TEXTGRID_LABEL_SCHEMA } from './textgrid-annotations.js';

export const DEFAULT_TEXTGRID_ASSET = 'textgrid:unspecified';
export { dump, TEXTGRID_LABEL_SCHEMA, TEXTGRID_XMAX_META, TEXTGRID_XMIN_META };

/**
 * Loads a TextGrid (long or short, UTF-8 or UTF-16 either endianness, any line breaks). Every
 * tier becomes a tier, every interval an interval annotation (empty labels included: they are
 * part of the file), every point a point annotation, in file order. The rate is the finest
 * decimal the file's times need (capped at nanoseconds; longer floats are quantized and
 * counted, the grid's and the tiers' bounds alike) unless `--rate` says otherwise. Tier names must be unique in a store, so a repeated
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
  const { tiers, clock, factory, bound } = readingOf(outline, options.rate ?? outline.digits.rate(), options);
  // The tiers merged in order of start time, one reading of the file per tier (each skipping to
  // its tier). Not offered with --strict-time, whose error names the first inexact time in file
  // order, nor for more than MERGED_TIERS tiers, where the readings would cost more than holding the file.
  const merged = () => mergedByStart(tiers.map((_, t) => fileAnnotations(path, options.sourceName, decoding.again(), factory, t)));
  return {
    tiers,
    meta: { [TEXTGRID_XMIN_META]: bound(outline.xmin, 'xmin'), [TEXTGRID_XMAX_META]: bound(outline.xmax, 'xmax'), ...layoutMeta(layoutOf('textgrid', decoding.shape, styleChoices(styleOfText(decoding.shape.head)))) },
    annotations: (async function* () {
      yield* fileAnnotations(path, options.sourceName, decoding.again(), factory);
    })(),
    quantization: () => clock.quantization(),
    placeOfAnnotation: () => ({ line: factory.lastLine }),
    ...(tiers.length > 1 && tiers.length <= MERGED_TIERS && options.strictTime !== true ? { inTimeOrder: merged } : {}),
  };
}

/** The most tiers merged by reading the file once per tier (see load). */
const MERGED_TIERS = 8;

/**
 * What both readings need to build annotations: the clock at the rate, the store tiers, and the
 * factory. The bounds of the grid and of each tier are times like the items' and take the same
 * clock: written as they were when the rate holds them, else rounded (and counted) as the items
 * are, so a tier whose last interval ends at its xmax still does after the rounding.
 */
function readingOf(outline: TextGridOutline, rate: number, options: LoadOptions) {
  const clock = new ImportClock(rate, options.strictTime ?? false);
  const bound = (text: string, what: string): string => {
    if (text === '') return text;
    const time = clock.seconds(text, `${options.sourceName}: ${what}`);
    const exact = parseSeconds(text);
    // As written when exact (the file's own spelling, "-0" or "1.50", is its layout).
    if (exact.num * BigInt(time.r) === BigInt(time.v) * exact.den) return text;
    // A rate with no finite decimal (--rate 48000) keeps the fraction, which the writer writes as it writes the items.
    return fractionToDecimal(BigInt(time.v), BigInt(time.r)) ?? `${time.v}/${time.r}`;
  };
  const bounded = outline.tiers.map((tier) => ({ ...tier, xmin: bound(tier.xmin, `the xmin of tier ${JSON.stringify(tier.name)}`), xmax: bound(tier.xmax, `the xmax of tier ${JSON.stringify(tier.name)}`) }));
  const tiers = storeTiers({ ...outline, tiers: bounded }, options.sourceName);
  const provenance = makeProvenance(importProvenance('textgrid', options));
  const factory = new TextGridAnnotationFactory(tiers, clock, options.assetId ?? DEFAULT_TEXTGRID_ASSET, provenance, options.sourceName);
  return { tiers, clock, factory, bound };
}

/** What a first reading of a TextGrid file finds: everything but the items themselves. */
interface TextGridOutline {
  xmin: string;
  xmax: string;
  tiers: Array<Omit<TextGridTier, 'items'>>;
  /** The line of each tier's name. */
  tierLines: number[];
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
  const outline: TextGridOutline = { xmin: '', xmax: '', tiers: [], tierLines: [], overlaps: [], digits: new DecimalDigits() };
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
          outline.tierLines.push(event.line);
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

/** Store tiers for the file's tiers: unique names, the name as written and the class kept in the metadata. A refused name is named at its line. */
function storeTiers(outline: TextGridOutline, file: string): Tier[] {
  const used = new Set<string>();
  return outline.tiers.map((tier, index) => {
    const base = tier.name.length > 0 ? tier.name : `(unnamed ${index + 1})`;
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base} (${n})`;
    used.add(name);
    try {
      return makeTier({ name, metadata: { textgrid_name: tier.name, textgrid_class: tier.kind, textgrid_xmin: tier.xmin, textgrid_xmax: tier.xmax } });
    } catch (error) {
      throw placedInFile(error, file, { line: outline.tierLines[index] });
    }
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

export const textgridCodec: FormatCodec = { load, dump, dumpTwoPass, streamsOnLoad: true, stampsNeverKept: ALL_STAMPS };

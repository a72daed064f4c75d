import { createWriteStream } from 'node:fs';
import { makeAnnotation, mediaRef, trustedAnnotation, type Annotation } from '../../model/annotation.js';
import type { JsonObject } from '../../json/json-body.js';
import { makeProvenance } from '../../model/provenance.js';
import { makeTier } from '../../model/tier.js';
import type { AnnotationStore } from '../../store/store.js';
import { RationalTime } from '../../time/rational-time.js';
import { TimeInterval } from '../../time/time-interval.js';
import { ALL_STAMPS, type DumpOptions, type DumpReport, type FormatCodec, type LoadedDocument, type LoadOptions } from '../adapter.js';
import { FormatParseError } from '../errors.js';
import { placedInFile } from '../refusal-place.js';
import { ImportClock } from '../import-clock.js';
import { importProvenance } from '../import-provenance.js';
import { CueFindings } from '../cue-findings.js';
import { CUE_LAYOUT_FIELDS, blankLinesOf, mostCommon } from '../cue-layout.js';
import { hasWebVttOnlyMarkup, webVttVoice } from '../webvtt/cue-text.js';
import { WEBVTT_CUE_SCHEMA, WEBVTT_CUE_SCHEMA_V1 } from '../webvtt/cue-body.js';
import { cueRunContext, styledBesideText, taggedCueText } from '../cue-runs.js';
import { keptRaw, plainCueText } from '../plain-cue-text.js';
import { selectFlatCues, type FlatSelection } from '../flat-cues.js';
import { fileDecoder } from '../source-text.js';
import { LaidOutWriter, layoutMeta, layoutOf, readLayout, TEXT_LAYOUT_META } from '../text-layout.js';
import { textLineBatches } from '../text-lines.js';
import { SPEAKERS_NOT_WRITTEN, speakerPrefixed, writesSpeakerPrefix } from '../speaker-prefix.js';
import { BufferedTextWriter } from '../text-writer.js';
import { SRT_CUE_SCHEMA, SRT_CUE_SCHEMA_V1 } from './cue-schema.js';
import { formatSrtTimestamp, parseSrtTimestamp, SrtParser, type SrtCue } from './parser.js';
import { escapeSrtText, srtPlainText } from './srt-markup.js';

export { SRT_CUE_SCHEMA };
/** Tier of the imported subtitles when the caller names none (`--tier`). */
export const DEFAULT_SRT_TIER = 'subtitles';
export const DEFAULT_SRT_ASSET = 'srt:unspecified';

interface SrtCueBody {
  text: string;
  sequence: number | null;
  raw?: string;
  coordinates?: string;
  written_end?: string;
  blank_lines_before?: number;
}

/**
 * Loads an SRT file as a stream of annotations (chunk by chunk, like WebVTT). Times are whole
 * milliseconds, exact at the default rate 1000. Blocks without a timing line are skipped with a
 * warning; a file with text but not one cue is a FormatParseError naming the first bad line.
 */
export async function load(path: string, options: LoadOptions): Promise<LoadedDocument> {
  const rate = options.rate ?? 1000;
  const clock = new ImportClock(rate, options.strictTime ?? false);
  const tier = options.tier ?? DEFAULT_SRT_TIER;
  const assetId = options.assetId ?? DEFAULT_SRT_ASSET;
  const provenance = makeProvenance(importProvenance('srt', options));
  const decoder = fileDecoder(path, options);
  const cues: SrtCue[] = [];
  let cueCount = 0;
  let firstSkipped: { line: number; text: string } | null = null;
  const findings = new CueFindings(options.sourceName, options.report);
  const parser = new SrtParser({
    cue(cue) {
      cues.push(cue);
      cueCount++;
    },
    skipped(line, text) {
      firstSkipped ??= { line, text };
      if (cueCount > 0) findings.dropped(line, `block dropped: it has no timing line like "00:00:01,000 --> 00:00:02,000" (it starts ${JSON.stringify(text.slice(0, 40))})`);
      else pendingDrops.push({ line, text });
    },
  });

  // Blocks dropped before the first cue are reported once a cue shows the file is SRT (else the file is refused).
  const pendingDrops: Array<{ line: number; text: string }> = [];
  let checked = false;
  // The line of the cue being converted: where a refusal of its annotation is named.
  let cueLine = 0;
  const convert = (cue: SrtCue): Annotation => {
    const first = !checked;
    cueLine = cue.line;
    for (const { line, text } of pendingDrops.splice(0)) findings.dropped(line, `block dropped: it has no timing line like "00:00:01,000 --> 00:00:02,000" (it starts ${JSON.stringify(text.slice(0, 40))})`);
    findings.cue(cue.line, cue.startMs, cue.endMs, cue.writtenStart, cue.writtenEnd ?? formatSrtTimestamp(cue.endMs));
    if (cue.nonstandard) {
      findings.nonstandardTimestamp(cue.line, `timing line is not SRT's "HH:MM:SS,mmm --> HH:MM:SS,mmm" (read as ${formatSrtTimestamp(cue.startMs)} --> ${cue.writtenEnd ?? formatSrtTimestamp(cue.endMs)})`);
    }
    const start = time(cue.startMs, clock, options.sourceName, cue.line);
    const interval = cue.writtenEnd === null ? new TimeInterval(start, time(cue.endMs, clock, options.sourceName, cue.line)) : TimeInterval.point(start);
    const body: SrtCueBody = cueBody(cue);
    if (cue.coordinates.length > 0) body.coordinates = cue.coordinates;
    if (cue.writtenEnd !== null) body.written_end = cue.writtenEnd;
    // A cue set apart from the one above otherwise than the file's cues usually are keeps its blank lines (cue-layout.ts).
    if (cue.blankLinesBefore !== (first ? 0 : layout.cue_gap)) body.blank_lines_before = cue.blankLinesBefore;
    if (!checked) {
      checked = true;
      return makeAnnotation({ tier, reference: mediaRef(assetId, interval), body: body as unknown as Record<string, unknown>, body_schema_uri: SRT_CUE_SCHEMA, provenance });
    }
    // The first cue checked tier, asset id and provenance; the rest are strings and numbers the parser made.
    return trustedAnnotation(tier, Object.freeze({ kind: 'media', asset_id: assetId, interval }), Object.freeze(body) as unknown as JsonObject, SRT_CUE_SCHEMA, provenance);
  };

  const batches = textLineBatches(path, decoder);
  let ended = false;
  const pull = async (): Promise<boolean> => {
    const next = await batches.next();
    if (next.done === true) {
      parser.end();
      ended = true;
      return false;
    }
    parser.push(next.value);
    return true;
  };
  // Up to the second cue: the cues show the file's layout.
  while (cues.length < 2 && (await pull()));
  const layout = layoutOf('srt', decoder.shape, { cue_gap: mostCommon(cues.slice(1).map((cue) => cue.blankLinesBefore).filter((lines) => lines >= 1), 1) });

  async function* annotations(): AsyncGenerator<Annotation> {
    try {
      for (;;) {
        for (let i = 0; i < cues.length; i++) yield convert(cues[i]);
        cues.length = 0;
        if (ended || !(await pull())) break;
      }
      for (let i = 0; i < cues.length; i++) yield convert(cues[i]);
    } catch (error) {
      throw placedInFile(error, options.sourceName, { line: cueLine });
    }
    cues.length = 0;
    const first = firstSkipped as { line: number; text: string } | null;
    if (first !== null && cueCount === 0) {
      throw new FormatParseError(options.sourceName, { line: first.line, column: 1 }, `expected a sequence number or a timing line like "00:00:01,000 --> 00:00:02,000", found ${JSON.stringify(first.text.slice(0, 40))}`);
    }
    findings.finish();
  }

  return {
    tiers: [makeTier({ name: tier })],
    meta: layoutMeta(layout),
    annotations: annotations(),
    quantization: () => clock.quantization(),
    placeOfAnnotation: () => ({ line: cueLine }),
  };
}

/** The cue's plain text, with its lines as written beside it when they hold markup that the text written back would not give. */
function cueBody(cue: SrtCue): SrtCueBody {
  const text = srtPlainText(cue.text);
  return escapeSrtText(text) === cue.text ? { text, sequence: cue.sequence } : { text, sequence: cue.sequence, raw: cue.text };
}

function time(ms: number, clock: ImportClock, file: string, line: number): RationalTime {
  if (!Number.isSafeInteger(ms)) throw new FormatParseError(file, { line, column: 1 }, 'expected a timestamp within 2^53 milliseconds');
  return clock.milliseconds(ms, file, line);
}

/**
 * Writes SRT: cues numbered from 1 in time order (the numbers as written are not kept: players
 * expect a running count), `HH:MM:SS,mmm`, coordinates after the timing, UTF-8. Line breaks, a
 * byte-order mark and the breaks at the end follow the layout an SRT source kept (text-layout.ts),
 * else LF, no mark, a blank line after the last cue.
 */
export async function dump(store: AnnotationStore, path: string, options: DumpOptions): Promise<DumpReport> {
  return writeSrt(await selectFlatCues(store, options, 'srt'), (key) => store.getMeta(key), path, options);
}

/**
 * Writes SRT from a selection of cues (a store's, or a stream's as it is read: see
 * convert-stream.ts); `meta` gives the source's layout and what the styling of ASS and TTML cues
 * needs (their styles).
 */
export async function writeSrt(selection: FlatSelection, meta: (key: string) => Promise<string | null>, path: string, options: DumpOptions): Promise<DumpReport> {
  const layout = readLayout(await meta(TEXT_LAYOUT_META), 'srt');
  const runContext = await cueRunContext(meta);
  const writer = new LaidOutWriter(new BufferedTextWriter(createWriteStream(path)), layout);
  let sent: Promise<void> | undefined;
  const prefix = writesSpeakerPrefix(options);
  let number = 0;
  let alteredText = 0;
  let cleaned = 0;
  let speakers = 0;
  let otherFields = 0;
  let noText = 0;
  const cueGap = typeof layout?.cue_gap === 'number' && Number.isSafeInteger(layout.cue_gap) && layout.cue_gap >= 1 ? layout.cue_gap : 1;
  try {
    for await (const { startMs, endMs, annotation } of selection.cues()) {
      const body = annotation.body as Record<string, unknown>;
      let end = formatSrtTimestamp(endMs);
      if (typeof body.written_end === 'string' && startMs === endMs) {
        const written = parseSrtTimestamp(body.written_end);
        if (written !== null && written < startMs) end = body.written_end;
      }
      const coordinates = typeof body.coordinates === 'string' && !/[\r\n]/.test(body.coordinates) ? ` ${body.coordinates}` : '';
      const written = plainCueText(annotation);
      if (written === null) noText++;
      const speaker = typeof body.speaker === 'string' ? body.speaker : annotation.body_schema_uri === WEBVTT_CUE_SCHEMA_V1 ? webVttVoice(String(body.text)) : null;
      const fromSrt = annotation.body_schema_uri === SRT_CUE_SCHEMA || annotation.body_schema_uri === SRT_CUE_SCHEMA_V1;
      const raw = fromSrt ? keptRaw(annotation) : null;
      // SubRip read from SubRip is written as it was; other markup comes back as SubRip's own tags.
      const plain = written === null ? '' : raw !== null ? raw : styledBesideText(annotation) ? taggedCueText(annotation, runContext, escapeSrtText) : escapeSrtText(written);
      if (fromWebVtt(annotation) && hasWebVttOnlyMarkup(keptRaw(annotation))) cleaned++;
      let text = plain;
      if (speaker !== null && speaker.trim().length > 0) {
        if (prefix) text = speakerPrefixed(speaker, plain);
        else speakers++;
      }
      const payload = srtPayload(text);
      if (payload !== text) alteredText++;
      for (const key in body) {
        // A cue without an id (WebVTT's id "") has nothing SubRip loses.
        if (!SRT_FIELDS.has(key) && !(key === 'id' && body.id === '')) {
          otherFields++;
          break;
        }
      }
      number++;
      writer.beforeBlock(blankLinesOf(body) ?? cueGap);
      // The text is written as its own piece: a 50 MB subtitle is not copied into a bigger string.
      sent = writer.write(`${number}\n${formatSrtTimestamp(startMs)} --> ${end}${coordinates}\n`);
      if (sent) await sent;
      sent = writer.write(payload.length > 0 ? payload : '');
      if (sent) await sent;
      sent = writer.write(payload.length > 0 ? '\n\n' : '\n');
      if (sent) await sent;
    }
    await writer.close();
  } catch (error) {
    await writer.destroy();
    throw error;
  }
  const dropped = [...selection.dropped];
  if (otherFields > 0) dropped.push({ what: 'body fields other than text and coordinates (cue ids, settings...)', count: otherFields });
  if (noText > 0) dropped.push({ what: 'bodies without a text (written as empty subtitles)', count: noText });
  if (alteredText > 0) dropped.push({ what: 'subtitle text changed to stay valid SRT (blank lines removed)', count: alteredText });
  if (cleaned > 0) dropped.push({ what: 'WebVTT-only markup (voice, class and language spans, ruby text, timestamp tags) removed from the text', count: cleaned });
  if (speakers > 0) dropped.push({ what: SPEAKERS_NOT_WRITTEN, count: speakers });
  return { dropped };
}

function fromWebVtt(annotation: Annotation): boolean {
  return annotation.body_schema_uri === WEBVTT_CUE_SCHEMA || annotation.body_schema_uri === WEBVTT_CUE_SCHEMA_V1;
}

/** The text as SRT lines: LF breaks, no blank or whitespace-only line (it would end the subtitle). */
function srtPayload(text: string): string {
  if (!/\r|(?:^|\n)[^\S\n]*(?:\n|$)/.test(text)) return text;
  return text
    .split(/\r\n?|\n/)
    .filter((line) => line.trim().length > 0)
    .join('\n');
}

/** Body fields SubRip keeps; a SubStation event's style and raw text are counted kept too, since its styling is written as tags. */
const SRT_FIELDS = new Set(['text', 'sequence', 'coordinates', 'written_end', 'speaker', 'style', 'raw', 'markup', 'styling', 'preserve_space', ...CUE_LAYOUT_FIELDS]);

export const srtCodec: FormatCodec = { load, dump, streamsOnLoad: true, stampsNeverKept: ALL_STAMPS, writeCues: writeSrt };

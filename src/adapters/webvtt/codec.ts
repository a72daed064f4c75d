import { createWriteStream } from 'node:fs';
import { makeAnnotation, mediaRef, trustedAnnotation, type Annotation } from '../../model/annotation.js';
import type { JsonObject } from '../../json/json-body.js';
import { makeProvenance } from '../../model/provenance.js';
import { makeTier } from '../../model/tier.js';
import type { AnnotationStore } from '../../store/store.js';
import { TimeInterval } from '../../time/time-interval.js';
import { ALL_STAMPS, type DumpOptions, type DumpReport, type FormatCodec, type LoadedDocument, type LoadOptions } from '../adapter.js';
import { FormatParseError } from '../errors.js';
import { placedInFile } from '../refusal-place.js';
import { ImportClock } from '../import-clock.js';
import { importProvenance } from '../import-provenance.js';
import { hasTypedSettings, putSettings, SETTING_FIELDS, settingsOfBody, WEBVTT_CUE_SCHEMA, WEBVTT_CUE_SCHEMA_V1, type WebVttCueBody } from './cue-body.js';
import { formatCueSettings, parseCueSettings, sameCueSettings } from './cue-settings.js';
import { escapeWebVttText, voiceTag, webVttPayloadOf, webVttPlainText, webVttVoice } from './cue-text.js';
import { CueFindings } from '../cue-findings.js';
import { CUE_LAYOUT_FIELDS, blankLinesOf, hoursByStyle, mostCommon, usualHoursStyle, writtenHoursOf, type HoursStyle, type WrittenHours } from '../cue-layout.js';
import { cueRunContext, type CueRunContext, styledBesideText, taggedCueText } from '../cue-runs.js';
import { keptRaw, plainCueText } from '../plain-cue-text.js';
import { selectFlatCues, type FlatSelection } from '../flat-cues.js';
import { readRegions, REGIONS_META_KEY, regionsOfPreamble, toWire, withRegions } from './regions.js';
import { WebVttParser, WebVttSignatureError, type WebVttBlock, type WebVttCue } from './parser.js';
import { isSafeBlock, PREAMBLE_META_KEY, preambleOf, readPreamble, writePreamble } from './preamble.js';
import type { TextShape } from '../encoding/text-shape.js';
import { fileDecoder } from '../source-text.js';
import { LaidOutWriter, layoutMeta, layoutOf, readLayout, TEXT_LAYOUT_META, type TextLayout } from '../text-layout.js';
import { textChunks } from '../text-lines.js';
import { formatTimestamp, formatTimestampWithoutZeroHours, parseTimestamp } from './timestamp.js';
import { BufferedTextWriter } from '../text-writer.js';

/** Tier of the imported cues when the caller names none (`--tier`). */
export const DEFAULT_WEBVTT_TIER = 'cues';
export const DEFAULT_WEBVTT_ASSET = 'webvtt:unspecified';

/**
 * Loads a WebVTT file as a stream: the header and the blocks before the first cue are read
 * first (they become metadata), then cues are parsed chunk by chunk as the annotations are
 * consumed, so a million-cue file never sits in memory. Times are whole milliseconds, exact at
 * the default rate 1000; `--rate` converts them (exactly when the rate allows, else quantized
 * and counted).
 */
export async function load(path: string, options: LoadOptions): Promise<LoadedDocument> {
  const rate = options.rate ?? 1000;
  const clock = new ImportClock(rate, options.strictTime ?? false);
  const tier = options.tier ?? DEFAULT_WEBVTT_TIER;
  const assetId = options.assetId ?? DEFAULT_WEBVTT_ASSET;
  const provenance = makeProvenance(importProvenance('webvtt', options));

  const cues: WebVttCue[] = [];
  const preambleBlocks: WebVttBlock[] = [];
  let notes: string[] = [];
  const cueNotes = new Map<WebVttCue, string[]>();
  const findings = new CueFindings(options.sourceName, options.report);
  const parser = new WebVttParser({
    cue(cue) {
      cues.push(cue);
      if (notes.length > 0) {
        cueNotes.set(cue, notes);
        notes = [];
      }
    },
    block(block, seenCue) {
      if (!seenCue) preambleBlocks.push(block);
      else if (block.kind === 'NOTE') notes.push(block.text);
    },
    skipped: (line, text, reason) => findings.dropped(line, droppedBlockMessage(text, reason)),
  });
  const decoder = fileDecoder(path, options, { utf8Only: 'WebVTT' });
  const chunks = textChunks(path, decoder);
  let finished = false;
  const pump = async (): Promise<boolean> => {
    const next = await chunks.next();
    try {
      if (next.done) {
        parser.end();
        finished = true;
        return false;
      }
      if (next.value.includes('\0')) reportNuls(next.value, parser.linesRead + 1, findings);
      parser.pushText(next.value);
      return true;
    } catch (error) {
      if (error instanceof WebVttSignatureError) throw new FormatParseError(options.sourceName, { line: error.line, column: error.column }, error.expected);
      throw error;
    }
  };
  // Up to the second cue: the preamble is complete (STYLE and REGION blocks count only before a cue), and the cues show the file's layout.
  while (cues.length < 2 && (await pump()));
  const layout = webvttLayout(decoder.shape, cues, parser.signatureSeparator);

  const regions = regionsOfPreamble(preambleBlocks);
  const regionIds = new Set(regions.map((region) => region.id));
  const hasRegion = (id: string): boolean => regionIds.has(id);
  let checked = false;
  let cueLine = 0; // the timing line of the cue being converted: where a refusal of its annotation is named
  const convert = (cue: WebVttCue): Annotation => {
    const first = !checked;
    cueLine = cue.line;
    findings.cue(cue.line, cue.startMs, cue.endMs, formatTimestamp(cue.startMs), cue.writtenEnd ?? formatTimestamp(cue.endMs));
    const start = clock.milliseconds(cue.startMs, options.sourceName, cue.line);
    const interval = cue.writtenEnd === null ? new TimeInterval(start, clock.milliseconds(cue.endMs, options.sourceName, cue.line)) : TimeInterval.point(start);
    const body = cueBody(cue, hasRegion, cueNotes.get(cue));
    cueNotes.delete(cue);
    Object.assign(body, cueLayoutFields(cue, first, layout));
    if (!checked) {
      checked = true;
      return makeAnnotation({ tier, reference: mediaRef(assetId, interval), body: body as unknown as Record<string, unknown>, body_schema_uri: WEBVTT_CUE_SCHEMA, provenance });
    }
    // The first cue checked tier, asset id and provenance; the rest are strings the parser made.
    return trustedAnnotation(tier, Object.freeze({ kind: 'media', asset_id: assetId, interval }), Object.freeze(body) as unknown as JsonObject, WEBVTT_CUE_SCHEMA, provenance);
  };

  async function* annotations(): AsyncGenerator<Annotation> {
    try {
      for (;;) {
        for (let i = 0; i < cues.length; i++) yield convert(cues[i]);
        cues.length = 0;
        if (finished || !(await pump())) break;
      }
      for (let i = 0; i < cues.length; i++) yield convert(cues[i]);
    } catch (error) {
      throw placedInFile(error, options.sourceName, { line: cueLine });
    }
    cues.length = 0;
    findings.finish();
    if (notes.length > 0) options.report({ code: 'note_dropped', severity: 'warning', file: options.sourceName, location: {}, message: `${notes.length} NOTE block${notes.length === 1 ? '' : 's'} after the last cue not kept` });
  }

  return {
    tiers: [makeTier({ name: tier })],
    meta: {
      [PREAMBLE_META_KEY]: JSON.stringify(preambleOf(parser.signatureText, parser.headerLines, preambleBlocks)),
      ...(regions.length > 0 ? { [REGIONS_META_KEY]: JSON.stringify(regions.map(toWire)) } : {}),
      ...layoutMeta(layout),
    },
    annotations: annotations(),
    quantization: () => clock.quantization(),
    placeOfAnnotation: () => ({ line: cueLine }),
    placeOfMeta: () => ({ line: largestBlockLine(preambleBlocks, parser.headerLines) }),
  };
}

/**
 * Where the metadata was read: the preamble's holds the header and the blocks before the first
 * cue, so the line of the longest of those blocks, or 1 (the signature line) when the header is longer.
 */
function largestBlockLine(blocks: readonly WebVttBlock[], headerLines: readonly string[]): number {
  let line = 1;
  let longest = headerLines.reduce((sum, text) => sum + text.length, 0);
  for (const block of blocks) {
    if (block.text.length <= longest) continue;
    longest = block.text.length;
    line = block.line;
  }
  return line;
}

/** Each NUL of a chunk that starts on `line`, as a finding (the parser replaces them by U+FFFD). */
function reportNuls(chunk: string, line: number, findings: CueFindings): void {
  let lineStart = 0;
  for (let at = chunk.indexOf('\0'); at !== -1; at = chunk.indexOf('\0', at + 1)) {
    for (let newline = chunk.indexOf('\n', lineStart); newline !== -1 && newline < at; newline = chunk.indexOf('\n', lineStart)) {
      line++;
      lineStart = newline + 1;
    }
    findings.nulReplaced(line);
  }
}

/**
 * A cue's body: its plain text (with the payload as written when the text and speaker written
 * back would not give it), id, speaker, settings (typed, and as written when those do not give
 * them back) and the NOTEs before it.
 */
function cueBody(cue: WebVttCue, hasRegion: (id: string) => boolean, notesBefore: string[] | undefined): WebVttCueBody {
  const text = webVttPlainText(cue.text);
  const speaker = webVttVoice(cue.text);
  const body: WebVttCueBody = webVttPayloadOf(text, speaker) === cue.text ? { text, id: cue.id } : { text, raw: cue.text, id: cue.id };
  if (speaker !== null) body.speaker = speaker;
  if (cue.settings.length > 0) {
    const settings = parseCueSettings(cue.settings, hasRegion);
    putSettings(body, settings);
    if (formatCueSettings(settings) !== cue.settings) body.settings = cue.settings;
  }
  if (cue.writtenEnd !== null) body.written_end = cue.writtenEnd;
  if (notesBefore) body.notes_before = Object.freeze(notesBefore) as string[];
  return body;
}

/**
 * The file's layout (text-layout.ts) with what WebVTT leaves to the writer, as most of its first
 * cues have it: timestamps without hours when they are zero (`hours: "when-needed"`) or always
 * with them, the blank lines between cues (`cue_gap`), and the space or tab after `WEBVTT`.
 * Cues that differ keep their own.
 */
function webvttLayout(shape: TextShape, cues: readonly WebVttCue[], signatureSeparator: string): TextLayout {
  const gap = mostCommon(cues.slice(1).map((cue) => cue.blankLinesBefore).filter((lines) => lines >= 1), 1);
  return layoutOf('webvtt', shape, { hours: usualHoursStyle(cues), cue_gap: gap, signature_separator: signatureSeparator });
}

/** Why a block was dropped, as WebVTT players drop it. */
function droppedBlockMessage(text: string, reason: 'timing' | 'not_a_cue'): string {
  if (reason === 'timing') return 'block dropped: its "-->" line is not a valid cue timing (WebVTT players drop it too)';
  const why = text.startsWith('STYLE') || text.startsWith('REGION') ? ' (STYLE and REGION blocks count only before the first cue)' : ' (a cue needs a "-->" timing line; text after a blank line is not part of the cue above)';
  return `block dropped: it is not a cue${why}, so WebVTT players ignore it`;
}

/** The body fields of a cue laid out otherwise than its file usually is (the first cue follows the header's one blank line). */
function cueLayoutFields(cue: WebVttCue, first: boolean, layout: TextLayout): Pick<WebVttCueBody, 'blank_lines_before' | 'written_hours'> {
  const fields: Pick<WebVttCueBody, 'blank_lines_before' | 'written_hours'> = {};
  if (cue.blankLinesBefore !== (first ? 1 : layout.cue_gap)) fields.blank_lines_before = cue.blankLinesBefore;
  if (cue.hours !== hoursByStyle(layout.hours === 'when-needed' ? 'when-needed' : 'always', cue.startMs, cue.endMs)) fields.written_hours = cue.hours;
  return fields;
}

/** Writes the store (or one tier of it) as WebVTT: see flat-cues.ts for what is chosen and lost. */
export async function dump(store: AnnotationStore, path: string, options: DumpOptions): Promise<DumpReport> {
  return writeWebVtt(await selectFlatCues(store, options, 'webvtt'), (key) => store.getMeta(key), path, options);
}

/**
 * Writes WebVTT from a selection of cues (a store's, or a stream's as it is read: see
 * convert-stream.ts); `meta` gives the preamble and regions the source kept.
 */
export async function writeWebVtt(selection: FlatSelection, meta: (key: string) => Promise<string | null>, path: string, _options: DumpOptions): Promise<DumpReport> {
  const layout = readLayout(await meta(TEXT_LAYOUT_META), 'webvtt');
  const writer = new LaidOutWriter(new BufferedTextWriter(createWriteStream(path)), layout);
  const hoursStyle: HoursStyle = layout?.hours === 'when-needed' ? 'when-needed' : 'always';
  const cueGap = typeof layout?.cue_gap === 'number' && Number.isSafeInteger(layout.cue_gap) && layout.cue_gap >= 1 ? layout.cue_gap : 1;
  const gap = '\n'.repeat(cueGap);
  let first = true;
  let sent: Promise<void> | undefined;
  let droppedIds = 0;
  let droppedSettings = 0;
  let alteredText = 0;
  let otherFields = 0;
  let noText = 0;
  let droppedNotes = 0;
  try {
    const runContext = await cueRunContext(meta);
    const regions = readRegions(await meta(REGIONS_META_KEY));
    const preamble = withRegions(readPreamble(await meta(PREAMBLE_META_KEY)), regions);
    const regionIds = new Set(regionsOfPreamble(preamble?.blocks ?? []).map((region) => region.id));
    const hasRegion = (id: string): boolean => regionIds.has(id);
    await writer.write(writePreamble(preamble, typeof layout?.signature_separator === 'string' ? layout.signature_separator : undefined));
    for await (const { startMs, endMs, annotation } of selection.cues()) {
      const body = annotation.body as Record<string, unknown>;
      let block = '';
      if (Array.isArray(body.notes_before)) {
        for (const note of body.notes_before) {
          if (typeof note === 'string' && note.startsWith('NOTE') && isSafeBlock(note)) block += `${note}\n\n`;
          else droppedNotes++;
        }
      }
      const id = typeof body.id === 'string' ? body.id : '';
      if (id.length > 0) {
        if (isSafeLine(id)) block += `${id}\n`;
        else droppedIds++;
      }
      block += timing(body, startMs, endMs, layout === null ? 'both' : (writtenHoursOf(body) ?? hoursByStyle(hoursStyle, startMs, endMs)));
      const settings = settingsText(body, hasRegion);
      if (settings.length > 0) {
        if (isSafeLine(settings)) block += ` ${settings}`;
        else droppedSettings++;
      }
      const written = plainCueText(annotation);
      if (written === null) noText++;
      const text = written === null ? '' : cuePayload(annotation, written, runContext);
      const safe = cueText(text);
      if (safe !== text) alteredText++;
      block += '\n';
      for (const key of Object.keys(body)) {
        if (!CUE_FIELDS.has(key)) {
          otherFields++;
          break;
        }
      }
      // A cue right under the block above is read as a new cue only from its timing line, and only
      // under a cue or the header: an id, a NOTE, or a STYLE, REGION or NOTE block above need the blank line.
      const needsBlank = id.length > 0 || block.startsWith('NOTE') || (first && (preamble?.blocks.length ?? 0) > 0);
      writer.beforeBlock(Math.max(blankLinesOf(body) ?? (first ? 1 : cueGap), needsBlank ? 1 : 0));
      first = false;
      sent = writer.write(block);
      if (sent) await sent;
      // The text is written as its own piece: a 50 MB cue is not copied into a bigger string.
      sent = safe.length > 0 ? writer.write(safe) : undefined;
      if (sent) await sent;
      sent = writer.write(safe.length > 0 ? `\n${gap}` : gap);
      if (sent) await sent;
    }
    await writer.close();
  } catch (error) {
    await writer.destroy();
    throw error;
  }
  const dropped = [...selection.dropped];
  if (otherFields > 0) dropped.push({ what: 'body fields other than text, speaker, id and cue settings', count: otherFields });
  if (noText > 0) dropped.push({ what: 'bodies without a text (written as empty cues)', count: noText });
  if (droppedIds > 0) dropped.push({ what: 'cue ids with a line break or "-->"', count: droppedIds });
  if (droppedSettings > 0) dropped.push({ what: 'cue settings with a line break or "-->"', count: droppedSettings });
  if (alteredText > 0) dropped.push({ what: 'cue text changed to stay valid WebVTT (blank lines removed, "-->" escaped)', count: alteredText });
  if (droppedNotes > 0) dropped.push({ what: 'NOTE blocks that are not valid WebVTT comments', count: droppedNotes });
  return { dropped };
}

/**
 * A cue's payload: WebVTT read from WebVTT as it was written (unless its text or speaker changed
 * since), else the plain text escaped, its styling from another format as WebVTT's own tags, and a
 * speaker (an EAF participant, an SRT "Name:") as a voice span.
 */
function cuePayload(annotation: Annotation, plain: string, runContext: CueRunContext): string {
  const fromWebVtt = annotation.body_schema_uri === WEBVTT_CUE_SCHEMA || annotation.body_schema_uri === WEBVTT_CUE_SCHEMA_V1;
  const raw = fromWebVtt ? keptRaw(annotation) : null;
  if (raw !== null) return raw;
  const speaker = (annotation.body as Readonly<Record<string, unknown>>).speaker;
  const text = styledBesideText(annotation) ? taggedCueText(annotation, runContext, escapeWebVttText) : escapeWebVttText(plain);
  return typeof speaker === 'string' ? voiceTag(speaker) + text : text;
}

/** The timestamps of a cue, with their hours as `hours` says (always when a time is an hour or more). */
function timing(body: Readonly<Record<string, unknown>>, startMs: number, endMs: number, hours: WrittenHours): string {
  const stamp = (ms: number, withHours: boolean): string => (withHours ? formatTimestamp(ms) : formatTimestampWithoutZeroHours(ms));
  let end = stamp(endMs, hours === 'both' || hours === 'end');
  if (typeof body.written_end === 'string' && startMs === endMs) {
    const written = parseTimestamp(body.written_end);
    if (written !== null && written < startMs) end = body.written_end;
  }
  return `${stamp(startMs, hours === 'both' || hours === 'start')} --> ${end}`;
}

/**
 * Body fields a WebVTT cue keeps. An SRT cue's `sequence` is counted as kept too: it is only the
 * cue's position, which the cue order keeps, so the loss report does not name it for an SRT source.
 */
const CUE_FIELDS = new Set<string>(['text', 'id', 'speaker', 'settings', 'written_end', 'notes_before', 'sequence', 'style', 'raw', 'markup', 'styling', 'preserve_space', ...SETTING_FIELDS, ...CUE_LAYOUT_FIELDS]);

/**
 * The settings to write after a cue's timing: as written in the source when that text still says
 * what the typed fields say (or the body has only that text, as older stores do), else the typed
 * fields written out.
 */
function settingsText(body: Readonly<Record<string, unknown>>, hasRegion: (id: string) => boolean): string {
  const raw = typeof body.settings === 'string' ? body.settings : null;
  if (!hasTypedSettings(body)) return raw ?? '';
  const typed = settingsOfBody(body);
  // A region no REGION block defines is one players ignore (a TTML paragraph's region, say): not written.
  if (typed.region !== undefined && !hasRegion(typed.region)) delete typed.region;
  if (raw !== null && sameCueSettings(parseCueSettings(raw, hasRegion), typed)) return raw;
  return formatCueSettings(typed);
}

function isSafeLine(text: string): boolean {
  return !text.includes('-->') && !/[\r\n\0]/.test(text);
}

/** Cue text that reads back as the same cue: no blank line (it would end the cue), no `-->`, LF only. */
function cueText(text: string): string {
  if (!/-->|\r|\0|\n\n|^\n|\n$/.test(text)) return text;
  return text
    .replace(/\r\n?/g, '\n')
    .replaceAll('\0', '\ufffd')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => line.replaceAll('-->', '--&gt;'))
    .join('\n');
}

export const webvttCodec: FormatCodec = { load, dump, streamsOnLoad: true, stampsNeverKept: ALL_STAMPS, writeCues: writeWebVtt };

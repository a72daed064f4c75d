import { createWriteStream } from 'node:fs';
import type { JsonObject } from '../../json/json-body.js';
import { makeAnnotation, mediaRef, trustedAnnotation, type Annotation } from '../../model/annotation.js';
import { makeProvenance } from '../../model/provenance.js';
import { makeTier } from '../../model/tier.js';
import type { AnnotationStore } from '../../store/store.js';
import { RationalTime } from '../../time/rational-time.js';
import { TimeInterval } from '../../time/time-interval.js';
import { ALL_STAMPS, type DumpOptions, type DumpReport, type FlatSelection, type FormatCodec, type LoadedDocument, type LoadOptions } from '../adapter.js';
import { CueFindings } from '../cue-findings.js';
import { cueRunContext, cueRuns } from '../cue-runs.js';
import { FormatParseError } from '../errors.js';
import { placedInFile } from '../refusal-place.js';
import { selectFlatCues } from '../flat-cues.js';
import { plainCueText } from '../plain-cue-text.js';
import { ImportClock } from '../import-clock.js';
import { importProvenance } from '../import-provenance.js';
import { anyStyled, runsText } from '../styled-runs.js';
import { fileDecoder } from '../source-text.js';
import { textLineBatches } from '../text-lines.js';
import { SPEAKERS_NOT_WRITTEN, speakerPrefixed, writesSpeakerPrefix } from '../speaker-prefix.js';
import { BufferedTextWriter } from '../text-writer.js';
import { SBV_CUE_SCHEMA } from './cue-schema.js';
import { formatSbvTime, SbvParser, type SbvCue } from './sbv-parser.js';

export const DEFAULT_SBV_TIER = 'captions';
export const DEFAULT_SBV_ASSET = 'sbv:unspecified';

/**
 * Loads an SBV file as a stream of annotations, chunk by chunk, like SRT. Times are whole
 * milliseconds, exact at the default rate 1000. Blocks without a timing line are skipped with a
 * warning; a file with text but not one caption is a FormatParseError naming its first line.
 */
export async function load(path: string, options: LoadOptions): Promise<LoadedDocument> {
  const rate = options.rate ?? 1000;
  const clock = new ImportClock(rate, options.strictTime ?? false);
  const tier = options.tier ?? DEFAULT_SBV_TIER;
  const assetId = options.assetId ?? DEFAULT_SBV_ASSET;
  const provenance = makeProvenance(importProvenance('sbv', options));
  const findings = new CueFindings(options.sourceName, options.report);
  // The encoding is decided here, before the first annotation is asked for: a refusal comes from load itself.
  const decoder = fileDecoder(path, options);
  const cues: SbvCue[] = [];
  const skipped: Array<{ line: number; text: string }> = [];
  let count = 0;
  const parser = new SbvParser({ cue: (cue) => cues.push(cue), skipped: (line, text) => skipped.push({ line, text }) });
  const time = (ms: number, line: number): RationalTime => {
    if (!Number.isSafeInteger(ms)) throw new FormatParseError(options.sourceName, { line, column: 1 }, 'expected a time within 2^53 milliseconds');
    return clock.milliseconds(ms, options.sourceName, line);
  };
  // The line of the caption being converted: where a refusal of its annotation is named.
  let cueLine = 0;
  const convert = (cue: SbvCue): Annotation => {
    cueLine = cue.line;
    // Blocks dropped before the first caption are reported once a caption shows the file is SBV.
    for (const { line, text } of skipped.splice(0)) findings.dropped(line, `block dropped: it has no timing line like "0:00:01.000,0:00:02.000" (it starts ${JSON.stringify(text.slice(0, 40))})`);
    findings.cue(cue.line, cue.startMs, cue.endMs, cue.writtenStart, cue.writtenEnd);
    if (cue.nonstandard) findings.nonstandardTimestamp(cue.line, `timing line is not SBV's "h:mm:ss.mmm,h:mm:ss.mmm" (read as ${formatSbvTime(cue.startMs)},${formatSbvTime(cue.endMs)})`);
    const start = time(cue.startMs, cue.line);
    const backwards = cue.endMs < cue.startMs;
    const interval = backwards ? TimeInterval.point(start) : new TimeInterval(start, time(cue.endMs, cue.line));
    const body: { text: string; written_end?: string } = { text: cue.text };
    if (backwards) body.written_end = cue.writtenEnd;
    if (count++ === 0) return makeAnnotation({ tier, reference: mediaRef(assetId, interval), body, body_schema_uri: SBV_CUE_SCHEMA, provenance });
    return trustedAnnotation(tier, Object.freeze({ kind: 'media', asset_id: assetId, interval }), Object.freeze(body) as unknown as JsonObject, SBV_CUE_SCHEMA, provenance);
  };

  async function* annotations(): AsyncGenerator<Annotation> {
    try {
      for await (const lines of textLineBatches(path, decoder)) {
        parser.push(lines);
        for (let i = 0; i < cues.length; i++) yield convert(cues[i]);
        cues.length = 0;
      }
      parser.end();
      for (let i = 0; i < cues.length; i++) yield convert(cues[i]);
    } catch (error) {
      throw placedInFile(error, options.sourceName, { line: cueLine });
    }
    cues.length = 0;
    if (count === 0 && skipped.length > 0) {
      throw new FormatParseError(options.sourceName, { line: skipped[0].line, column: 1 }, `expected a timing line like "0:00:01.000,0:00:02.000", found ${JSON.stringify(skipped[0].text.slice(0, 40))}`);
    }
    findings.finish();
  }

  return { tiers: [makeTier({ name: tier })], meta: {}, annotations: annotations(), quantization: () => clock.quantization(), placeOfAnnotation: () => ({ line: cueLine }) };
}

export async function dump(store: AnnotationStore, path: string, options: DumpOptions): Promise<DumpReport> {
  return writeSbv(await selectFlatCues(store, options, 'sbv'), (key) => store.getMeta(key), path, options);
}

/**
 * Writes SBV from a selection of cues: `h:mm:ss.mmm,h:mm:ss.mmm`, the text, a blank line. SBV is
 * plain text: styling is left out (counted), a speaker is written as "Name: text" with the
 * variant speaker-prefix (else counted as lost), and a caption line that would read as a blank
 * line or a timing line is changed so the caption stays one.
 */
export async function writeSbv(selection: FlatSelection, meta: (key: string) => Promise<string | null>, path: string, options: DumpOptions): Promise<DumpReport> {
  const runContext = await cueRunContext(meta);
  const prefix = writesSpeakerPrefix(options);
  const lost = { styled: 0, speakers: 0, altered: 0, noText: 0, otherFields: 0 };
  const writer = new BufferedTextWriter(createWriteStream(path));
  try {
    for await (const { startMs, endMs, annotation } of selection.cues()) {
      const body = annotation.body as Readonly<Record<string, unknown>>;
      if (plainCueText(annotation) === null) lost.noText++;
      const runs = cueRuns(annotation, runContext);
      if (anyStyled(runs)) lost.styled++;
      let text = runsText(runs);
      if (typeof body.speaker === 'string' && body.speaker.trim().length > 0) {
        if (prefix) text = speakerPrefixed(body.speaker, text);
        else lost.speakers++;
      }
      const payload = sbvPayload(text);
      if (payload !== text) lost.altered++;
      if (Object.keys(body).some((key) => !SBV_FIELDS.has(key))) lost.otherFields++;
      const sent = writer.write(`${formatSbvTime(startMs)},${formatSbvTime(typeof body.written_end === 'string' && startMs === endMs ? endOf(body.written_end, endMs) : endMs)}\n${payload}${payload.length > 0 ? '\n\n' : '\n'}`);
      if (sent) await sent;
    }
    await writer.close();
  } catch (error) {
    await writer.destroy();
    throw error;
  }
  const dropped = [...selection.dropped];
  if (lost.otherFields > 0) dropped.push({ what: 'body fields other than text and speaker', count: lost.otherFields });
  if (lost.styled > 0) dropped.push({ what: 'italic, bold and underline (SBV is plain text)', count: lost.styled });
  if (lost.speakers > 0) dropped.push({ what: SPEAKERS_NOT_WRITTEN, count: lost.speakers });
  if (lost.altered > 0) dropped.push({ what: 'caption text changed to stay valid SBV (blank lines removed, timing-like lines marked)', count: lost.altered });
  if (lost.noText > 0) dropped.push({ what: 'bodies without a text (written as empty captions)', count: lost.noText });
  return { dropped };
}

const SBV_FIELDS = new Set(['text', 'written_end', 'speaker', 'sequence', 'style', 'raw', 'markup', 'styling', 'preserve_space']);

/** An end written before its start, read back the same (the reader keeps such a caption as a point). */
function endOf(written: string, fallback: number): number {
  const match = /^\s*(\d+):(\d{1,2}):(\d{1,2})(?:\.(\d{1,3}))?\s*$/.exec(written);
  if (match === null) return fallback;
  return ((Number(match[1]) * 60 + Number(match[2])) * 60 + Number(match[3])) * 1000 + Number((match[4] ?? '0').padEnd(3, '0'));
}

const TIMING_LIKE = /^\s*\d+:\d{1,2}:\d{1,2}(?:\.\d{1,3})?\s*,\s*\d+:\d{1,2}:\d{1,2}(?:\.\d{1,3})?\s*$/;

/** Caption lines that read back as this caption: no blank line, none that reads as a timing line (a zero-width space before it). */
function sbvPayload(text: string): string {
  if (!/\r|\n\s*\n|^\s*\n|\n\s*$|^\s*$|,/.test(text)) return text;
  return text
    .split(/\r\n?|\n/)
    .filter((line) => line.trim().length > 0)
    .map((line) => (TIMING_LIKE.test(line) ? `\u200b${line}` : line))
    .join('\n');
}

export const sbvCodec: FormatCodec = { load, dump, writeCues: writeSbv, streamsOnLoad: true, stampsNeverKept: ALL_STAMPS };

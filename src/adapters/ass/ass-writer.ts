import { createWriteStream } from 'node:fs';
import type { Annotation } from '../../model/annotation.js';
import type { DumpOptions, DumpReport, FlatSelection } from '../adapter.js';
import { cueRunContext, cueRuns, type CueRunContext } from '../cue-runs.js';
import { SUB_MILLISECOND_PRECISION } from '../flat-cues.js';
import { plainCueText } from '../plain-cue-text.js';
import { BufferedTextWriter } from '../text-writer.js';
import { allocateHeader, collectHeader, fieldText, headerText, type AssHeader } from './ass-header.js';
import { ASS_EVENT_SCHEMA, canonicalColumn } from './ass-model.js';
import { assPlainText, assTextOf, assTextOfRuns } from './ass-text.js';
import { centiseconds, formatAssTime } from './ass-time.js';

/**
 * Writes a SubStation file (ASS `v4.00+`, or SSA when the source was SSA) from a selection of
 * cues, in three passes: collect what the metadata kept of a SubStation source, allocate what a
 * valid file needs beyond it (ass-header.ts), then emit the header and one Dialogue or Comment
 * line per cue in the columns of the Format line. An event read from a SubStation file is
 * written as it was (its raw text, layer, style, margins, effect); a cue of another format gets
 * the Default style, its speaker as the Name, its italic, bold and underline as override tags.
 */
export async function writeAss(selection: FlatSelection, meta: (key: string) => Promise<string | null>, path: string, _options: DumpOptions): Promise<DumpReport> {
  const header = allocateHeader(await collectHeader(meta));
  const runs = await cueRunContext(meta);
  const tally = new AssTally();
  const writer = new BufferedTextWriter(createWriteStream(path));
  try {
    let sent = writer.write(headerText(header));
    if (sent) await sent;
    for await (const { annotation } of selection.cues()) {
      sent = writer.write(eventLine(annotation, header, runs, tally));
      if (sent) await sent;
    }
    await writer.close();
  } catch (error) {
    await writer.destroy();
    throw error;
  }
  // Centiseconds are counted on their own (AssTally), not milliseconds.
  return { dropped: [...selection.dropped.filter((entry) => entry.what !== SUB_MILLISECOND_PRECISION), ...tally.dropped(header)] };
}

/** What the events lost on the way, counted as they are written. */
class AssTally {
  roundedTimes = 0;
  alteredFields = 0;
  otherFields = 0;
  noText = 0;

  dropped(header: AssHeader): Array<{ what: string; count: number }> {
    const dropped: Array<{ what: string; count: number }> = [];
    if (this.roundedTimes > 0) dropped.push({ what: 'sub-centisecond precision (times rounded to SubStation centiseconds)', count: this.roundedTimes });
    if (this.alteredFields > 0) dropped.push({ what: 'commas and line breaks in Style, Name or Effect fields (written as ";" and spaces)', count: this.alteredFields });
    if (this.otherFields > 0) dropped.push({ what: 'body fields SubStation has no column for', count: this.otherFields });
    if (this.noText > 0) dropped.push({ what: 'bodies without a text (written as empty events)', count: this.noText });
    for (const key of header.unreadable) dropped.push({ what: `document metadata ${key} (not in the form annot writes it)`, count: 1 });
    return dropped;
  }
}

const KEPT_FIELDS = new Set(['text', 'raw', 'comment', 'style', 'speaker', 'layer', 'margin_l', 'margin_r', 'margin_v', 'effect', 'written_end', 'fields']);

/** emit: one event, its columns in the order of the Format line. */
function eventLine(annotation: Annotation, header: AssHeader, runs: CueRunContext, tally: AssTally): string {
  const body = annotation.body as Readonly<Record<string, unknown>>;
  const fromAss = annotation.body_schema_uri === ASS_EVENT_SCHEMA;
  const { start, end } = (annotation.reference as { interval: { start: { v: number; r: number }; end: { v: number; r: number } } }).interval;
  const startCs = centiseconds(start.v, start.r);
  const endCs = centiseconds(end.v, end.r);
  if (!startCs.exact || !endCs.exact) tally.roundedTimes++;
  if (Object.keys(body).some((key) => !(fromAss ? KEPT_FIELDS.has(key) : keptFromOtherFormats(body, key)))) tally.otherFields++;
  const endText = fromAss && typeof body.written_end === 'string' && startCs.value === endCs.value ? body.written_end : formatAssTime(endCs.value);
  const fields = header.eventFormat.map((column) => {
    switch (canonicalColumn(column)) {
      case 'layer':
        return String(integer(fromAss ? body.layer : 0));
      case 'marked':
        return 'Marked=0';
      case 'start':
        return formatAssTime(startCs.value);
      case 'end':
        return endText;
      case 'style':
        return field(fromAss && typeof body.style === 'string' ? body.style : 'Default', tally);
      case 'name':
        return field(typeof body.speaker === 'string' ? body.speaker : '', tally);
      case 'marginl':
        return String(integer(fromAss ? body.margin_l : 0));
      case 'marginr':
        return String(integer(fromAss ? body.margin_r : 0));
      case 'marginv':
        return String(integer(fromAss ? body.margin_v : 0));
      case 'effect':
        return field(fromAss && typeof body.effect === 'string' ? body.effect : '', tally);
      case 'text':
        return eventText(annotation, body, fromAss, runs, tally);
      default:
        return field(fromAss ? otherField(body.fields, column) : '', tally);
    }
  });
  return `${fromAss && body.comment === true ? 'Comment' : 'Dialogue'}: ${fields.join(',')}\n`;
}

/** The Text field: the raw text read, while the body's text still says what it says; else the text, escaped. */
function eventText(annotation: Annotation, body: Readonly<Record<string, unknown>>, fromAss: boolean, runs: CueRunContext, tally: AssTally): string {
  const text = plainCueText(annotation);
  if (text === null) {
    tally.noText++;
    return '';
  }
  if (fromAss) {
    const raw = typeof body.raw === 'string' && !/[\r\n]/.test(body.raw) ? body.raw : null;
    return raw !== null && assPlainText(raw) === text ? raw : assTextOf(text);
  }
  return assTextOfRuns(cueRuns(annotation, runs));
}

/** Fields of another format's body an event keeps: its text, speaker and styling (as tags), and what only said its place. */
function keptFromOtherFormats(body: Readonly<Record<string, unknown>>, key: string): boolean {
  if (key === 'id') return body.id === '';
  return key === 'text' || key === 'label' || key === 'value' || key === 'speaker' || key === 'sequence' || key === 'raw' || key === 'markup' || key === 'styling' || key === 'style' || key === 'preserve_space';
}

function field(value: string, tally: AssTally): string {
  const safe = fieldText(value);
  if (safe !== value) tally.alteredFields++;
  return safe;
}

function integer(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : 0;
}

function otherField(fields: unknown, column: string): string {
  if (fields === null || typeof fields !== 'object') return '';
  const value = (fields as Record<string, unknown>)[column];
  return typeof value === 'string' ? value : '';
}

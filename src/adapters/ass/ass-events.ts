import { FormatParseError } from '../errors.js';
import { Column, columnsOf, type EventColumns } from './ass-columns.js';
import { ASS_EVENT_FORMAT, SSA_EVENT_FORMAT, canonicalColumn, type AssEvent } from './ass-model.js';
import type { AssNotes, AssReadState } from './ass-read-state.js';

/**
 * The events pass: the `Format:` line decides which column is which (libass/ass.c
 * process_event_tail), `Dialogue:` and `Comment:` lines are split on commas into that many
 * fields, the last (Text) taking the rest of the line, commas included. Without a Format line
 * the columns are ASS's (SSA's in an SSA file), as libass falls back.
 *
 * A million events go through here in a conversion that streams, so a Format line is turned into
 * column kinds once, and an event's fields are cut from its line in one pass.
 */
export function readEventsLine(state: AssReadState, line: string, file: string, notes: AssNotes): void {
  let at = 0;
  while (at < line.length && (line.charCodeAt(at) === 32 || line.charCodeAt(at) === 9)) at++;
  if (at === line.length || line.charCodeAt(at) === 59 /* ; */) return;
  const comment = line.startsWith('Comment:', at);
  if (!comment && !line.startsWith('Dialogue:', at)) {
    if (line.startsWith('Format:', at)) readFormat(state, line.slice(at + 7), file);
    else notes.dropped(state.lineNumber, `line dropped: only Dialogue and Comment events are read (it starts ${JSON.stringify(line.slice(at, at + 40))})`);
    return;
  }
  at += comment ? 8 : 9;
  while (at < line.length && (line.charCodeAt(at) === 32 || line.charCodeAt(at) === 9)) at++;
  const columns = state.eventColumns ?? (state.eventColumns = columnsOf(state.variant === 'ssa' ? SSA_EVENT_FORMAT : ASS_EVENT_FORMAT));
  const event = eventOf(line, at, columns, comment, state.lineNumber, notes);
  if (event === null) {
    const format = state.eventFormat ?? (state.variant === 'ssa' ? SSA_EVENT_FORMAT : ASS_EVENT_FORMAT);
    notes.dropped(state.lineNumber, `event dropped: expected ${format.length} comma-separated fields (${format.join(', ')}), found fewer`);
    return;
  }
  state.events.push(event);
}

function readFormat(state: AssReadState, names: string, file: string): void {
  const format = names.split(',').map((name) => name.trim());
  const text = format.findIndex((name) => canonicalColumn(name) === 'text');
  if (text === -1) throw new FormatParseError(file, { line: state.lineNumber, column: 1 }, `expected a Text column in the [Events] Format line, found ${JSON.stringify(names.trim().slice(0, 80))}`);
  // libass takes the rest of the line as the Text: columns named after it never get a value.
  state.eventFormat = format.slice(0, text + 1);
  state.eventColumns = columnsOf(state.eventFormat);
}

/** The event on `line` from `at`, or null when it has fewer fields than its Format line names. */
function eventOf(line: string, at: number, columns: EventColumns, comment: boolean, lineNumber: number, notes: AssNotes): AssEvent | null {
  const event = { comment, line: lineNumber, layer: 0, start: '', end: '', style: 'Default', name: '', marginL: 0, marginR: 0, marginV: 0, effect: '', text: '', other: null as Record<string, string> | null };
  const { kinds } = columns;
  let from = at;
  for (let i = 0; i < kinds.length; i++) {
    const last = i === kinds.length - 1;
    const comma = last ? line.length : line.indexOf(',', from);
    if (comma === -1) return null;
    const kind = kinds[i];
    // A bare 0 (nearly every Layer and margin) is read in place, without a string of its own.
    if (comma === from + 1 && line.charCodeAt(from) === 48 && (kind === Column.Layer || kind === Column.MarginL || kind === Column.MarginR || kind === Column.MarginV)) {
      from = comma + 1;
      continue;
    }
    const value = last ? line.slice(from) : line.slice(from, comma);
    from = comma + 1;
    switch (kind) {
      case Column.Layer:
        event.layer = integerField(value, 'Layer', lineNumber, notes);
        break;
      case Column.Start:
        event.start = value;
        break;
      case Column.End:
        event.end = value;
        break;
      case Column.Style:
        event.style = value.trim();
        break;
      case Column.Name:
        event.name = value;
        break;
      case Column.MarginL:
        event.marginL = integerField(value, 'MarginL', lineNumber, notes);
        break;
      case Column.MarginR:
        event.marginR = integerField(value, 'MarginR', lineNumber, notes);
        break;
      case Column.MarginV:
        event.marginV = integerField(value, 'MarginV', lineNumber, notes);
        break;
      case Column.Effect:
        event.effect = value;
        break;
      case Column.Text:
        event.text = value;
        break;
      case Column.Marked:
        break; // SSA's Marked=0/1: nothing renders it
      default:
        (event.other ??= {})[columns.names[i]] = value;
    }
  }
  return event;
}

/** An integer column (libass reads it with strtol; pysubs2 issue 87: an empty Layer is 0, with a warning). */
function integerField(value: string, column: string, line: number, notes: AssNotes): number {
  if (value === '0') return 0;
  const trimmed = value.trim();
  if (/^[-+]?\d+$/.test(trimmed)) {
    const number = Number(trimmed);
    if (Number.isSafeInteger(number)) return number;
  }
  notes.note('ass_field_invalid', line, `${column} fields that are not integers`, `${column} ${JSON.stringify(trimmed.slice(0, 20))} is not an integer; read as 0, as libass does`);
  return 0;
}

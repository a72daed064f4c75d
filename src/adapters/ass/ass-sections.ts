import { FormatParseError } from '../errors.js';
import type { AssNotes, AssReadState, SectionKind } from './ass-read-state.js';
import { readEventsLine } from './ass-events.js';
import { readStylesLine } from './ass-styles.js';

/**
 * The sections pass: one line of a SubStation file at a time, a section header switches the
 * section (libass/ass.c process_line: names compared without case, leading spaces skipped), and
 * every other line goes to the pass of its section. A header is a whole line in brackets with a
 * lowercase letter in it, as pysubs2 tells them from the lines of uuencoded font data, which
 * can start with `[` but hold no lowercase letter.
 */
export function readAssLine(state: AssReadState, raw: string, file: string, notes: AssNotes): void {
  state.lineNumber++;
  // A BOM left at the start of the first line is no text.
  const line = state.lineNumber === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  // Most lines are events: only a line that starts with "[" (after spaces) can be a header.
  const header = firstNonSpace(line) === 91 /* [ */ ? sectionHeader(line) : null;
  if (header !== null) {
    enterSection(state, header, line.trim());
    return;
  }
  switch (state.section) {
    case 'events':
      readEventsLine(state, line, file, notes);
      return;
    case 'styles':
      readStylesLine(state, line, notes);
      return;
    case 'script_info':
      readScriptInfoLine(state, line);
      return;
    case 'other':
      if (state.eventsAt === null && line.trim().length > 0) state.sections[state.sections.length - 1].lines.push(line);
      return;
    case 'none':
      if (line.trim().length > 0 && !line.trimStart().startsWith(';')) {
        throw new FormatParseError(file, { line: state.lineNumber, column: 1 }, `expected a SubStation section header such as "[Script Info]", found ${JSON.stringify(line.slice(0, 40))}`);
      }
  }
}

function firstNonSpace(line: string): number {
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i);
    if (code !== 32 && code !== 9) return code;
  }
  return -1;
}

export interface SectionHeader {
  readonly kind: SectionKind;
  readonly variant: 'ass' | 'ssa' | null;
}

const HEADER = /^\s*\[[^\]]*[a-z][^\]]*\]\s*$/;

/** The section a header line opens, or null when the line is no header. */
export function sectionHeader(line: string): SectionHeader | null {
  if (!HEADER.test(line)) return null;
  const name = line.trim().toLowerCase();
  if (name === '[script info]') return { kind: 'script_info', variant: null };
  if (name === '[v4+ styles]') return { kind: 'styles', variant: 'ass' };
  if (name === '[v4 styles]' || name === '[v4 styles+]') return { kind: 'styles', variant: name === '[v4 styles]' ? 'ssa' : 'ass' };
  if (name === '[events]') return { kind: 'events', variant: null };
  return { kind: 'other', variant: null };
}

function enterSection(state: AssReadState, header: SectionHeader, name: string): void {
  state.sawHeader = true;
  state.section = header.kind;
  state.sectionName = name;
  if (state.eventsAt !== null && header.kind !== 'events') {
    // The document's metadata was settled when the events began: what comes after them cannot join it.
    state.lateSections.push({ name, line: state.lineNumber });
    state.section = 'other';
    return;
  }
  if (header.kind === 'styles') {
    state.styleSection = name;
    state.variant = header.variant ?? state.variant;
  } else if (header.kind === 'events') {
    state.eventsAt ??= state.lineNumber;
  } else if (header.kind === 'other') {
    state.sections.push(state.styleSection === null ? { name, lines: [], before_styles: true } : { name, lines: [] });
  }
}

/** `[Script Info]`: every line kept as written (comments too, blank lines not); ScriptType says ASS or SSA. */
function readScriptInfoLine(state: AssReadState, line: string): void {
  if (line.trim().length === 0) return;
  state.scriptInfo.push(line);
  const type = /^\s*ScriptType\s*:\s*(.*?)\s*$/i.exec(line);
  if (type !== null && state.styleSection === null) {
    // libass parse_script_type: "4.00+" is ASS, "4.00" SSA, whatever comes before.
    if (/4\.00\+$/.test(type[1])) state.variant = 'ass';
    else if (/4\.00$/.test(type[1])) state.variant = 'ssa';
  }
}

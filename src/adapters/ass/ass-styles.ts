import { ASS_STYLE_FORMAT, SSA_STYLE_FORMAT, type AssStyles } from './ass-model.js';
import type { AssStyleFlags } from './ass-text.js';
import type { AssNotes, AssReadState } from './ass-read-state.js';

/**
 * The styles pass: `Format:` names the columns, each `Style:` line gives their values in that
 * order (libass/ass.c process_style). Values are kept as written, leading and trailing spaces
 * trimmed (pysubs2 issue 45: `Style: Default, Arial, 20, ...`). A Style line before any Format
 * line is read with the format libass falls back to (ASS, or SSA's in a `[V4 Styles]` section).
 */
export function readStylesLine(state: AssReadState, line: string, notes: AssNotes): void {
  const trimmed = line.trimStart();
  if (trimmed.length === 0 || trimmed.startsWith(';')) return;
  if (trimmed.startsWith('Format:')) {
    state.styleFormat = trimmed.slice(7).split(',').map((name) => name.trim());
    return;
  }
  if (trimmed.startsWith('Style:')) {
    const format = state.styleFormat ?? (state.variant === 'ssa' ? SSA_STYLE_FORMAT : ASS_STYLE_FORMAT);
    const values = trimmed.slice(6).split(',');
    const style: Record<string, string> = {};
    // Extra values are ignored and missing ones left out, as libass does.
    for (let i = 0; i < format.length && i < values.length; i++) style[format[i]] = values[i].trim();
    state.styles.push(style);
    return;
  }
  notes.dropped(state.lineNumber, `line dropped: a styles section holds "Format:" and "Style:" lines (it starts ${JSON.stringify(trimmed.slice(0, 40))})`);
}

/** The styles section as the document metadata keeps it, or null when the file has none. */
export function stylesOf(state: AssReadState): AssStyles | null {
  if (state.styleSection === null && state.styles.length === 0) return null;
  const format = state.styleFormat ?? (state.variant === 'ssa' ? SSA_STYLE_FORMAT : ASS_STYLE_FORMAT);
  return { section: state.styleSection ?? '[V4+ Styles]', format, styles: state.styles };
}

/**
 * The italic, bold and underline of each style by name (libass: a Bold, Italic or Underline
 * value that is not 0 is on, `-1` being what editors write), for styled runs of event text.
 */
export function styleFlags(styles: AssStyles | null): Map<string, AssStyleFlags> {
  const flags = new Map<string, AssStyleFlags>();
  for (const style of styles?.styles ?? []) {
    const name = valueOf(style, 'name');
    if (name === undefined) continue;
    flags.set(name.replace(/^\*+/, ''), { italic: isOn(valueOf(style, 'italic')), bold: isOn(valueOf(style, 'bold')), underline: isOn(valueOf(style, 'underline')) });
  }
  return flags;
}

function valueOf(style: Readonly<Record<string, string>>, column: string): string | undefined {
  for (const key of Object.keys(style)) if (key.toLowerCase() === column) return style[key];
  return undefined;
}

function isOn(value: string | undefined): boolean {
  if (value === undefined) return false;
  const number = Number.parseInt(value, 10);
  return Number.isFinite(number) && number !== 0;
}

import { PLAIN, type StyledRun } from '../styled-runs.js';

/**
 * The text of a SubStation event, read as libass renders it (libass/ass_render.c and
 * ass_parse.c): a `{...}` with its closing brace is an override block, not text (a `{` without
 * one is text); `\N` is a line break, and so is `\n` here (libass makes it a space unless
 * WrapStyle is 2, but files use it for a break); `\h` a no-break space; `\{` and `\}` literal
 * braces; text after `{\p1}` (up to `{\p0}`) is a vector drawing, not text. `\i`, `\b` and `\u`
 * switch italic, bold and underline, `\r` resets to the event's style (or a named one).
 */

/** What the style of an event (or a `\rName`) starts its text with. */
export interface AssStyleFlags {
  readonly italic: boolean;
  readonly bold: boolean;
  readonly underline: boolean;
}

/** Where `\` + U+2060 (word joiner) stands for a bare backslash: how ffmpeg and annot write one before N, n or h. */
const WORD_JOINER = '\u2060';
const NO_BREAK_SPACE = '\u00a0';

/** The event's text without override tags, with its line breaks and no-break spaces: the body's `text`. */
export function assPlainText(raw: string): string {
  // Most events of most files are plain text: no brace, no backslash.
  if (raw.indexOf('{') === -1 && raw.indexOf('\\') === -1) return raw;
  // A drawing is the only override that changes what is text: without \p, skip the blocks and read the escapes.
  if (raw.indexOf('\\p') !== -1) {
    let text = '';
    for (const run of assRuns(raw, PLAIN, () => undefined)) text += run.text;
    return text;
  }
  let text = '';
  let from = 0;
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code === 123 /* { */) {
      const close = raw.indexOf('}', i + 1);
      if (close === -1) break;
      text += raw.slice(from, i);
      i = close;
      from = close + 1;
    } else if (code === 92 /* \\ */ && i + 1 < raw.length) {
      const escaped = escapedCharacter(raw[i + 1]);
      if (escaped === null) continue;
      text += raw.slice(from, i) + escaped;
      i++;
      from = i + 1;
    }
  }
  return text + raw.slice(from);
}

/**
 * The event's text as styled runs: `base` is its style's flags, `styleNamed` finds those of a
 * style a `\rName` names (undefined: the event's own style, as libass falls back).
 */
export function assRuns(raw: string, base: AssStyleFlags, styleNamed: (name: string) => AssStyleFlags | undefined): StyledRun[] {
  // The flags as bits (ITALIC, BOLD, UNDERLINE, DRAWING): a block that changes none of them costs nothing.
  let flags = bitsOf(base);
  const runs: StyledRun[] = [];
  let text = '';
  let from = 0;
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code === 123 /* { */) {
      const close = raw.indexOf('}', i + 1);
      if (close === -1) continue;
      if ((flags & DRAWING) === 0) text += raw.slice(from, i);
      from = close + 1;
      const next = applyOverrides(raw, i + 1, close, flags, base, styleNamed);
      if (next !== flags) {
        // The text so far keeps the flags it had.
        if (text.length > 0) runs.push(runOf(text, flags));
        text = '';
        flags = next;
      }
      i = close;
    } else if (code === 92 /* \\ */ && i + 1 < raw.length) {
      const escaped = escapedCharacter(raw[i + 1]);
      if (escaped === null) continue;
      if ((flags & DRAWING) === 0) text += raw.slice(from, i) + escaped;
      i++;
      from = i + 1;
    }
  }
  if ((flags & DRAWING) === 0) text += raw.slice(from);
  if (text.length > 0) runs.push(runOf(text, flags));
  return runs;
}

const ITALIC = 1;
const BOLD = 2;
const UNDERLINE = 4;
const DRAWING = 8;

function bitsOf(flags: AssStyleFlags): number {
  return (flags.italic ? ITALIC : 0) | (flags.bold ? BOLD : 0) | (flags.underline ? UNDERLINE : 0);
}

function runOf(text: string, flags: number): StyledRun {
  return { text, italic: (flags & ITALIC) !== 0, bold: (flags & BOLD) !== 0, underline: (flags & UNDERLINE) !== 0 };
}

/**
 * The flags after the override block raw[from, to), given those before: its \i, \b, \u, \p and
 * \r tags read one after the other, every other tag left alone.
 */
function applyOverrides(raw: string, from: number, to: number, before: number, base: AssStyleFlags, styleNamed: (name: string) => AssStyleFlags | undefined): number {
  let flags = before;
  const set = (bit: number, on: boolean): void => {
    flags = on ? flags | bit : flags & ~bit;
  };
  for (let at = raw.indexOf('\\', from); at !== -1 && at < to; at = raw.indexOf('\\', at + 1)) {
    const name = raw[at + 1];
    if (name !== 'i' && name !== 'b' && name !== 'u' && name !== 'p' && name !== 'r') continue;
    const end = tagEnd(raw, at + 1, to);
    if (name === 'r') {
      const style = raw.slice(at + 2, end).trim();
      flags = bitsOf(style.length > 0 ? (styleNamed(style) ?? base) : base) | (flags & DRAWING);
      continue;
    }
    // \i1, \b700, \u0, \p2; a letter after the name makes another tag (\iclip, \bord, \blur, \pos).
    const n = tagNumber(raw, at + 2, end);
    if (n === undefined) continue;
    if (name === 'p') set(DRAWING, n !== null && n > 0);
    else if (name === 'i') set(ITALIC, n === null ? base.italic : n === 1);
    else if (name === 'u') set(UNDERLINE, n === null ? base.underline : n === 1);
    else set(BOLD, n === null ? base.bold : n === 1 || n >= 600);
  }
  return flags;
}

/** The integer argument of a tag, raw[from, to) (spaces around it allowed), null for none, undefined when it is not one. */
function tagNumber(raw: string, from: number, to: number): number | null | undefined {
  let start = from;
  let end = to;
  while (start < end && raw.charCodeAt(start) === 32) start++;
  while (end > start && raw.charCodeAt(end - 1) === 32) end--;
  if (start === end) return null;
  let i = raw.charCodeAt(start) === 45 /* - */ ? start + 1 : start;
  let value = 0;
  for (; i < end; i++) {
    const digit = raw.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return raw.charCodeAt(start) === 45 ? -value : value;
}

/** Where a tag that starts at `from` ends: the next backslash or the end of the block. */
function tagEnd(raw: string, from: number, to: number): number {
  const next = raw.indexOf('\\', from);
  return next === -1 || next > to ? to : next;
}

/** What `\` followed by `next` stands for, or null when the pair is text as written. */
function escapedCharacter(next: string): string | null {
  switch (next) {
    case 'N':
    case 'n':
      return '\n';
    case 'h':
      return NO_BREAK_SPACE;
    case '{':
    case '}':
      return next;
    case WORD_JOINER:
      return '\\';
    default:
      return null;
  }
}

/**
 * Plain text as a SubStation event's Text field: line breaks as `\N`, no-break spaces as `\h`,
 * braces as `\{` and `\}` (libass shows them as braces), and a backslash that would start one of
 * those followed by a word joiner, as ffmpeg writes it. assPlainText gives the text back.
 */
export function assTextOf(plain: string): string {
  if (!/[\n\r\u00a0{}\\]/.test(plain)) return plain;
  let out = '';
  for (let i = 0; i < plain.length; i++) {
    const char = plain[i];
    if (char === '\r') {
      out += '\\N';
      if (plain[i + 1] === '\n') i++;
    } else if (char === '\n') out += '\\N';
    else if (char === NO_BREAK_SPACE) out += '\\h';
    else if (char === '{' || char === '}') out += `\\${char}`;
    else if (char === '\\' && i + 1 < plain.length && escapedCharacter(plain[i + 1]) !== null) out += `\\${WORD_JOINER}`;
    else out += char;
  }
  return out;
}

/**
 * Styled runs as a Text field: each change of italic, bold or underline as one override block
 * (`{\i1}`, `{\b1\u1}`), relative to a style with none of them (the Default style annot writes).
 */
export function assTextOfRuns(runs: readonly StyledRun[]): string {
  let out = '';
  let current: AssStyleFlags = PLAIN;
  for (const run of runs) {
    let tags = '';
    if (run.italic !== current.italic) tags += run.italic ? '\\i1' : '\\i0';
    if (run.bold !== current.bold) tags += run.bold ? '\\b1' : '\\b0';
    if (run.underline !== current.underline) tags += run.underline ? '\\u1' : '\\u0';
    if (tags.length > 0) out += `{${tags}}`;
    out += assTextOf(run.text);
    current = run;
  }
  return out;
}

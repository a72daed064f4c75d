import { PLAIN, type StyledRun } from './styled-runs.js';

/**
 * The styled runs of SubRip and WebVTT cue text: `<b>`, `<i>` and `<u>` (with or without WebVTT
 * classes, `<i.loud>`) switch their style on up to the matching end tag; every other tag is left
 * out (voices, classes, languages, ruby, timestamps, SubRip's `<font>`), and so is WebVTT ruby
 * text (`<rt>`). WebVTT's character references are decoded (`references`); SubRip has none, so
 * its text keeps whatever `&` it holds.
 */
export function markupRuns(text: string, references: boolean): StyledRun[] {
  if (text.indexOf('<') === -1 && (!references || text.indexOf('&') === -1)) return text.length === 0 ? [] : [{ text, ...PLAIN }];
  const depth = { b: 0, i: 0, u: 0 };
  const runs: StyledRun[] = [];
  let rubyText = 0;
  let position = 0;
  const emit = (piece: string): void => {
    if (piece.length === 0 || rubyText > 0) return;
    runs.push({ text: references ? decodeReferences(piece) : piece, italic: depth.i > 0, bold: depth.b > 0, underline: depth.u > 0 });
  };
  const tag = /<(\/?)([^>\s./]*)[^>]*>/g;
  for (let match = tag.exec(text); match !== null; match = tag.exec(text)) {
    emit(text.slice(position, match.index));
    position = match.index + match[0].length;
    const closing = match[1] === '/';
    const name = match[2].toLowerCase();
    if (name === 'b' || name === 'i' || name === 'u') depth[name] = Math.max(0, depth[name] + (closing ? -1 : 1));
    else if (name === 'rt') rubyText = closing ? Math.max(0, rubyText - 1) : rubyText + 1;
  }
  emit(text.slice(position));
  return runs;
}

const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', nbsp: '\u00a0', lrm: '\u200e', rlm: '\u200f', quot: '"', apos: "'" };

/** WebVTT character references (named ones the cue text tokenizer knows best, and numeric ones). */
function decodeReferences(text: string): string {
  if (text.indexOf('&') === -1) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole: string, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name] ?? whole;
  });
}

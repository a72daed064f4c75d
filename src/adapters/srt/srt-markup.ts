import { PLAIN, type StyledRun } from '../styled-runs.js';

/**
 * SubRip text as players read it. SubRip has no specification and no escaping; FFmpeg's reader
 * (libavcodec/htmlsubtitles.c, which mpv uses too) and VLC's agree on these tags, and annot reads
 * exactly these as markup:
 * - `<b>`, `<i>`, `<u>`, `<s>` and their end tags (any case, attributes ignored: `<b class=x>`);
 * - `<font …>` and `</font>` (colour and face are not kept);
 * - `{\…}` override blocks of SubStation (`{\an8}`), which FFmpeg, mpv and VLC honour.
 *
 * Every other `<` is text: `1 < 2 > 0`, `<3`, and also `<lacht>`, which FFmpeg would hide (VLC
 * shows it). To write such text so that FFmpeg shows it too, the writer puts a word joiner
 * (U+2060, invisible and zero-width) after a `<` that FFmpeg would take for a tag, after a `{`
 * before `\`, and after a `\` before `N`, `n` or `h` (FFmpeg's line break and no-break space, as
 * ffmpeg writes a bare backslash in SubStation). The reader takes those word joiners out again.
 */

const WORD_JOINER = '\u2060';
/** A tag players know, at the start of the string it is tried on (the regexp is sticky). */
const KNOWN_TAG = /<(\/?)(b|i|u|s|font)(?=[\s>/])[^<>]*>/iy;
/** A SubStation override block, at the start. */
const OVERRIDE_BLOCK = /\{\\[^{}]*\}/y;

/** The text a person reads: the known tags and override blocks left out, annot's word joiners taken out. */
export function srtPlainText(raw: string): string {
  if (raw.indexOf('<') === -1 && raw.indexOf('{') === -1 && raw.indexOf(WORD_JOINER) === -1) return raw;
  let text = '';
  for (const run of srtRuns(raw)) text += run.text;
  return text;
}

/** The text's styled runs: bold, italic and underline from the known tags (`<s>` and `<font>` style nothing annot keeps). */
export function srtRuns(raw: string): StyledRun[] {
  if (raw.indexOf('<') === -1 && raw.indexOf('{') === -1 && raw.indexOf(WORD_JOINER) === -1) return raw.length === 0 ? [] : [{ text: raw, ...PLAIN }];
  const depth = { b: 0, i: 0, u: 0 };
  const runs: StyledRun[] = [];
  let text = '';
  const flush = (): void => {
    if (text.length > 0) runs.push({ text, italic: depth.i > 0, bold: depth.b > 0, underline: depth.u > 0 });
    text = '';
  };
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i];
    if ((char === '<' || char === '{' || char === '\\') && raw[i + 1] === WORD_JOINER) {
      text += char;
      i++;
      continue;
    }
    if (char === '<') {
      KNOWN_TAG.lastIndex = i;
      const tag = KNOWN_TAG.exec(raw);
      if (tag !== null) {
        const name = tag[2].toLowerCase();
        if (name === 'b' || name === 'i' || name === 'u') {
          flush();
          depth[name] = Math.max(0, depth[name] + (tag[1] === '/' ? -1 : 1));
        }
        i += tag[0].length - 1;
        continue;
      }
    } else if (char === '{' && raw[i + 1] === '\\') {
      OVERRIDE_BLOCK.lastIndex = i;
      const block = OVERRIDE_BLOCK.exec(raw);
      if (block !== null) {
        i += block[0].length - 1;
        continue;
      }
    }
    text += char;
  }
  flush();
  return runs;
}

/**
 * Plain text as SubRip that FFmpeg and annot read back as that text: a word joiner after each
 * `<` that would open a tag (no space after it, and a `>` before the next `<`), after `{` before
 * `\`, and after `\` before `N`, `n` or `h`.
 */
export function escapeSrtText(plain: string): string {
  if (plain.indexOf('<') === -1 && plain.indexOf('\\') === -1) return plain;
  let out = '';
  for (let i = 0; i < plain.length; i++) {
    const char = plain[i];
    out += char;
    if (char === '<' && opensTag(plain, i)) out += WORD_JOINER;
    else if (char === '{' && plain[i + 1] === '\\') out += WORD_JOINER;
    else if (char === '\\' && /[Nnh]/.test(plain[i + 1] ?? '')) out += WORD_JOINER;
  }
  return out;
}

/** Whether FFmpeg reads the `<` at `at` as a tag's start: no whitespace after it, and `>` comes before another `<`. */
function opensTag(text: string, at: number): boolean {
  const next = text.charCodeAt(at + 1);
  if (Number.isNaN(next) || next === 32 || next === 9 || next === 10 || next === 13 || next === 0x3c) return false;
  for (let i = at + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x3e) return true;
    if (code === 0x3c) return false;
  }
  return false;
}

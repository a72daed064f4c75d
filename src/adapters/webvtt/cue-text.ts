import { createRequire } from 'node:module';
import { PLAIN, type StyledRun } from '../styled-runs.js';

/**
 * WebVTT cue text (W3C WebVTT section 6.4, "WebVTT cue text parsing rules"): a payload as the
 * browser's tokenizer reads it. Every `<` opens a tag, up to the next `>` (or the end of the
 * payload); character references are HTML's, decoded as HTML decodes them in text (the legacy
 * names without `;` too: `&not` is `¬`). What a person reads is the text tokens joined, without
 * the ruby text (`<rt>`), which sits above the base text rather than in the line.
 */

export type CueTextToken =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'start'; readonly name: string; readonly annotation: string }
  | { readonly kind: 'end'; readonly name: string }
  | { readonly kind: 'timestamp' };

/** The payload's tokens, as the WebVTT cue text tokenizer emits them (classes are not kept: nothing here reads them). */
export function cueTextTokens(payload: string): CueTextToken[] {
  const tokens: CueTextToken[] = [];
  let position = 0;
  while (position < payload.length) {
    const open = payload.indexOf('<', position);
    const textEnd = open === -1 ? payload.length : open;
    if (textEnd > position) tokens.push({ kind: 'text', text: decodeReferences(payload.slice(position, textEnd)) });
    if (open === -1) break;
    const close = payload.indexOf('>', open + 1);
    const tagEnd = close === -1 ? payload.length : close;
    tokens.push(tagToken(payload.slice(open + 1, tagEnd)));
    position = tagEnd + 1;
  }
  return tokens;
}

/** A tag's token from what stands between `<` and `>`. */
function tagToken(inside: string): CueTextToken {
  const first = inside.charCodeAt(0);
  if (first === 47 /* / */) return { kind: 'end', name: tagName(inside.slice(1)) };
  if (first >= 48 && first <= 57) return { kind: 'timestamp' };
  const space = inside.search(/[\t\n\f ]/);
  const head = space === -1 ? inside : inside.slice(0, space);
  // The annotation's whitespace is collapsed and trimmed, as the tree builder does for a voice or a language.
  const annotation = space === -1 ? '' : decodeReferences(inside.slice(space + 1)).replace(/[\t\n\f\r ]+/g, ' ').trim();
  return { kind: 'start', name: tagName(head), annotation };
}

/** The tag's name: what precedes its first class (`c.yellow.bg` is `c`). */
function tagName(head: string): string {
  const dot = head.indexOf('.');
  return dot === -1 ? head : head.slice(0, dot);
}

/**
 * HTML character references in text (WebVTT's tokenizer consumes them as HTML does). The ones
 * annot writes and most files hold (`&amp;`, `&lt;`, `&gt;`, `&nbsp;`, `&lrm;`, `&rlm;`, `&quot;`,
 * `&apos;`) are decoded here; any other needs HTML's whole table of names and its rules for
 * numbers, which the `entities` package has (loaded only then: a conversion of plain cues loads
 * no package).
 */
export function decodeReferences(text: string): string {
  if (text.indexOf('&') === -1) return text;
  if (onlyCommonReferences(text)) return text.replace(COMMON_REFERENCES, (_whole: string, name: string) => COMMON_NAMES[name]);
  return htmlDecoder()(text);
}

const COMMON_NAMES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', nbsp: '\u00a0', lrm: '\u200e', rlm: '\u200f', quot: '"', apos: "'" };
const COMMON_REFERENCES = /&(amp|lt|gt|nbsp|lrm|rlm|quot|apos);/g;
const COMMON_REFERENCE_AT = /&(?:amp|lt|gt|nbsp|lrm|rlm|quot|apos);/y;

/** Whether every `&` that starts a reference (a letter, digit or `#` after it) starts one of the common ones. */
function onlyCommonReferences(text: string): boolean {
  for (let at = text.indexOf('&'); at !== -1; at = text.indexOf('&', at + 1)) {
    const next = text.charCodeAt(at + 1);
    const startsReference = next === 35 || (next >= 48 && next <= 57) || (next >= 65 && next <= 90) || (next >= 97 && next <= 122);
    if (!startsReference) continue;
    COMMON_REFERENCE_AT.lastIndex = at;
    if (!COMMON_REFERENCE_AT.test(text)) return false;
  }
  return true;
}

let decodeHtml: ((text: string) => string) | undefined;

function htmlDecoder(): (text: string) => string {
  if (decodeHtml === undefined) {
    const entities = createRequire(import.meta.url)('entities/decode') as { decodeHTML(text: string, mode: number): string; DecodingMode: { Legacy: number } };
    decodeHtml = (text) => entities.decodeHTML(text, entities.DecodingMode.Legacy);
  }
  return decodeHtml;
}

/**
 * The text a person reads in a payload: tags left out, references decoded, ruby text left out.
 * A payload without `<` and `&` is its own text.
 */
export function webVttPlainText(payload: string): string {
  if (payload.indexOf('<') === -1) return decodeReferences(payload);
  let text = '';
  for (const run of webVttRuns(payload)) text += run.text;
  return text;
}

/**
 * The payload's styled runs, from the tree the WebVTT tree builder makes of its tokens (an end tag
 * closes only the element it names, when that is the current one; `</ruby>` closes an `<rt>` too):
 * text inside `<b>`, `<i>` and `<u>` (with or without classes) is bold, italic or underlined; every
 * other element styles nothing annot keeps (voices, classes, languages, ruby), timestamps are no
 * text, and ruby text is left out.
 */
export function webVttRuns(payload: string): StyledRun[] {
  if (payload.indexOf('<') === -1) {
    const text = decodeReferences(payload);
    return text.length === 0 ? [] : [{ text, ...PLAIN }];
  }
  const open: string[] = [];
  const runs: StyledRun[] = [];
  for (const token of cueTextTokens(payload)) {
    if (token.kind === 'text') {
      if (token.text.length > 0 && !open.includes('rt')) runs.push({ text: token.text, italic: open.includes('i'), bold: open.includes('b'), underline: open.includes('u') });
    } else if (token.kind === 'start') {
      const current = open[open.length - 1];
      if (ELEMENTS.has(token.name) || (token.name === 'rt' && current === 'ruby')) open.push(token.name);
    } else if (token.kind === 'end') {
      const current = open[open.length - 1];
      if (current === token.name) open.pop();
      else if (token.name === 'ruby' && current === 'rt' && open[open.length - 2] === 'ruby') open.length -= 2;
    }
  }
  return runs;
}

/** The start tags that make an element anywhere (`rt` does only inside `ruby`). */
const ELEMENTS = new Set(['c', 'i', 'b', 'u', 'ruby', 'v', 'lang']);

/** The annotation of the payload's first voice span that has one (`<v.loud Joe>` gives "Joe"); null when it names none. */
export function webVttVoice(payload: string): string | null {
  if (payload.indexOf('<v') === -1) return null;
  for (const token of cueTextTokens(payload)) {
    if (token.kind === 'start' && token.name === 'v' && token.annotation.length > 0) return token.annotation;
  }
  return null;
}

/** Whether a payload holds markup beyond bold, italic, underline and voices: classes, languages, ruby, timestamps. */
export function hasWebVttOnlyMarkup(payload: string | null): boolean {
  if (payload === null || payload.indexOf('<') === -1) return false;
  for (const token of cueTextTokens(payload)) {
    if (token.kind === 'timestamp') return true;
    if (token.kind !== 'text' && token.name !== 'b' && token.name !== 'i' && token.name !== 'u' && token.name !== 'v') return true;
  }
  return false;
}

/** `&`, `<` and `>` as character references: text that WebVTT's tokenizer reads back as it is. */
export function escapeWebVttText(text: string): string {
  if (!/[&<>]/.test(text)) return text;
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** The payload annot writes for a plain text and its speaker: a voice span when there is a speaker, the text escaped. */
export function webVttPayloadOf(text: string, speaker: string | null): string {
  return (speaker === null ? '' : voiceTag(speaker)) + escapeWebVttText(text);
}

/**
 * A voice span's opening tag for `speaker` (`<v Mara>`), on one line, with only what the tag's
 * annotation cannot hold as it is escaped: `>`, which would end it, and a `&` that would start a
 * character reference. ('' for a speaker with no visible name.) FFmpeg's WebVTT reader loses track
 * of a tag at any reference inside it, so a plain `Anna & Ben` is written as it is.
 */
export function voiceTag(speaker: string): string {
  const name = speaker
    .replace(/[\t\n\f\r ]+/g, ' ')
    .trim()
    .replace(/&(?=[A-Za-z0-9#])/g, '&amp;')
    .replaceAll('>', '&gt;');
  return name.length > 0 ? `<v ${name}>` : '';
}

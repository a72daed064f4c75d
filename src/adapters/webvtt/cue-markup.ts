/**
 * What other formats need from WebVTT cue text markup (W3C WebVTT section 4.2.2 "cue text"): the
 * speaker a voice span names, a speaker put back as a voice span, and the text without the
 * WebVTT-only tags that subtitle players of other formats would show literally.
 */

/**
 * The annotation of the first voice span that has one (`<v Roger Bingham>` gives "Roger Bingham",
 * `<v.loud Joe>` gives "Joe"), with whitespace collapsed and character references decoded as the
 * cue text tokenizer does; null when the text names no voice.
 */
export function firstVoice(text: string): string | null {
  let at = text.indexOf('<v');
  while (at !== -1) {
    const next = text.charCodeAt(at + 2);
    // The tag name is exactly "v": then a class (.), whitespace before the annotation, or the end of the tag.
    if (next === 46 || next === 32 || next === 9 || next === 10 || next === 12) {
      const close = text.indexOf('>', at);
      const tag = close === -1 ? text.slice(at + 2) : text.slice(at + 2, close);
      const space = tag.search(/[ \t\n\f]/);
      if (space !== -1) {
        const name = decodeReferences(tag.slice(space).trim().replace(/[ \t\n\f]+/g, ' '));
        if (name.length > 0) return name;
      }
    }
    at = text.indexOf('<v', at + 2);
  }
  return null;
}

/** The text as one voice span for `speaker` (`<v Mara>text`), as an EAF participant or an SRT speaker comes back. */
export function withVoice(text: string, speaker: string): string {
  const name = speaker.replace(/[\r\n\t\f]+/g, ' ').replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').trim();
  return name.length > 0 ? `<v ${name}>${text}` : text;
}

const RUBY_TEXT = /<rt(?:[.\s][^>]*)?>[\s\S]*?(?:<\/rt>|(?=<\/ruby>)|$)/g;
const TAG = /<(\/?)([^>\s.]*)([^>]*)>/g;
const DROPPED_TAGS = new Set(['v', 'c', 'lang', 'ruby', 'rt']);

/**
 * The text with WebVTT-only markup removed, for SubRip: voice, class and language spans, ruby
 * (the base text stays, the ruby text goes) and timestamp tags (`<00:17.500>`). Bold, italic and
 * underline stay as SRT's plain `<b>`, `<i>` and `<u>` (their classes dropped); any other tag and
 * character references are left as written.
 */
export function withoutWebVttMarkup(text: string): string {
  if (text.indexOf('<') === -1) return text;
  const noRubyText = text.indexOf('<rt') === -1 ? text : text.replace(RUBY_TEXT, '');
  return noRubyText.replace(TAG, (whole: string, slash: string, name: string, rest: string) => {
    if (DROPPED_TAGS.has(name) || (slash === '' && TIMESTAMP_TAG.test(name + rest))) return '';
    if (name === 'b' || name === 'i' || name === 'u') return `<${slash}${name}>`;
    return whole;
  });
}

/**
 * A timestamp tag's content, a WebVTT timestamp (`00:17.500`, `01:02:03.456`). Only a valid one is
 * removed: text from SubRip can hold `<99i>` or `</03.000 --> ...`, which players show as written.
 */
const TIMESTAMP_TAG = /^(?:\d{2,}:)?[0-5]\d:[0-5]\d\.\d{3}$/;

const REFERENCES: Record<string, string> = { amp: '&', lt: '<', gt: '>', nbsp: '\u00a0', lrm: '\u200e', rlm: '\u200f', quot: '"', apos: "'" };

function decodeReferences(text: string): string {
  if (text.indexOf('&') === -1) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole: string, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return safeCodePoint(Number.parseInt(name.slice(2), 16)) ?? whole;
    if (name.startsWith('#')) return safeCodePoint(Number.parseInt(name.slice(1), 10)) ?? whole;
    return REFERENCES[name] ?? whole;
  });
}

function safeCodePoint(code: number): string | null {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : null;
}

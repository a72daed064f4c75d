import { FormatParseError } from '../errors.js';

/**
 * Praat's text formats, long and short, read the way Praat reads them: as a sequence of values
 * (numbers, quoted strings with `""` for a quote, `<flags>`), where everything else — the long
 * format's `xmin =` labels, `item [1]:` and `intervals [3]` headings (with or without the colon,
 * ELAN writes both), `!` comments — only separates values. So one reader serves both formats and
 * the variants other tools write.
 */

export interface TextGridToken {
  readonly kind: 'number' | 'string' | 'flag';
  /** Numbers as written (exact decimal text), strings unescaped, flags without the brackets. */
  readonly text: string;
  readonly line: number;
  readonly column: number;
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The tokens one at a time: `next()` gives the next value token, or null at the end. A file of a
 * million intervals is three million tokens; made on demand, none outlives its use.
 */
export function textGridTokens(source: string, file: string): () => TextGridToken | null {
  const text = source.indexOf('\r') === -1 ? source : source.replace(/\r\n?/g, '\n');
  let line = 1;
  let lineStart = 0;
  let i = 0;
  const length = text.length;
  return () => {
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      lineStart = ++i;
      continue;
    }
    if (c === 32 || c === 9 || c === 12 || c === 0xfeff) {
      i++;
      continue;
    }
    const column = i - lineStart + 1;
    if (c === 34 /* " */) {
      const startLine = line;
      let value = '';
      let from = i + 1;
      for (;;) {
        const quote = text.indexOf('"', from);
        if (quote === -1) throw new FormatParseError(file, { line: startLine, column }, 'expected a closing quote (") for the string that starts here');
        value += text.slice(from, quote);
        if (text.charCodeAt(quote + 1) === 34) {
          value += '"';
          from = quote + 2;
          continue;
        }
        for (let k = i; k < quote; k++) {
          if (text.charCodeAt(k) === 10) {
            line++;
            lineStart = k + 1;
          }
        }
        i = quote + 1;
        break;
      }
      return { kind: 'string', text: value, line: startLine, column };
    }
    if (c === 60 /* < */) {
      const close = text.indexOf('>', i);
      const newline = text.indexOf('\n', i);
      if (close === -1 || (newline !== -1 && newline < close)) throw new FormatParseError(file, { line, column }, 'expected ">" closing the flag that starts here (<exists> or <absent>)');
      const flag = text.slice(i + 1, close);
      i = close + 1;
      return { kind: 'flag', text: flag, line, column };
    }
    if (c === 33 /* ! */) {
      while (i < length && text.charCodeAt(i) !== 10) i++;
      continue;
    }
    if (c === 91 /* [ */) {
      const close = text.indexOf(']', i);
      i = close === -1 ? i + 1 : close + 1;
      continue;
    }
    const start = i;
    while (i < length) {
      const d = text.charCodeAt(i);
      if (d === 10 || d === 32 || d === 9 || d === 12 || d === 34 || d === 60 || d === 91) break;
      i++;
    }
    const word = text.slice(start, i);
    if (NUMBER.test(word)) return { kind: 'number', text: word, line, column };
    // Any other word (xmin, =, class, intervals:, tiers?) is a label Praat skips.
  }
  return null;
  };
}

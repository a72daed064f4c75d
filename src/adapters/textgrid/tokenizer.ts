import { FormatParseError } from '../errors.js';
import { LineBreakNormalizer } from '../text-lines.js';

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

export function tokenizeTextGrid(source: string, file: string): TextGridToken[] {
  const tokenizer = new TextGridTokenizer(file);
  const tokens = tokenizer.push(source);
  tokens.push(...tokenizer.end());
  return tokens;
}

/**
 * The tokenizer fed piece by piece (a file read in chunks): each push returns the tokens complete
 * so far, and a token cut by the end of a piece (a string, a word, a flag, a comment or a bracket
 * not yet closed) waits for the next. end() reads what is left as the end of the file.
 */
/** Characters of a carried token from which pieces wait before it is scanned again. */
const LONG_TOKEN = 1 << 16;

export class TextGridTokenizer {
  private carry = '';
  private line = 1;
  /** Where the current line starts, as an offset into the carried text (negative: in text already gone). */
  private lineStart = 0;
  private readonly breaks = new LineBreakNormalizer();
  private waiting: string[] = [];
  private waitingLength = 0;

  constructor(private readonly file: string) {}

  push(source: string): TextGridToken[] {
    const text = this.breaks.push(source);
    // A token longer than a chunk (a label of megabytes) is scanned again from its start with
    // each piece: wait until the text after it is as long as it, so the rescans add up to a
    // linear cost, not a quadratic one.
    if (this.carry.length >= LONG_TOKEN && this.waitingLength + text.length < this.carry.length) {
      this.waiting.push(text);
      this.waitingLength += text.length;
      return [];
    }
    const tokens: TextGridToken[] = [];
    this.scan(this.takeWaiting() + text, false, tokens);
    return tokens;
  }

  end(): TextGridToken[] {
    const tokens: TextGridToken[] = [];
    this.scan(this.takeWaiting(), true, tokens);
    this.carry = '';
    return tokens;
  }

  /** The carried text and the pieces waiting after it. */
  private takeWaiting(): string {
    const text = this.waiting.length === 0 ? this.carry : this.carry + this.waiting.join('');
    this.waiting = [];
    this.waitingLength = 0;
    return text;
  }

  /** Tokens of `text`; unless `final`, a token that may continue in the next piece is carried over. */
  private scan(text: string, final: boolean, tokens: TextGridToken[]): void {
    const file = this.file;
    let line = this.line;
    let lineStart = this.lineStart;
    let i = 0;
    const length = text.length;
    const stop = (at: number): void => {
      this.carry = text.slice(at);
      this.line = line;
      this.lineStart = lineStart - at;
    };
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
        let complete = true;
        for (;;) {
          const quote = text.indexOf('"', from);
          if (quote === -1 || (!final && quote + 1 === length)) {
            // The closing quote (or whether it is a doubled one) is in the next piece.
            if (!final) {
              complete = false;
              break;
            }
            throw new FormatParseError(file, { line: startLine, column }, 'expected a closing quote (") for the string that starts here');
          }
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
        if (!complete) return stop(i);
        tokens.push({ kind: 'string', text: value, line: startLine, column });
        continue;
      }
      if (c === 60 /* < */) {
        const close = text.indexOf('>', i);
        const newline = text.indexOf('\n', i);
        if (!final && close === -1 && newline === -1) return stop(i);
        if (close === -1 || (newline !== -1 && newline < close)) throw new FormatParseError(file, { line, column }, 'expected ">" closing the flag that starts here (<exists> or <absent>)');
        tokens.push({ kind: 'flag', text: text.slice(i + 1, close), line, column });
        i = close + 1;
        continue;
      }
      if (c === 33 /* ! */) {
        const newline = text.indexOf('\n', i);
        if (newline === -1) {
          if (!final) return stop(i);
          i = length;
        } else i = newline;
        continue;
      }
      if (c === 91 /* [ */) {
        const close = text.indexOf(']', i);
        if (close === -1 && !final) return stop(i);
        i = close === -1 ? i + 1 : close + 1;
        continue;
      }
      const start = i;
      while (i < length) {
        const d = text.charCodeAt(i);
        if (d === 10 || d === 32 || d === 9 || d === 12 || d === 34 || d === 60 || d === 91) break;
        i++;
      }
      if (i === length && !final) return stop(start);
      const word = text.slice(start, i);
      if (NUMBER.test(word)) tokens.push({ kind: 'number', text: word, line, column });
      // Any other word (xmin, =, class, intervals:, tiers?) is a label Praat skips.
    }
    stop(length);
  }
}

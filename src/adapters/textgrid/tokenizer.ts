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
    const at: Cursor = { text, final, i: 0, line: this.line, lineStart: this.lineStart };
    while (at.i < text.length) {
      const c = text.charCodeAt(at.i);
      if (c === 10) {
        at.line++;
        at.lineStart = ++at.i;
        continue;
      }
      if (c === 32 || c === 9 || c === 12 || c === 0xfeff) {
        at.i++;
        continue;
      }
      const start = at.i;
      const complete =
        c === 34 /* " */ ? this.string(at, tokens)
        : c === 60 /* < */ ? this.flag(at, tokens)
        : c === 33 /* ! */ ? skipComment(at)
        : c === 91 /* [ */ ? skipBracket(at)
        : word(at, tokens);
      if (!complete) return this.stop(at, start);
    }
    this.stop(at, text.length);
  }

  /** Carries the text from `from` (a token that may continue) into the next piece. */
  private stop(at: Cursor, from: number): void {
    this.carry = at.text.slice(from);
    this.line = at.line;
    this.lineStart = at.lineStart - from;
  }

  /**
   * A quoted string, `""` standing for a quote. As in Praat, the closing quote must be followed
   * by whitespace or the end of the file: `"ad"x` is an undoubled quote inside a text or damage,
   * and no reading of it is safe. Returns false when the string may continue in the next piece.
   */
  private string(at: Cursor, tokens: TextGridToken[]): boolean {
    const { text } = at;
    const column = at.i - at.lineStart + 1;
    const startLine = at.line;
    let value = '';
    let from = at.i + 1;
    for (;;) {
      const quote = text.indexOf('"', from);
      // The closing quote, or whether it is a doubled one or what follows it, is in the next piece.
      if (!at.final && (quote === -1 || quote + 1 === text.length)) return false;
      if (quote === -1) throw new FormatParseError(this.file, { line: startLine, column }, 'expected a closing quote (") for the string that starts here');
      value += text.slice(from, quote);
      if (text.charCodeAt(quote + 1) === 34) {
        value += '"';
        from = quote + 2;
        continue;
      }
      countLines(at, at.i, quote);
      at.i = quote + 1;
      if (at.i < text.length && !/\s/.test(text[at.i])) this.characterAfterQuote(at, startLine, column);
      tokens.push({ kind: 'string', text: value, line: startLine, column });
      return true;
    }
  }

  private characterAfterQuote(at: Cursor, startLine: number, startColumn: number): never {
    const found = String.fromCodePoint(at.text.codePointAt(at.i) as number);
    throw new FormatParseError(
      this.file,
      { line: at.line, column: at.i - at.lineStart + 1 },
      `expected whitespace after the closing quote of the string that starts at line ${startLine}, column ${startColumn}; found ${JSON.stringify(found)} (Praat refuses a character following a quote: a quote inside a text is written doubled, "")`,
    );
  }

  /** A `<flag>`, on one line. */
  private flag(at: Cursor, tokens: TextGridToken[]): boolean {
    const close = at.text.indexOf('>', at.i);
    const newline = at.text.indexOf('\n', at.i);
    if (!at.final && close === -1 && newline === -1) return false;
    const column = at.i - at.lineStart + 1;
    if (close === -1 || (newline !== -1 && newline < close)) throw new FormatParseError(this.file, { line: at.line, column }, 'expected ">" closing the flag that starts here (<exists> or <absent>)');
    tokens.push({ kind: 'flag', text: at.text.slice(at.i + 1, close), line: at.line, column });
    at.i = close + 1;
    return true;
  }
}

/** Where the scan of one piece is: its text, the position, and the line the position is on. */
interface Cursor {
  readonly text: string;
  /** The piece is the end of the file: nothing can continue in a next one. */
  readonly final: boolean;
  i: number;
  line: number;
  /** Offset of the current line's start (negative: in text carried over and gone). */
  lineStart: number;
}

/** Advances the line count over the line breaks in text[from, to). */
function countLines(at: Cursor, from: number, to: number): void {
  for (let k = at.text.indexOf('\n', from); k !== -1 && k < to; k = at.text.indexOf('\n', k + 1)) {
    at.line++;
    at.lineStart = k + 1;
  }
}

/** A `!` comment, to the end of its line (the line break itself is left for the scan). */
function skipComment(at: Cursor): boolean {
  const newline = at.text.indexOf('\n', at.i);
  if (newline === -1 && !at.final) return false;
  at.i = newline === -1 ? at.text.length : newline;
  return true;
}

/** A `[...]` index (`item [1]`), skipped; a bracket never closed is skipped alone. */
function skipBracket(at: Cursor): boolean {
  const close = at.text.indexOf(']', at.i);
  if (close === -1 && !at.final) return false;
  at.i = close === -1 ? at.i + 1 : close + 1;
  return true;
}

/** A word: a number is a token; any other word (xmin, =, class, intervals:, tiers?) is a label Praat skips. */
function word(at: Cursor, tokens: TextGridToken[]): boolean {
  const { text } = at;
  const start = at.i;
  let i = start;
  while (i < text.length) {
    const d = text.charCodeAt(i);
    if (d === 10 || d === 32 || d === 9 || d === 12 || d === 34 || d === 60 || d === 91) break;
    i++;
  }
  if (i === text.length && !at.final) return false;
  const value = text.slice(start, i);
  if (NUMBER.test(value)) tokens.push({ kind: 'number', text: value, line: at.line, column: start - at.lineStart + 1 });
  at.i = i;
  return true;
}

import { FormatParseError } from '../errors.js';
import { tokenizeTextGrid, type TextGridToken } from './tokenizer.js';

/** A TextGrid as written: times stay decimal strings until the import picks a rate for them. */
export interface TextGridDocument {
  readonly xmin: string;
  readonly xmax: string;
  readonly tiers: TextGridTier[];
}

export interface TextGridTier {
  readonly kind: 'IntervalTier' | 'TextTier';
  readonly name: string;
  readonly xmin: string;
  readonly xmax: string;
  /** Intervals have start < end (or equal); points have start === end. */
  readonly items: Array<{ start: string; end: string; text: string; line: number }>;
}

/** Parses the text of a TextGrid (long or short format). */
export function parseTextGrid(source: string, file: string): TextGridDocument {
  const tokens = tokenizeTextGrid(source, file);
  let at = 0;
  let xmin = '';
  let xmax = '';
  const tiers: TextGridTier[] = [];
  for (const event of textGridEvents({ next: () => tokens[at++] }, file)) {
    if (event.kind === 'grid') {
      xmin = event.xmin;
      xmax = event.xmax;
    } else if (event.kind === 'tier') tiers.push({ ...event.tier, items: [] });
    else tiers[tiers.length - 1].items.push(event.item);
  }
  return { xmin, xmax, tiers };
}

/** Tokens one at a time: from an array, or from a file read in chunks (stream-reader.ts). */
export interface TextGridTokenSource {
  /** The next token, or undefined at the end of the file. */
  next(): TextGridToken | undefined;
}

/** What a TextGrid says, in file order: its bounds, then each tier's header followed by its items. */
export type TextGridEvent =
  | { readonly kind: 'grid'; readonly xmin: string; readonly xmax: string }
  /** `line`: where the tier's name is written. */
  | { readonly kind: 'tier'; readonly tier: Omit<TextGridTier, 'items'>; readonly size: number; readonly line: number }
  | { readonly kind: 'item'; readonly item: TextGridTier['items'][number] };

/** The parser, as a stream of events over a stream of tokens, so that a file of any size is read without being held. */
export function* textGridEvents(tokens: TextGridTokenSource, file: string): Generator<TextGridEvent> {
  const reader = new TokenReader(tokens, file);
  reader.fileHeader();
  yield { kind: 'grid', xmin: reader.time('the TextGrid xmin (a number)').text, xmax: reader.time('the TextGrid xmax (a number)').text };
  let tierCount = 0;
  const exists = reader.take('flag', 'the tiers flag <exists> or <absent>');
  if (exists.text === 'exists') {
    const size = count(reader.take('number', 'the number of tiers'), file);
    for (let t = 0; t < size; t++) {
      const { tier, size: entries, line } = reader.tierHeader(t);
      yield { kind: 'tier', tier, size: entries, line };
      for (let k = 0; k < entries; k++) yield { kind: 'item', item: tier.kind === 'IntervalTier' ? reader.interval(k, t) : reader.point(k, t) };
      tierCount++;
    }
  } else if (exists.text !== 'absent') {
    throw new FormatParseError(file, reader.where(exists), `expected <exists> or <absent>, found <${exists.text}>`);
  }
  reader.end(tierCount);
}

type Item = TextGridTier['items'][number];

/** Tokens taken one at a time, each checked to be what the format says comes next. */
class TokenReader {
  private current: TextGridToken | undefined;
  private last: TextGridToken | undefined;

  constructor(
    private readonly tokens: TextGridTokenSource,
    private readonly file: string,
  ) {
    this.current = tokens.next();
  }

  /** Where a token is; at the end of the file, errors point at its last token. */
  where(token: TextGridToken | undefined): { line: number; column: number } {
    if (token) return { line: token.line, column: token.column };
    return { line: this.last ? this.last.line : 1, column: this.last ? this.last.column : 1 };
  }

  take(kind: TextGridToken['kind'], what: string): TextGridToken {
    const token = this.current;
    if (!token || token.kind !== kind) {
      const found = token ? `${token.kind} ${JSON.stringify(token.text)}` : 'the end of the file';
      throw new FormatParseError(this.file, this.where(token), `expected ${what}, found ${found}`);
    }
    this.last = token;
    this.current = this.tokens.next();
    return token;
  }

  time(what: string): TextGridToken {
    return checkedTime(this.take('number', what), what, this.file);
  }

  /** `"ooTextFile"` then `"TextGrid"`. */
  fileHeader(): void {
    const fileType = this.take('string', 'the file type "ooTextFile"');
    if (!fileType.text.startsWith('ooTextFile')) {
      throw new FormatParseError(this.file, this.where(fileType), `expected the file type "ooTextFile" (Praat's text formats; save binary TextGrids as text first), found ${JSON.stringify(fileType.text)}`);
    }
    const objectClass = this.take('string', 'the object class "TextGrid"');
    if (objectClass.text !== 'TextGrid') throw new FormatParseError(this.file, this.where(objectClass), `expected the object class "TextGrid", found ${JSON.stringify(objectClass.text)}`);
  }

  /** A tier's class, name, bounds and number of items. */
  tierHeader(t: number): { tier: Omit<TextGridTier, 'items'>; size: number; line: number } {
    const classToken = this.take('string', `the class of tier ${t + 1} ("IntervalTier" or "TextTier")`);
    if (classToken.text !== 'IntervalTier' && classToken.text !== 'TextTier') {
      throw new FormatParseError(this.file, this.where(classToken), `expected the class "IntervalTier" or "TextTier" for tier ${t + 1}, found ${JSON.stringify(classToken.text)}`);
    }
    const kind = classToken.text;
    const nameToken = this.take('string', `the name of tier ${t + 1}`);
    const name = nameToken.text;
    const xmin = this.time(`the xmin of tier ${t + 1}`).text;
    const xmax = this.time(`the xmax of tier ${t + 1}`).text;
    const size = count(this.take('number', `the number of ${kind === 'IntervalTier' ? 'intervals' : 'points'} in tier ${t + 1}`), this.file);
    return { tier: { kind, name, xmin, xmax }, size, line: nameToken.line };
  }

  interval(k: number, t: number): Item {
    const startToken = this.time(`the xmin of interval ${k + 1} of tier ${t + 1}`);
    const end = this.time(`the xmax of interval ${k + 1} of tier ${t + 1}`).text;
    const label = this.take('string', `the text of interval ${k + 1} of tier ${t + 1}`).text;
    if (Number(end) < Number(startToken.text)) {
      throw new FormatParseError(this.file, this.where(startToken), `expected interval ${k + 1} of tier ${t + 1} to end (${end}) at or after its start (${startToken.text})`);
    }
    return { start: startToken.text, end, text: label, line: startToken.line };
  }

  point(k: number, t: number): Item {
    const timeToken = this.time(`the time of point ${k + 1} of tier ${t + 1}`);
    const mark = this.take('string', `the mark of point ${k + 1} of tier ${t + 1}`).text;
    return { start: timeToken.text, end: timeToken.text, text: mark, line: timeToken.line };
  }

  /** Nothing may follow the last tier. */
  end(tierCount: number): void {
    const token = this.current;
    if (token !== undefined) throw new FormatParseError(this.file, this.where(token), `expected the end of the TextGrid after ${tierCount} tiers, found ${token.kind} ${JSON.stringify(token.text)}`);
  }
}

function count(token: TextGridToken, file: string): number {
  const value = Number(token.text);
  if (!Number.isSafeInteger(value) || value < 0) throw new FormatParseError(file, { line: token.line, column: token.column }, `expected a count (a whole number >= 0), found ${token.text}`);
  return value;
}

/** Times beyond this many seconds (about 31,700 years) are refused as damage, not media. */
export const MAX_TEXTGRID_SECONDS = 1e12;

/** A time token that is a usable time: finite, not negative (-0 is 0), within MAX_TEXTGRID_SECONDS. */
function checkedTime(token: TextGridToken, what: string, file: string): TextGridToken {
  const value = Number(token.text);
  if (!Number.isFinite(value) || Math.abs(value) > MAX_TEXTGRID_SECONDS) {
    throw new FormatParseError(file, { line: token.line, column: token.column }, `expected ${what} in seconds, at most ${MAX_TEXTGRID_SECONDS}; found ${token.text.length > 40 ? token.text.slice(0, 40) + '...' : token.text}`);
  }
  if (value < 0) throw new FormatParseError(file, { line: token.line, column: token.column }, `expected ${what} in seconds, not negative; found ${token.text} (annot places annotations at times >= 0)`);
  return token;
}

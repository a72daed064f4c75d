import { FormatParseError } from '../errors.js';
import { textGridTokens, type TextGridToken } from './tokenizer.js';

/** An interval or a point as written: times stay decimal strings until the import picks a rate for them. */
export interface TextGridItem {
  readonly start: string;
  readonly end: string;
  readonly text: string;
  readonly line: number;
}

/** A tier as its header gives it; its items (intervals: start <= end; points: start === end) come as events of their own. */
export interface TextGridTierHead {
  readonly kind: 'IntervalTier' | 'TextTier';
  readonly name: string;
  readonly xmin: string;
  readonly xmax: string;
}

/** What a TextGrid holds, in file order: the grid's bounds, then each tier's head and its items. */
export type TextGridEvent = { grid: { xmin: string; xmax: string } } | { tier: TextGridTierHead } | { item: TextGridItem };

/**
 * Reads a TextGrid (long or short format) as a stream of events, checking it as it goes: a
 * malformed file throws a FormatParseError at the token it could not accept. Nothing is kept, so
 * a reader can go over a file of a million intervals twice (once to check it and pick a rate,
 * once to make annotations) holding only the text.
 */
export function* readTextGrid(source: string, file: string): Generator<TextGridEvent> {
  const next = textGridTokens(source, file);
  let current = next();
  // The last token taken: at the end of the file, errors point at it.
  let last: TextGridToken | null = null;
  const where = (token: TextGridToken | null): { line: number; column: number } =>
    token ? { line: token.line, column: token.column } : { line: last ? last.line : 1, column: last ? last.column : 1 };
  const take = (kind: TextGridToken['kind'], what: string): TextGridToken => {
    const token = current;
    if (!token || token.kind !== kind) {
      const found = token ? `${token.kind} ${JSON.stringify(token.text)}` : 'the end of the file';
      throw new FormatParseError(file, where(token), `expected ${what}, found ${found}`);
    }
    last = token;
    current = next();
    return token;
  };

  const fileType = take('string', 'the file type "ooTextFile"');
  if (!fileType.text.startsWith('ooTextFile')) {
    throw new FormatParseError(file, where(fileType), `expected the file type "ooTextFile" (Praat's text formats; save binary TextGrids as text first), found ${JSON.stringify(fileType.text)}`);
  }
  const objectClass = take('string', 'the object class "TextGrid"');
  if (objectClass.text !== 'TextGrid') throw new FormatParseError(file, where(objectClass), `expected the object class "TextGrid", found ${JSON.stringify(objectClass.text)}`);
  const time = (what: string): TextGridToken => checkedTime(take('number', what), what, file);
  const xmin = time('the TextGrid xmin (a number)').text;
  const xmax = time('the TextGrid xmax (a number)').text;
  yield { grid: { xmin, xmax } };
  let tierCount = 0;
  const exists = take('flag', 'the tiers flag <exists> or <absent>');
  if (exists.text === 'exists') {
    const size = count(take('number', 'the number of tiers'), file);
    for (let t = 0; t < size; t++) {
      const classToken = take('string', `the class of tier ${t + 1} ("IntervalTier" or "TextTier")`);
      if (classToken.text !== 'IntervalTier' && classToken.text !== 'TextTier') {
        throw new FormatParseError(file, where(classToken), `expected the class "IntervalTier" or "TextTier" for tier ${t + 1}, found ${JSON.stringify(classToken.text)}`);
      }
      const name = take('string', `the name of tier ${t + 1}`).text;
      const tierMin = time(`the xmin of tier ${t + 1}`).text;
      const tierMax = time(`the xmax of tier ${t + 1}`).text;
      const entries = count(take('number', `the number of ${classToken.text === 'IntervalTier' ? 'intervals' : 'points'} in tier ${t + 1}`), file);
      yield { tier: { kind: classToken.text, name, xmin: tierMin, xmax: tierMax } };
      tierCount++;
      for (let k = 0; k < entries; k++) {
        if (classToken.text === 'IntervalTier') {
          const startToken = time(`the xmin of interval ${k + 1} of tier ${t + 1}`);
          const end = time(`the xmax of interval ${k + 1} of tier ${t + 1}`).text;
          const label = take('string', `the text of interval ${k + 1} of tier ${t + 1}`).text;
          if (Number(end) < Number(startToken.text)) {
            throw new FormatParseError(file, where(startToken), `expected interval ${k + 1} of tier ${t + 1} to end (${end}) at or after its start (${startToken.text})`);
          }
          yield { item: { start: startToken.text, end, text: label, line: startToken.line } };
        } else {
          const timeToken = time(`the time of point ${k + 1} of tier ${t + 1}`);
          const mark = take('string', `the mark of point ${k + 1} of tier ${t + 1}`).text;
          yield { item: { start: timeToken.text, end: timeToken.text, text: mark, line: timeToken.line } };
        }
      }
    }
  } else if (exists.text !== 'absent') {
    throw new FormatParseError(file, where(exists), `expected <exists> or <absent>, found <${exists.text}>`);
  }
  if (current) {
    throw new FormatParseError(file, where(current), `expected the end of the TextGrid after ${tierCount} tiers, found ${current.kind} ${JSON.stringify(current.text)}`);
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

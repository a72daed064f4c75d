import { FormatParseError } from './errors.js';

/**
 * JSON text as the JSON formats (JAMS, Label Studio, Web Annotation) read and write it.
 *
 * Python's json module writes bare `NaN`, `Infinity` and `-Infinity`, and real JAMS files carry
 * them. JSON.parse refuses them and our bodies cannot hold non-finite numbers, so a tolerant parse
 * turns each such token (outside strings) into a marker string that the adapter moves out of the
 * value and records by JSON pointer; the writer turns markers back into bare tokens. Syntax errors
 * become a FormatParseError with the line and column, which JSON.parse does not always give.
 */

export type NonFiniteToken = 'NaN' | 'Infinity' | '-Infinity';

const MARK = '\u0000annot:non-finite:';
const MARK_IN_JSON = /"\\u0000annot:non-finite:(NaN|Infinity|-Infinity)"/g;

/** The marker that stands for a non-finite token inside a parsed value. */
export function nonFiniteMark(token: NonFiniteToken): string {
  return MARK + token;
}

/** The token a value stands for, when it is a marker. */
export function nonFiniteToken(value: unknown): NonFiniteToken | null {
  if (typeof value !== 'string' || !value.startsWith(MARK)) return null;
  const token = value.slice(MARK.length);
  return token === 'NaN' || token === 'Infinity' || token === '-Infinity' ? token : null;
}

/**
 * Parses JSON text; with `nonFinite`, bare NaN/Infinity/-Infinity are accepted and become markers.
 * Malformed text is a FormatParseError naming the file, line and column and what was expected.
 */
export function parseJsonText(text: string, file: string, { nonFinite = false }: { nonFinite?: boolean } = {}): unknown {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const prepared = nonFinite && /NaN|Infinity/.test(source) ? markNonFinite(source) : source;
  try {
    return JSON.parse(prepared);
  } catch {
    const { position, expected } = findSyntaxError(source, nonFinite);
    const { line, column } = lineAndColumn(source, position);
    throw new FormatParseError(file, { line, column }, `${expected}; the file is not valid JSON`);
  }
}

/** JSON text of a value, with markers written back as bare tokens (as Python writes them). */
export function stringifyWithNonFinite(value: unknown, indent?: number): string {
  const text = JSON.stringify(value, null, indent);
  return text.includes('\\u0000annot:') ? text.replace(MARK_IN_JSON, '$1') : text;
}

/**
 * Moves markers out of a parsed value: each becomes null in the returned copy and is recorded in
 * `found` under its JSON pointer (RFC 6901) below `pointer`.
 */
export function extractNonFinite(value: unknown, pointer: string, found: Record<string, NonFiniteToken>): unknown {
  const token = nonFiniteToken(value);
  if (token !== null) {
    found[pointer] = token;
    return null;
  }
  if (Array.isArray(value)) return value.map((item, index) => extractNonFinite(item, `${pointer}/${index}`, found));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // defineProperty: a plain assignment of "__proto__" would set the prototype, not a key.
      Object.defineProperty(out, key, { value: extractNonFinite(item, `${pointer}/${escapePointer(key)}`, found), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

/** The inverse of extractNonFinite: puts markers back at the recorded pointers below `pointer`. */
export function restoreNonFinite(value: unknown, pointer: string, recorded: Readonly<Record<string, string>> | undefined): unknown {
  if (!recorded) return value;
  let result = value;
  for (const [at, token] of Object.entries(recorded)) {
    if (!at.startsWith(pointer)) continue;
    if (token !== 'NaN' && token !== 'Infinity' && token !== '-Infinity') continue;
    const rest = at.slice(pointer.length);
    if (rest === '') {
      result = nonFiniteMark(token);
      continue;
    }
    if (!rest.startsWith('/')) continue;
    result = setAt(result, rest.slice(1).split('/').map(unescapePointer), nonFiniteMark(token));
  }
  return result;
}

export function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapePointer(key: string): string {
  return key.replace(/~1/g, '/').replace(/~0/g, '~');
}

function setAt(value: unknown, keys: string[], replacement: unknown): unknown {
  if (keys.length === 0) return replacement;
  const [key, ...rest] = keys;
  if (Array.isArray(value)) {
    const index = Number(key);
    if (!Number.isInteger(index) || index < 0 || index >= value.length) return value;
    const copy = value.slice();
    copy[index] = setAt(copy[index], rest, replacement);
    return copy;
  }
  if (typeof value === 'object' && value !== null && Object.hasOwn(value, key)) {
    return { ...value, [key]: setAt((value as Record<string, unknown>)[key], rest, replacement) };
  }
  return value;
}

/** Replaces bare non-finite tokens outside strings by marker strings. */
function markNonFinite(text: string): string {
  let out = '';
  let copied = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) {
      inString = true;
      continue;
    }
    const token = text.startsWith('NaN', i) ? 'NaN' : text.startsWith('-Infinity', i) ? '-Infinity' : text.startsWith('Infinity', i) ? 'Infinity' : null;
    if (token !== null) {
      out += text.slice(copied, i) + JSON.stringify(nonFiniteMark(token));
      i += token.length - 1;
      copied = i + 1;
    }
  }
  return out + text.slice(copied);
}

function lineAndColumn(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < position && i < text.length; i++) {
    if (text.charCodeAt(i) === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: position - lineStart + 1 };
}

/**
 * Where JSON text first goes wrong and what was expected there: a small recursive-descent
 * checker run only after JSON.parse failed (V8's messages do not always carry a position).
 */
function findSyntaxError(text: string, nonFinite: boolean): { position: number; expected: string } {
  let i = 0;
  const fail = (expected: string): never => {
    throw Object.assign(new Error(expected), { position: i, expected });
  };
  const space = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const literal = (word: string): void => {
    if (!text.startsWith(word, i)) fail(`expected a JSON value`);
    i += word.length;
  };
  const string = (): void => {
    i++;
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        const next = text[i + 1];
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('expected four hex digits after \\u');
          i += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2;
        else fail('expected a valid escape (\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX)');
      } else if (c.charCodeAt(0) < 0x20) fail('expected a closing quote before the end of the line (control characters must be escaped)');
      else i++;
    }
    fail('expected a closing quote');
  };
  const number = (): void => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!match) fail('expected a number');
    i += match![0].length;
  };
  const value = (depth: number): void => {
    space();
    if (depth > 10000) fail('expected less deeply nested JSON');
    const c = text[i];
    if (c === '{') {
      i++;
      space();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        space();
        if (text[i] !== '"') fail('expected a property name in double quotes');
        string();
        space();
        if (text[i] !== ':') fail('expected ":" after the property name');
        i++;
        value(depth + 1);
        space();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail('expected "," or "}" after a property value');
      }
    }
    if (c === '[') {
      i++;
      space();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        space();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail('expected "," or "]" after an array item');
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (nonFinite && text.startsWith('NaN', i)) return literal('NaN');
    if (nonFinite && text.startsWith('Infinity', i)) return literal('Infinity');
    if (nonFinite && text.startsWith('-Infinity', i)) return literal('-Infinity');
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    if (c === undefined) fail('expected a JSON value before the end of the file');
    fail('expected a JSON value');
  };
  try {
    value(0);
    space();
    if (i < text.length) fail('expected the end of the file after the JSON value');
  } catch (error) {
    const found = error as { position?: number; expected?: string };
    if (typeof found.position === 'number' && found.expected) return { position: found.position, expected: found.expected };
    return { position: i, expected: 'expected valid JSON' };
  }
  return { position: 0, expected: 'expected valid JSON' };
}

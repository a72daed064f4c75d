import { FormatParseError, InputTooDeepError } from './errors.js';

/**
 * JSON text as the JSON formats (JAMS, Label Studio, Web Annotation, OTIO) read and write it.
 *
 * Python's json module writes bare `NaN`, `Infinity` and `-Infinity`, and real JAMS files carry
 * them. JSON.parse refuses them and our bodies cannot hold non-finite numbers, so a tolerant parse
 * turns each such token (outside strings) into a marker string that the adapter moves out of the
 * value and records by JSON pointer; the writer turns markers back into bare tokens. Syntax errors
 * become a FormatParseError with the line and column, which JSON.parse does not always give, and
 * nesting is bounded (JSON.parse and a naive recursive parser overflow the stack on deep input).
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

/** How deep arrays and objects may nest: far beyond any real file, far below what a stack holds. */
export const MAX_JSON_DEPTH = 512;

/** What a reader wants for the number tokens JSON itself does not have. */
export type SpecialNumbers =
  /** NaN, Infinity, 1e400...: an error naming the position (Label Studio, Web Annotation). */
  | 'refuse'
  /** Bare NaN/Infinity/-Infinity become markers (see nonFiniteMark); 1e400 is an error (JAMS). */
  | 'marker'
  /** NaN, Inf, Infinity, out-of-range and beyond-64-bit integers are kept as `{"$otio_number": literal}` (OTIO). */
  | 'otio';

/** The key OTIO number literals are kept under (see SpecialNumbers `otio`). */
export const OTIO_NUMBER_MARKER = '$otio_number';

/**
 * Parses JSON text; with `nonFinite`, bare NaN/Infinity/-Infinity are accepted and become markers.
 * Malformed text is a FormatParseError naming the file, line and column and what was expected.
 */
export function parseJsonText(text: string, file: string, { nonFinite = false }: { nonFinite?: boolean } = {}): unknown {
  return parseJson(text, file, nonFinite ? 'marker' : 'refuse');
}

/**
 * The one JSON parser of the JSON formats (JAMS, Label Studio, Web Annotation, OTIO). It is a
 * single pass that never recurses deeper than MAX_JSON_DEPTH (deeper input is an
 * InputTooDeepError naming the file, the depth and the position, not a stack overflow), names the
 * line and column of any token it cannot accept, refuses lone surrogates in `\u` escapes, and
 * treats the numbers JSON has no room for as `special` says. A leading byte-order mark is skipped.
 */
export function parseJson(text: string, file: string, special: SpecialNumbers = 'refuse', maxDepth = MAX_JSON_DEPTH, lazy?: LazyArrayTest): unknown {
  const parser = new JsonParser(text, file, special, maxDepth, lazy ?? null, []);
  parser.seek(text.charCodeAt(0) === 0xfeff ? 1 : 0);
  const root = parser.value(0);
  parser.end();
  return root;
}

/**
 * Says, by the path of keys and indexes from the root, which arrays a reader wants as a
 * LazyJsonArray: checked whole (same errors, same positions) but kept as text, its items parsed
 * one at a time when iterated, so a million-item array never sits in memory as a tree.
 */
export type LazyArrayTest = (path: readonly (string | number)[]) => boolean;

/**
 * An array of the text kept unparsed (see LazyArrayTest). Its text was checked when the document
 * was parsed, so iterating it parses each item afresh, in order, and cannot fail.
 */
export class LazyJsonArray {
  constructor(
    readonly length: number,
    private readonly parseItems: () => Generator<unknown>,
  ) {}

  [Symbol.iterator](): Generator<unknown> {
    return this.parseItems();
  }
}

/** The parser's state over one text: `value` parses the value at the position and moves past it. */
class JsonParser {
  private at = 0;

  constructor(
    private readonly text: string,
    private readonly file: string,
    private readonly special: SpecialNumbers,
    private readonly maxDepth: number,
    private readonly lazy: LazyArrayTest | null,
    private readonly path: Array<string | number>,
  ) {}

  position(): number {
    return this.at;
  }

  seek(to: number): void {
    this.at = to;
  }

  end(): void {
    this.skip();
    if (this.at < this.text.length) this.fail('the end of the file after the JSON value');
  }

  fail(expected: string, at = this.at, syntax = true): never {
    throw new FormatParseError(this.file, lineAndColumn(this.text, at), `expected ${expected}${syntax ? '; the file is not valid JSON' : ''}`);
  }

  skip(): void {
    const { text } = this;
    for (;;) {
      const code = text.charCodeAt(this.at);
      if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) this.at++;
      else break;
    }
  }

  // With `keep` false the value is checked but not built (a lazy array's first pass): the same
  // errors at the same positions, without allocating a tree that would be dropped at once.
  value(depth: number, keep = true): unknown {
    this.skip();
    const code = this.text.charCodeAt(this.at);
    if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
      if (depth >= this.maxDepth) throw new InputTooDeepError(this.file, lineAndColumn(this.text, this.at), depth + 1, this.maxDepth, 'JSON arrays and objects');
      this.at++;
      this.skip();
      if (code === 0x7b) return this.object(depth, keep);
      return this.lazy !== null && this.lazy(this.path) ? this.lazyArray(depth) : this.array(depth, keep);
    }
    if (code === 0x22) return this.string();
    return this.literal();
  }

  private array(depth: number, keep: boolean): unknown[] {
    const { text, lazy, path } = this;
    const array: unknown[] = [];
    if (text.charCodeAt(this.at) === 0x5d) {
      this.at++;
      return array;
    }
    for (let index = 0; ; index++) {
      if (lazy !== null) path.push(index);
      const item = this.value(depth + 1, keep);
      if (keep) array.push(item);
      if (lazy !== null) path.pop();
      this.skip();
      const next = text.charCodeAt(this.at);
      this.at++;
      if (next === 0x2c) continue;
      if (next === 0x5d) return array;
      return this.fail('"," or "]" after an array item', this.at - 1);
    }
  }

  private object(depth: number, keep: boolean): Record<string, unknown> {
    const { text, lazy, path } = this;
    const object: Record<string, unknown> = {};
    if (text.charCodeAt(this.at) === 0x7d) {
      this.at++;
      return object;
    }
    for (;;) {
      this.skip();
      if (text.charCodeAt(this.at) !== 0x22) this.fail('a property name in double quotes');
      const key = this.string();
      this.skip();
      if (text.charCodeAt(this.at) !== 0x3a) this.fail(`":" after the property name "${key.length > 40 ? key.slice(0, 40) + '...' : key}"`);
      this.at++;
      if (lazy !== null) path.push(key);
      const item = this.value(depth + 1, keep);
      if (lazy !== null) path.pop();
      // defineProperty: a plain assignment of "__proto__" would set the prototype, not a key.
      if (keep && key === '__proto__') Object.defineProperty(object, key, { value: item, enumerable: true, writable: true, configurable: true });
      else if (keep) object[key] = item;
      this.skip();
      const next = text.charCodeAt(this.at);
      this.at++;
      if (next === 0x2c) continue;
      if (next === 0x7d) return object;
      return this.fail('"," or "}" after a property value', this.at - 1);
    }
  }

  /** true, false, null or a number (and the special numbers the caller allows). */
  private literal(): unknown {
    const { text, special } = this;
    if (text.startsWith('true', this.at)) {
      this.at += 4;
      return true;
    }
    if (text.startsWith('false', this.at)) {
      this.at += 5;
      return false;
    }
    if (text.startsWith('null', this.at)) {
      this.at += 4;
      return null;
    }
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(text);
    if (!match) return this.fail(this.at >= text.length ? 'a JSON value before the end of the file' : 'a JSON value');
    const start = this.at;
    this.at = NUMBER.lastIndex;
    const literal = match[0];
    if (match[1] !== undefined) {
      if (special === 'otio' || (special === 'marker' && literal !== '-Inf' && literal !== 'Inf')) return this.specialNumber(literal, start);
      return this.fail(`a finite number; ${literal} is not a JSON number`, start, false);
    }
    const number = Number(literal);
    if (!Number.isFinite(number)) return this.specialNumber(literal, start);
    if (special === 'otio' && !Number.isSafeInteger(number) && /^-?\d+$/.test(literal)) return this.specialNumber(literal, start);
    return number;
  }

  private specialNumber(literal: string, at: number): unknown {
    if (this.special === 'otio') return { [OTIO_NUMBER_MARKER]: literal };
    if (this.special === 'marker' && (literal === 'NaN' || literal === 'Infinity' || literal === '-Infinity')) return nonFiniteMark(literal);
    if (/^-?(?:NaN|Inf)/.test(literal)) return this.fail(`a finite number; ${literal} is not a JSON number`, at, false);
    return this.fail(`a number a 64-bit float can hold; ${literal.length > 40 ? literal.slice(0, 40) + '...' : literal} is out of range`, at, false);
  }

  // A loop, not one regular expression: a backtracking regex over a 50 MB string overflows V8's stack.
  private string(): string {
    const { text } = this;
    const start = this.at;
    let escaped = false;
    let i = this.at + 1;
    for (;;) {
      const code = text.charCodeAt(i);
      if (code === 0x22) break;
      if (code === 0x5c) {
        escaped = true;
        i += 2;
      } else if (code < 0x20 || Number.isNaN(code)) return this.fail(stringProblem(text, start), Number.isNaN(code) ? text.length : i);
      else i++;
    }
    this.at = i + 1;
    if (!escaped) return text.slice(start + 1, i);
    let decoded: string;
    try {
      decoded = JSON.parse(text.slice(start, this.at)) as string;
    } catch {
      return this.fail(stringProblem(text, start), start);
    }
    if (LONE_SURROGATE.test(decoded)) this.fail('a string without lone surrogates (a \\uD800-\\uDFFF escape must be one half of a pair)', start, false);
    return decoded;
  }

  // Checks the array's items as the plain parse does (each parsed and dropped), then hands back
  // a LazyJsonArray that parses them again, from where the first item starts, when iterated.
  private lazyArray(depth: number): LazyJsonArray {
    const { text, file, special, maxDepth, lazy, path } = this;
    const start = this.at;
    let length = 0;
    if (text.charCodeAt(this.at) === 0x5d) this.at++;
    else {
      for (;;) {
        path.push(length);
        this.value(depth + 1, false);
        path.pop();
        length++;
        this.skip();
        const next = text.charCodeAt(this.at);
        this.at++;
        if (next === 0x2c) continue;
        if (next === 0x5d) break;
        return this.fail('"," or "]" after an array item', this.at - 1);
      }
    }
    const base = path.slice();
    return new LazyJsonArray(length, function* items() {
      const at = base.slice();
      const again = new JsonParser(text, file, special, maxDepth, lazy, at);
      again.seek(start);
      for (let index = 0; index < length; index++) {
        at.push(index);
        yield again.value(depth + 1);
        at.pop();
        again.skip();
        again.seek(again.position() + 1);
      }
    });
  }
}

const NUMBER = /-?(?:(Infinity|Inf|NaN)|(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/y;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with the string that starts at `start` (called only when it did not match). */
function stringProblem(text: string, start: number): string {
  for (let i = start + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) break;
    if (code === 0x5c) {
      const next = text[i + 1];
      if (next === 'u' && !/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return `four hex digits after \\u (string from column ${lineAndColumn(text, start).column})`;
      if (next === undefined || !'"\\/bfnrtu'.includes(next)) return 'a valid escape (\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX)';
      i++;
    } else if (code < 0x20) return 'a closing quote before the end of the line (control characters in strings must be escaped)';
  }
  return 'a closing quote for the string';
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

export function lineAndColumn(text: string, position: number): { line: number; column: number } {
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

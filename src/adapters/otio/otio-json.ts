import { FormatParseError } from '../errors.js';

/**
 * OTIO's JSON is JSON plus what its C++ writer emits: `Inf`, `-Infinity`, `NaN` and integers
 * beyond 64 bits in metadata. Such numbers cannot live in an annotation body (JSON values only),
 * so they are kept as `{"$otio_number": "<literal as written>"}` and written back as the literal.
 */
export const NUMBER_MARKER = '$otio_number';

export type OtioValue = null | boolean | number | string | OtioValue[] | { [key: string]: OtioValue };
export type OtioObject = { [key: string]: OtioValue };

/** Parses OTIO JSON; malformed text is a FormatParseError with line and column. */
export function parseOtioJson(text: string, file: string): OtioValue {
  let position = 0;
  const fail = (expected: string, at = position): never => {
    let line = 1;
    let lineStart = 0;
    for (let index = text.indexOf('\n'); index !== -1 && index < at; index = text.indexOf('\n', index + 1)) {
      line++;
      lineStart = index + 1;
    }
    throw new FormatParseError(file, { line, column: at - lineStart + 1 }, expected);
  };
  const skip = (): void => {
    for (;;) {
      const code = text.charCodeAt(position);
      if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) position++;
      else break;
    }
  };
  const NUMBER = /-?(?:Infinity|Inf|NaN|(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/y;
  // eslint-disable-next-line no-control-regex -- JSON forbids raw control characters inside strings
  const STRING = /"((?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*)"/y;

  const value = (): OtioValue => {
    skip();
    const char = text[position];
    if (char === '{') {
      position++;
      const object: OtioObject = {};
      skip();
      if (text[position] === '}') {
        position++;
        return object;
      }
      for (;;) {
        skip();
        if (text[position] !== '"') fail('a quoted key in the object');
        const key = string();
        skip();
        if (text[position] !== ':') fail(`":" after the key "${key}"`);
        position++;
        Object.defineProperty(object, key, { value: value(), enumerable: true, writable: true, configurable: true });
        skip();
        if (text[position] === ',') {
          position++;
          continue;
        }
        if (text[position] === '}') {
          position++;
          return object;
        }
        fail('"," or "}" in the object');
      }
    }
    if (char === '[') {
      position++;
      const array: OtioValue[] = [];
      skip();
      if (text[position] === ']') {
        position++;
        return array;
      }
      for (;;) {
        array.push(value());
        skip();
        if (text[position] === ',') {
          position++;
          continue;
        }
        if (text[position] === ']') {
          position++;
          return array;
        }
        fail('"," or "]" in the array');
      }
    }
    if (char === '"') return string();
    if (text.startsWith('true', position)) {
      position += 4;
      return true;
    }
    if (text.startsWith('false', position)) {
      position += 5;
      return false;
    }
    if (text.startsWith('null', position)) {
      position += 4;
      return null;
    }
    NUMBER.lastIndex = position;
    const match = NUMBER.exec(text);
    if (!match) return fail(position >= text.length ? 'a value before the end of the file' : 'a JSON value (object, array, string, number, true, false or null)');
    position = NUMBER.lastIndex;
    const literal = match[0];
    const number = Number(literal.replace(/Inf$/, 'Infinity'));
    if (!Number.isFinite(number) || (/^-?\d+$/.test(literal) && !Number.isSafeInteger(number))) return { [NUMBER_MARKER]: literal };
    return number;
  };
  const string = (): string => {
    STRING.lastIndex = position;
    const match = STRING.exec(text);
    if (!match) return fail('a complete string with valid escapes');
    position = STRING.lastIndex;
    return match[1].indexOf('\\') === -1 ? match[1] : (JSON.parse(match[0]) as string);
  };

  const root = value();
  skip();
  if (position < text.length) fail('the end of the file after the top-level value');
  return root;
}

/** OTIO JSON text, four-space indented as OTIO writes it, with kept number literals restored. */
export function stringifyOtio(value: unknown): string {
  const placeholder = '\u0000otio-number:';
  const json = JSON.stringify(
    value,
    (_key, item: unknown) => {
      if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
        const keys = Object.keys(item);
        if (keys.length === 1 && keys[0] === NUMBER_MARKER && typeof (item as Record<string, unknown>)[NUMBER_MARKER] === 'string') {
          return placeholder + String((item as Record<string, unknown>)[NUMBER_MARKER]);
        }
      }
      return item;
    },
    4,
  );
  return json.replace(/"\\u0000otio-number:([^"]*)"/g, '$1');
}

export function isObject(value: OtioValue | undefined): value is OtioObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schema name without its version: `Clip` for `Clip.2`. */
export function schemaName(value: OtioValue | undefined): string | null {
  if (!isObject(value) || typeof value.OTIO_SCHEMA !== 'string') return null;
  return value.OTIO_SCHEMA.replace(/\.\d+$/, '');
}

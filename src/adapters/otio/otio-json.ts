import { OTIO_NUMBER_MARKER, parseJson } from '../json-text.js';

/**
 * OTIO's JSON is JSON plus what its C++ writer emits: `Inf`, `-Infinity`, `NaN` and integers
 * beyond 64 bits in metadata. Such numbers cannot live in an annotation body (JSON values only),
 * so they are kept as `{"$otio_number": "<literal as written>"}` and written back as the literal.
 * Parsing is the shared JSON parser's (depth-bounded, positions in errors) in its `otio` mode.
 */
export const NUMBER_MARKER = OTIO_NUMBER_MARKER;

export type OtioValue = null | boolean | number | string | OtioValue[] | { [key: string]: OtioValue };
export type OtioObject = { [key: string]: OtioValue };

/** Parses OTIO JSON; malformed text is a FormatParseError with line and column. */
export function parseOtioJson(text: string, file: string): OtioValue {
  return parseJson(text, file, 'otio') as OtioValue;
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

import { isPlainObject } from './json-body.js';
import { NonStringBodyKeyError, NotJsonError } from './errors.js';

/**
 * Canonical JSON per RFC 8785 (JCS): object keys sorted by their UTF-16 code units (RFC 8785
 * section 3.2.3; this differs from code-point order when a key holds a character above U+FFFF and
 * another a character in U+E000..U+FFFF), no whitespace, numbers in ECMAScript's Number
 * serialization (JSON.stringify's: shortest round-trip, -0 as 0), strings escaped as
 * JSON.stringify does.
 * Every digest in annot (ETag, value digest, body digest, render hashes) goes through this one
 * function, so two values digest alike exactly when their canonical forms are equal.
 *
 * Plain objects and `Map`s with string keys are objects; an object property whose value is
 * `undefined` is treated as absent (optional fields), anything else that is not JSON throws.
 */
export function canonicalJson(value: unknown, path = 'value'): string {
  const parts: string[] = [];
  write(value, path, parts);
  return parts.join('');
}

function write(value: unknown, path: string, out: string[]): void {
  if (value === null) {
    out.push('null');
    return;
  }
  switch (typeof value) {
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new NotJsonError(path, String(value));
      // Object.is(-0, 0) is false, but JSON has one zero: -0 prints as 0 like JSON.stringify does.
      out.push(JSON.stringify(value));
      return;
    case 'object':
      break;
    default:
      throw new NotJsonError(path, `a ${typeof value}`);
  }
  if (Array.isArray(value)) {
    out.push('[');
    // A for loop, not forEach: forEach skips the holes of a sparse array, which would print `[,1]`.
    for (let index = 0; index < value.length; index++) {
      if (index > 0) out.push(',');
      const item: unknown = value[index];
      if (item === undefined) throw new NotJsonError(`${path}[${index}]`, index in value ? 'undefined' : 'a hole in a sparse array');
      write(item, `${path}[${index}]`, out);
    }
    out.push(']');
    return;
  }
  const entries = objectEntries(value as object, path);
  entries.sort((a, b) => compareUtf16(a[0], b[0]));
  out.push('{');
  let first = true;
  for (const [key, item] of entries) {
    if (item === undefined) continue;
    if (!first) out.push(',');
    first = false;
    out.push(JSON.stringify(key), ':');
    write(item, `${path}[${JSON.stringify(key)}]`, out);
  }
  out.push('}');
}

function objectEntries(value: object, path: string): Array<[string, unknown]> {
  if (value instanceof Map) {
    const entries: Array<[string, unknown]> = [];
    for (const [key, item] of value) {
      if (typeof key !== 'string') throw new NonStringBodyKeyError(path, key);
      entries.push([key, item]);
    }
    return entries;
  }
  if (!isPlainObject(value)) {
    throw new NotJsonError(path, `an instance of ${value.constructor?.name ?? 'a class'}`);
  }
  // Object.entries skips symbol keys silently; a symbol key is a non-string key like any other.
  const symbols = Object.getOwnPropertySymbols(value);
  if (symbols.length > 0) throw new NonStringBodyKeyError(path, symbols[0]);
  return Object.entries(value);
}

/** RFC 8785's key order: by UTF-16 code unit, which is what JavaScript's `<` on strings compares. */
export function compareUtf16(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

import { isPlainObject } from './json-body.js';
import { NonStringBodyKeyError, NotJsonError } from './errors.js';

/**
 * Canonical JSON in the RFC 8785 style: object keys sorted by code point, no whitespace,
 * numbers in ECMAScript's shortest round-trip form, strings escaped as JSON.stringify does.
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
  entries.sort((a, b) => compareCodePoints(a[0], b[0]));
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

/** JS string comparison is by UTF-16 code unit; RFC 8785 wants code points (they differ above U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

import { InvalidInputError } from '../errors/annot-error.js';
import type { JsonValue } from '../json/json-body.js';
import { InvalidTierError } from './errors.js';

/**
 * How long the names and texts annot keeps may be: far past anything a person or a tool writes
 * (ELAN and Praat tier names are a few words; a transcript of an hour is a few hundred kilobytes),
 * close enough that one request cannot make a name or a text that fills a page, a log line or
 * memory. The model's constructors, the service (HTTP, MCP, processors, imports) and imports into
 * a `.annot` file or a database all hold values to these; schemas/tier.json and
 * schemas/annotation.json state the same numbers as maxLength, and so do the MCP tools' inputs.
 * Counted in UTF-16 code units, as JavaScript (and JSON Schema's maxLength, nearly) counts them.
 */
export const LIMITS = Object.freeze({
  /** A tier name (and a tier's parent), a metadata key. */
  nameChars: 256,
  /** An asset id (a file name, a URL, `sha256:…`), an agent in provenance, an id in was_derived_from. */
  idChars: 4096,
  /** An annotation body, as JSON text. */
  bodyChars: 1024 * 1024,
  /** A metadata value. */
  metaValueChars: 1024 * 1024,
});

/** `name: at most 256 characters, got 5242880` (the reason, for the error class of the caller's model). */
export function tooLong(value: string, limit: number): string | null {
  return value.length > limit ? `at most ${limit} characters, got ${value.length}` : null;
}

/**
 * The length of a JSON value as JSON text, counted until it passes `limit` (the walk stops
 * there, so a huge body costs no more than the limit to measure). JSON.stringify's length, but
 * for escapes in strings, which are not counted.
 */
export function jsonLengthPast(value: JsonValue | unknown, limit: number): boolean {
  let length = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') length += item.length + 2;
    else if (typeof item === 'number' || typeof item === 'boolean') length += String(item).length;
    else if (item === null || item === undefined) length += 4;
    else if (Array.isArray(item)) {
      length += 2 + Math.max(0, item.length - 1);
      for (const element of item) stack.push(element);
    } else {
      const entries = Object.entries(item as Record<string, unknown>);
      length += 2 + Math.max(0, entries.length - 1);
      for (const [key, element] of entries) {
        length += key.length + 3;
        stack.push(element);
      }
    }
    if (length > limit) return true;
  }
  return false;
}

/** A body's reason to be refused, or null: at most LIMITS.bodyChars of JSON. */
export function bodyTooLong(body: unknown): string | null {
  return jsonLengthPast(body, LIMITS.bodyChars) ? `at most ${LIMITS.bodyChars} characters as JSON text (1 MiB); this body is longer` : null;
}

/** Refuses a metadata entry past the limits, naming the key (cut short) and what was expected. */
export function checkMetaEntry(key: string, value: string): void {
  const keyReason = tooLong(key, LIMITS.nameChars);
  if (keyReason !== null) throw new InvalidInputError(`meta key "${key.slice(0, 40)}…": ${keyReason}`);
  const valueReason = tooLong(value, LIMITS.metaValueChars);
  if (valueReason !== null) throw new InvalidInputError(`meta value for "${key}": ${valueReason}`);
}

/** A tier name (or parent) past LIMITS.nameChars, refused as InvalidTierError at `path`. */
export function checkTierName(name: string, path: string): void {
  const reason = tooLong(name, LIMITS.nameChars);
  if (reason !== null) throw new InvalidTierError(path, `a tier name of ${reason}`);
}

import { randomUUID } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The RFC 9562 text form (any version, any case on input). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** Annotation ids are stored lower-case, so one id has one spelling (as keys, in digests, on the wire). */
export function normalizeUuid(value: string): string {
  return value.toLowerCase();
}

export function newAnnotationId(): string {
  const id = randomUUID();
  // Node builds the text by concatenation: in V8 a rope of some twenty pieces, about 490 bytes.
  // Reading a character flattens it in place to one 36-character string (about 60 bytes), which
  // matters to a reader that holds the ids of a million annotations.
  id.charCodeAt(0);
  return id;
}

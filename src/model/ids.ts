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
  return randomUUID();
}

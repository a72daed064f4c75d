import { randomFillSync } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The RFC 9562 text form (any version, any case on input). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** Annotation ids are stored lower-case, so one id has one spelling (as keys, in digests, on the wire). */
export function normalizeUuid(value: string): string {
  return value.toLowerCase();
}

/** Random bytes drawn at once for 256 ids: one call into the system's generator, not one per id. */
const POOL_BYTES = 16 * 256;
const pool = Buffer.alloc(POOL_BYTES);
let poolAt = POOL_BYTES;
/** Two lower-case hex digits per byte value. */
const HEX = Buffer.from(Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0')).join(''), 'latin1');
const text = Buffer.alloc(36);

/**
 * A random (version 4) UUID, lower-case, as randomUUID() makes them, from the same cryptographic
 * generator. Readers make one per cue, so its cost counts: the text is written as bytes and read
 * back as one flat string (randomUUID's is a rope of some twenty pieces, about 490 bytes, until a
 * read flattens it; about 60 bytes after), in half randomUUID's time.
 */
export function newAnnotationId(): string {
  if (poolAt === POOL_BYTES) {
    randomFillSync(pool);
    poolAt = 0;
  }
  pool[poolAt + 6] = (pool[poolAt + 6] & 0x0f) | 0x40; // version 4
  pool[poolAt + 8] = (pool[poolAt + 8] & 0x3f) | 0x80; // variant 10
  let at = 0;
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) text[at++] = 0x2d; // -
    const byte = pool[poolAt + i];
    text[at++] = HEX[2 * byte];
    text[at++] = HEX[2 * byte + 1];
  }
  poolAt += 16;
  return text.toString('latin1', 0, 36);
}

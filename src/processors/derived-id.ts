import { createHash } from 'node:crypto';

/**
 * A UUID (version 8, RFC 9562 "custom") computed from what an annotation is about, so two runs
 * of a processor that would write the same annotation write the same id. When two workers race
 * on one store, the store refuses the second insert as a duplicate id instead of keeping two
 * copies, and the loser re-plans and finds nothing left to do.
 */
export function derivedId(...parts: readonly string[]): string {
  const hex = createHash('sha256').update(JSON.stringify(parts)).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** What the first bytes of a file say of its encoding, before any detector looks at the rest. */

export interface ByteOrderMark {
  readonly encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be';
  /** Its length in bytes: the text starts after it. */
  readonly length: number;
}

/** The byte-order mark a file starts with, if any (UTF-32 LE is tested before UTF-16 LE, whose mark starts it). */
export function byteOrderMarkOf(bytes: Uint8Array): ByteOrderMark | null {
  const [a, b, c, d] = bytes;
  if (a === 0xef && b === 0xbb && c === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (a === 0xff && b === 0xfe && c === 0 && d === 0 && bytes.length >= 4) return { encoding: 'utf-32le', length: 4 };
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return { encoding: 'utf-32be', length: 4 };
  if (a === 0xff && b === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (a === 0xfe && b === 0xff) return { encoding: 'utf-16be', length: 2 };
  return null;
}

/**
 * UTF-16 or UTF-32 without a byte-order mark, told by where the zero bytes of the first
 * characters fall (RFC 4627's rule for JSON, which holds for any text that starts with an ASCII
 * character, as every format annot reads does): `xx 00 00 00` is UTF-32LE, `00 00 00 xx`
 * UTF-32BE, `xx 00 xx 00` UTF-16LE, `00 xx 00 xx` UTF-16BE. The rule must hold for the first
 * eight bytes, so one stray NUL does not make a UTF-8 file UTF-16.
 */
export function zeroPatternEncoding(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be' | null {
  if (bytes.length < 8) return null;
  const zero = (at: number): boolean => bytes[at] === 0;
  const pattern = (zeros: readonly boolean[]): boolean => zeros.every((isZero, at) => zero(at) === isZero);
  if (pattern([false, true, true, true, false, true, true, true])) return 'utf-32le';
  if (pattern([true, true, true, false, true, true, true, false])) return 'utf-32be';
  if (pattern([false, true, false, true, false, true, false, true])) return 'utf-16le';
  if (pattern([true, false, true, false, true, false, true, false])) return 'utf-16be';
  return null;
}

import { TextDecoder } from 'node:util';
import { FormatParseError } from './errors.js';

/**
 * A whole file's bytes as text, strictly: UTF-8 (a BOM is dropped), or UTF-16 of either byte
 * order when a BOM says so. Readers of whole files (XML, JSON, TextGrid) use it instead of the
 * lenient decodeText of the sniffers, because a replacement character silently put in place of a
 * broken byte is data changed without a word. Refused, each with the line and column:
 * - bytes that are not UTF-8 (a stray Latin-1 byte, a truncated sequence, an encoded surrogate);
 * - UTF-16 with a lone surrogate;
 * - UTF-16 without a BOM (every other byte zero), whose byte order can only be guessed.
 */
export function decodeSource(bytes: Uint8Array, file: string): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return decodeUtf16(bytes.subarray(2), 'utf-16le', file);
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return decodeUtf16(bytes.subarray(2), 'utf-16be', file);
  const body = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  if (looksLikeUtf16WithoutBom(body)) {
    throw new FormatParseError(file, { line: 1, column: 1 }, 'expected UTF-8 text, or UTF-16 with a byte-order mark; this looks like UTF-16 without one (every other byte is zero), whose byte order cannot be known. Save it as UTF-8');
  }
  try {
    return UTF8.decode(body);
  } catch {
    const offset = firstInvalidUtf8(body);
    throw new FormatParseError(file, positionOfByte(body, offset), `expected UTF-8 text; byte 0x${hex(body[offset])} at byte offset ${offset + (body === bytes ? 0 : 3)} does not start a valid UTF-8 sequence (is the file Latin-1 or cut short? Save it as UTF-8)`);
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decodeUtf16(bytes: Uint8Array, encoding: 'utf-16le' | 'utf-16be', file: string): string {
  if (bytes.length % 2 === 1) {
    const text = new TextDecoder(encoding).decode(bytes.subarray(0, bytes.length - 1));
    throw new FormatParseError(file, positionOfIndex(text, text.length), `expected ${encoding.toUpperCase()} text of whole 16-bit units; the file ends in half a unit (an odd number of bytes)`);
  }
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    const units = new Uint16Array(bytes.length / 2);
    for (let i = 0; i < units.length; i++) units[i] = encoding === 'utf-16le' ? bytes[2 * i] | (bytes[2 * i + 1] << 8) : (bytes[2 * i] << 8) | bytes[2 * i + 1];
    let index = 0;
    while (index < units.length) {
      const unit = units[index];
      if (unit >= 0xd800 && unit <= 0xdbff && units[index + 1] >= 0xdc00 && units[index + 1] <= 0xdfff) index += 2;
      else if (unit >= 0xd800 && unit <= 0xdfff) break;
      else index++;
    }
    const text = new TextDecoder(encoding).decode(bytes.subarray(0, index * 2));
    throw new FormatParseError(file, positionOfIndex(text, text.length), `expected ${encoding.toUpperCase()} text; a lone surrogate (0x${(units[index] ?? 0).toString(16).toUpperCase()}) is not a character`);
  }
}

function looksLikeUtf16WithoutBom(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  return (bytes[0] !== 0 && bytes[1] === 0 && bytes[2] !== 0 && bytes[3] === 0) || (bytes[0] === 0 && bytes[1] !== 0 && bytes[2] === 0 && bytes[3] !== 0);
}

/** Offset of the first byte that does not begin (or continue) a well-formed UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let code = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const next = bytes[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return i;
      code = (code << 6) | (next & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return i;
    i += need + 1;
  }
  return Math.max(0, bytes.length - 1);
}

/** Line and column (in characters) of a byte offset in UTF-8 bytes; computed only for an error. */
function positionOfByte(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let lineStart = 0;
  let line = 1;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  const before = Buffer.from(bytes.buffer, bytes.byteOffset + lineStart, offset - lineStart).toString('utf8');
  return { line, column: before.length + 1 };
}

function positionOfIndex(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: index - lineStart + 1 };
}

function hex(byte: number | undefined): string {
  return (byte ?? 0).toString(16).toUpperCase().padStart(2, '0');
}

/**
 * decodeSource for bytes nobody uses again (a file just read whole): their memory is given back
 * as soon as the text exists. Left to the garbage collector, a large file's bytes were freed only
 * at a full collection, which could come after the reader had built everything else: on a 300 MB
 * EAF file that put 300 MB on the peak. Moving the bytes' store to a throwaway ArrayBuffer
 * (structuredClone with transfer, no copy) lets the next young-generation collection free it.
 */
export function decodeSourceOnce(bytes: Uint8Array, file: string): string {
  try {
    return decodeSource(bytes, file);
  } finally {
    const store = bytes.buffer;
    if (store instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === store.byteLength) structuredClone(store, { transfer: [store] });
  }
}

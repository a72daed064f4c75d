import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { LineCounter } from './line-counter.js';
import { isAsciiCompatible } from './encoding-names.js';
import { isDecodingFailure, strictDecoder } from './strict-decoder.js';

/** A file's bytes by range: read again from disk, or held in memory. */
export interface ByteSource {
  readonly size: number;
  read(from: number, to: number): Uint8Array;
}

export function memoryBytes(bytes: Uint8Array): ByteSource {
  return { size: bytes.length, read: (from, to) => bytes.subarray(from, to) };
}

/** The bytes of a file on disk, read on demand (only to place an error, so opened and closed each time). */
export function fileBytes(path: string): ByteSource {
  const fd = openSync(path, 'r');
  let size: number;
  try {
    size = fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
  return {
    size,
    read(from, to) {
      const buffer = Buffer.alloc(Math.max(0, to - from));
      const descriptor = openSync(path, 'r');
      try {
        const read = readSync(descriptor, buffer, 0, buffer.length, from);
        return buffer.subarray(0, read);
      } finally {
        closeSync(descriptor);
      }
    },
  };
}

/** Where the first bytes a strict decoder refuses lie: their offset, the bytes, and the line and column. */
export interface Undecodable {
  readonly offset: number;
  /** The refused sequence: from the byte that started it to the byte that broke it (at most four shown). */
  readonly bytes: Uint8Array;
  readonly line: number;
  readonly column: number;
}

/** Bytes decoded at a time before the search goes byte by byte (so at most this many go one by one). */
const BULK = 1 << 18;
/** How far before the piece that failed the byte-by-byte search starts (longer than any sequence). */
const LEAD = 64;

/**
 * Finds the first undecodable sequence of a source known to fail at or after `failedFrom` (the
 * start of the piece a decoder refused; by default, somewhere). The text before is decoded again
 * in pieces to count its lines, and the piece that fails is then fed one byte at a time: the
 * sequence starts after the last byte that completed a character. Runs only to report an error,
 * so it may read the file again.
 */
export function locateUndecodable(source: ByteSource, encoding: string, textStart: number, failedFrom = source.size): Undecodable {
  const decoder = strictDecoder(encoding);
  const lines = new LineCounter();
  let at = textStart;
  const bulkEnd = Math.max(textStart, failedFrom - LEAD);
  while (at < bulkEnd) {
    const to = Math.min(at + BULK, bulkEnd);
    try {
      lines.add(decoder.decode(source.read(at, to), { stream: true }));
    } catch (error) {
      if (!isDecodingFailure(error)) throw error;
      if (at === textStart) return byteByByte(source, strictDecoder(encoding), new LineCounter(), textStart, isAsciiCompatible(encoding));
      return locateUndecodable(source, encoding, textStart, at);
    }
    at = to;
  }
  return byteByByte(source, decoder, lines, at, isAsciiCompatible(encoding));
}

/** Bytes read at a time by the byte-by-byte search. */
const WINDOW = 1 << 16;

/**
 * Feeds the bytes from `from` one at a time. In an ASCII-compatible encoding an ASCII byte that
 * breaks a sequence is not part of it (the decoder would read it again as itself): it is not shown.
 */
function byteByByte(source: ByteSource, decoder: ReturnType<typeof strictDecoder>, lines: LineCounter, from: number, asciiCompatible: boolean): Undecodable {
  let sequenceStart = from;
  let position = lines.position();
  let window: Uint8Array = new Uint8Array(0);
  let windowStart = from;
  for (let at = from; at <= source.size; at++) {
    if (at < source.size && at - windowStart >= window.length) {
      window = source.read(at, Math.min(source.size, at + WINDOW));
      windowStart = at;
    }
    let text: string;
    try {
      text = at < source.size ? decoder.decode(window.subarray(at - windowStart, at - windowStart + 1), { stream: true }) : decoder.decode();
    } catch (error) {
      if (!isDecodingFailure(error)) throw error;
      const breaker = at < source.size && at > sequenceStart && asciiCompatible && window[at - windowStart] < 0x80;
      const end = Math.min(breaker ? at : at + 1, source.size, sequenceStart + 4);
      return { offset: sequenceStart, bytes: source.read(sequenceStart, Math.max(end, sequenceStart + 1)), ...position };
    }
    if (text.length > 0) {
      lines.add(text);
      position = lines.position();
      sequenceStart = at + 1;
    }
  }
  // Nothing was refused after all (the caller's decoder failed on what this one reads): the start of the search.
  return { offset: from, bytes: source.read(from, from + 1), ...position };
}

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { chooseEncoding, SAMPLE_BYTES, type EncodingChoice, type EncodingRequest } from './encoding/encoding-choice.js';
import { decodeWhole, SourceDecoder } from './encoding/source-decoder.js';
import { TAIL_BYTES, textShape, type TextShape } from './encoding/text-shape.js';
import { fileBytes, memoryBytes } from './encoding/undecodable-bytes.js';
import type { Finding } from './finding.js';

/**
 * The one way every text reader turns a file's bytes into text (see encoding/encoding-choice.ts
 * for how the encoding is decided): whole (XML, JSON) or piece by piece (SRT, WebVTT, TextGrid,
 * through text-lines.ts and the TextGrid token reader). Bytes that do not decode are an error
 * naming the byte offset, the line and column, never U+FFFD; a guessed encoding is a warning.
 */

/** What a reader passes on from its LoadOptions. */
export interface TextSourceOptions {
  /** The source as the user named it (findings and errors carry it). */
  readonly sourceName: string;
  /** `--encoding` / `?encoding=`: the encoding to read, unless a byte-order mark says otherwise. */
  readonly encoding?: string;
  readonly report: (finding: Finding) => void;
}

/** What a format adds to the rules. */
export interface TextRules {
  /** XML: the declaration's `encoding` counts. */
  readonly xml?: boolean;
  /** The format's specification requires UTF-8 (its name, for the warning): WebVTT. */
  readonly utf8Only?: string;
}

/** A whole file's bytes as text. */
export function decodeSource(bytes: Uint8Array, options: TextSourceOptions, rules: TextRules = {}): string {
  const choice = chooseEncoding(bytes.subarray(0, SAMPLE_BYTES), bytes.length <= SAMPLE_BYTES, encodingRequest(options, rules));
  return decodeWhole(bytes, choice, options.sourceName, () => memoryBytes(bytes));
}

/**
 * decodeSource for bytes nobody uses again (a file just read whole): their memory is given back
 * as soon as the text exists. Left to the garbage collector, a large file's bytes were freed only
 * at a full collection, which could come after the reader had built everything else: on a 300 MB
 * EAF file that put 300 MB on the peak. Moving the bytes' store to a throwaway ArrayBuffer
 * (structuredClone with transfer, no copy) lets the next young-generation collection free it.
 */
export function decodeSourceOnce(bytes: Uint8Array, options: TextSourceOptions, rules: TextRules = {}): string {
  try {
    return decodeSource(bytes, options, rules);
  } finally {
    const store = bytes.buffer;
    if (store instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === store.byteLength) structuredClone(store, { transfer: [store] });
  }
}

/** A file read whole, as text. */
export async function readSourceText(path: string, options: TextSourceOptions, rules: TextRules = {}): Promise<string> {
  return decodeSourceOnce(await readFile(path), options, rules);
}

/**
 * The decoder of a file to be read in pieces (from its start, in order), its encoding decided
 * now from its first SAMPLE_BYTES: a reader of a file of any size holds no more than that, once.
 */
export function fileDecoder(path: string, options: TextSourceOptions, rules: TextRules = {}): SourceDecoder & { readonly shape: TextShape } {
  const fd = openSync(path, 'r');
  let sample: Buffer;
  let tail: Buffer;
  try {
    const size = fstatSync(fd).size;
    sample = bytesAt(fd, 0, Math.min(SAMPLE_BYTES + 1, size));
    tail = bytesAt(fd, Math.max(0, size - TAIL_BYTES), Math.min(TAIL_BYTES, size));
  } finally {
    closeSync(fd);
  }
  const choice: EncodingChoice = chooseEncoding(sample.subarray(0, SAMPLE_BYTES), sample.length <= SAMPLE_BYTES, encodingRequest(options, rules));
  return new SourceDecoder(choice, options.sourceName, () => fileBytes(path), textShape(sample, tail, choice)) as SourceDecoder & { readonly shape: TextShape };
}

/** `length` bytes of an open file from `position` (fewer if it is shorter by then). */
function bytesAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let read = 0;
  while (read < length) {
    const got = readSync(fd, buffer, read, length - read, position + read);
    if (got === 0) break;
    read += got;
  }
  return buffer.subarray(0, read);
}

function encodingRequest(options: TextSourceOptions, rules: TextRules): EncodingRequest {
  return { file: options.sourceName, forced: options.encoding, xml: rules.xml, utf8Only: rules.utf8Only, report: options.report };
}

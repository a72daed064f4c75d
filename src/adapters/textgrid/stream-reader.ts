import { closeSync, openSync, readSync } from 'node:fs';
import { TextDecoder } from 'node:util';
import type { TextGridTokenSource } from './parser.js';
import { TextGridTokenizer, type TextGridToken } from './tokenizer.js';

/**
 * A TextGrid file's tokens, read 64 KiB at a time, so that a file of any size is parsed without
 * being held. Decoded strictly like decodeSource (source-text.ts): UTF-8 (a BOM dropped), or
 * UTF-16 of either byte order after its BOM. Reads are synchronous: the parser pulls tokens one
 * at a time (as the whole-file parser pulls them from an array).
 *
 * Bytes that do not decode throw NeedsWholeFile: the caller reads the file whole, and
 * decodeSource then says exactly which byte, where.
 */
export class TextGridFileTokens implements TextGridTokenSource {
  private fd: number | null;
  private readonly tokenizer: TextGridTokenizer;
  private decoder: TextDecoder | null = null;
  private batch: TextGridToken[] = [];
  private at = 0;
  private ended = false;
  private readonly chunk = Buffer.allocUnsafe(64 * 1024);

  constructor(path: string, file: string) {
    this.fd = openSync(path, 'r');
    this.tokenizer = new TextGridTokenizer(file);
  }

  next(): TextGridToken | undefined {
    while (this.at >= this.batch.length) {
      if (this.ended) return undefined;
      this.batch = this.read();
      this.at = 0;
    }
    return this.batch[this.at++];
  }

  /** Reads the tokens to the end of the file (so a tokenizer or decoding error there still wins, as in the whole-file parser). */
  drain(): void {
    while (this.next() !== undefined);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private read(): TextGridToken[] {
    const bytes = readSync(this.fd as number, this.chunk, 0, this.chunk.length, null);
    try {
      if (bytes === 0) {
        this.ended = true;
        this.close();
        const rest = this.decoder === null ? '' : this.decoder.decode();
        return [...this.tokenizer.push(rest), ...this.tokenizer.end()];
      }
      let body = this.chunk.subarray(0, bytes);
      if (this.decoder === null) {
        let encoding = 'utf-8';
        if (body.length >= 2 && body[0] === 0xff && body[1] === 0xfe) [encoding, body] = ['utf-16le', body.subarray(2)];
        else if (body.length >= 2 && body[0] === 0xfe && body[1] === 0xff) [encoding, body] = ['utf-16be', body.subarray(2)];
        else if (body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) body = body.subarray(3);
        if (encoding === 'utf-8' && looksLikeUtf16WithoutBom(body)) throw new NeedsWholeFile();
        this.decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
      }
      return this.tokenizer.push(this.decoder.decode(body, { stream: true }));
    } catch (error) {
      // Node's fatal TextDecoder throws a TypeError with this code (tested by code: a TypeError of another realm is not instanceof ours).
      if ((error as { code?: unknown }).code === 'ERR_ENCODING_INVALID_ENCODED_DATA') throw new NeedsWholeFile();
      throw error;
    }
  }
}

/** The file's bytes need the whole-file reader, which reports exactly what is wrong with them. */
export class NeedsWholeFile extends Error {
  constructor() {
    super('the file needs reading whole');
  }
}

function looksLikeUtf16WithoutBom(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  return (bytes[0] !== 0 && bytes[1] === 0 && bytes[2] !== 0 && bytes[3] === 0) || (bytes[0] === 0 && bytes[1] !== 0 && bytes[2] === 0 && bytes[3] !== 0);
}

import { closeSync, openSync, readSync } from 'node:fs';
import type { SourceDecoder } from '../encoding/source-decoder.js';
import type { TextGridTokenSource } from './parser.js';
import { TextGridTokenizer, type TextGridToken } from './tokenizer.js';

/**
 * A TextGrid file's tokens, read 64 KiB at a time, so that a file of any size is parsed without
 * being held. Decoded by the reader's SourceDecoder (source-text.ts: a byte-order mark, --encoding,
 * UTF-8 or a detected legacy encoding; bytes that do not decode are an error naming their offset).
 * Reads are synchronous: the parser pulls tokens one at a time (as the whole-file parser pulls
 * them from an array).
 */
export class TextGridFileTokens implements TextGridTokenSource {
  private fd: number | null;
  private readonly tokenizer: TextGridTokenizer;
  private batch: TextGridToken[] = [];
  private at = 0;
  private ended = false;
  private readonly chunk = Buffer.allocUnsafe(64 * 1024);

  constructor(
    path: string,
    file: string,
    private readonly decoder: SourceDecoder,
  ) {
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
    if (bytes === 0) {
      this.ended = true;
      this.close();
      return [...this.tokenizer.push(this.decoder.end()), ...this.tokenizer.end()];
    }
    return this.tokenizer.push(this.decoder.decode(this.chunk.subarray(0, bytes)));
  }
}

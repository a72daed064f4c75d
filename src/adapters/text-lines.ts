import { createReadStream } from 'node:fs';
import type { SourceDecoder } from './encoding/source-decoder.js';

/** Bytes read at a time (see below why not more). */
const CHUNK_BYTES = 32 * 1024;

/**
 * Text files read as lines, chunk by chunk, without ever holding the whole file: decoded by the
 * reader's SourceDecoder (source-text.ts fileDecoder decides the encoding; bytes that do not
 * decode are an error, never U+FFFD), and CRLF, bare CR and LF all end a line (also when a CRLF
 * pair is split between two chunks). NUL characters are kept; the formats
 * decide what they mean.
 *
 * Lines come in batches (one per chunk read), so a parser loops over plain arrays and awaits only
 * between chunks: a million-cue file costs a few thousand awaits, not millions. Chunks are
 * 32 KiB: the lines and cues of a chunk all live at once, and the more of them survive a
 * young-generation collection the larger V8 grows that generation. At 1 MiB a 1M-cue SRT to
 * WebVTT conversion peaked at 200 MB; at 32 KiB it peaks under 100 MB, at the same CPU time.
 */
export async function* textLineBatches(path: string, decoder: SourceDecoder, chunkBytes = CHUNK_BYTES): AsyncGenerator<string[]> {
  const splitter = new LineSplitter();
  for await (const text of textChunks(path, decoder, chunkBytes)) {
    const lines = splitter.push(text);
    if (lines.length > 0) yield lines;
  }
  const last = splitter.end();
  if (last !== null) yield [last];
}

/**
 * The file's text chunk by chunk, decoded as above, with every CRLF and bare CR turned into LF
 * (also across chunk boundaries). Chunks end anywhere, also inside a line.
 */
export async function* textChunks(path: string, decoder: SourceDecoder, chunkBytes = CHUNK_BYTES): AsyncGenerator<string> {
  const breaks = new LineBreakNormalizer();
  // Read asynchronously on purpose: each read returns to the event loop, where a Ctrl-C is handled
  // and a server answers its other requests. Synchronous reads resolve every await as a microtask
  // and held both off until the whole file was read (a bulk load then ignored SIGINT).
  for await (const chunk of createReadStream(path, { highWaterMark: chunkBytes }) as AsyncIterable<Buffer>) {
    const text = breaks.push(decoder.decode(chunk));
    if (text.length > 0) yield text;
  }
  const rest = breaks.push(decoder.end());
  if (rest.length > 0) yield rest;
}

/** Lines of an in-memory text, split by the same rules. */
export function textLines(text: string): string[] {
  const splitter = new LineSplitter();
  const lines = splitter.push(text);
  const last = splitter.end();
  if (last !== null) lines.push(last);
  return lines;
}

/**
 * Splits a stream of text into lines. A final piece without a line break is a line too (returned
 * by end()); a text that ends with a line break has no empty last line.
 */
export class LineSplitter {
  private pending = '';
  private readonly breaks = new LineBreakNormalizer();

  push(chunk: string): string[] {
    const text = this.breaks.push(chunk);
    if (text.length === 0) return [];
    const pieces = text.split('\n');
    pieces[0] = this.pending + pieces[0];
    this.pending = pieces.pop() as string;
    return pieces;
  }

  end(): string | null {
    const last = this.pending;
    this.pending = '';
    return last.length > 0 ? last : null;
  }
}

/** Turns CRLF and bare CR into LF in a stream of text, a CRLF split between two chunks included. */
export class LineBreakNormalizer {
  private carriageReturnPending = false;

  push(text: string): string {
    if (text.length === 0) return text;
    if (this.carriageReturnPending) {
      // A CR ended the previous chunk: it already ended a line, so a LF right after it is the same break.
      this.carriageReturnPending = false;
      if (text.charCodeAt(0) === 10) text = text.slice(1);
    }
    if (text.indexOf('\r') === -1) return text;
    if (text.charCodeAt(text.length - 1) === 13) this.carriageReturnPending = true;
    return text.replace(/\r\n?/g, '\n');
  }
}

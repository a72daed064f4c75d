import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { TopLevelIdScanner } from './top-level-id.js';

/** What the reader hands on: a whole line, or the news that a line was too long (and was not kept). */
export interface LineEvents {
  line(bytes: Buffer): void;
  oversized(bytes: number, id: RequestId | null): void;
}

/**
 * Splits a byte stream into newline-delimited messages, keeping at most `maxBytes` of one line.
 * A longer line is not buffered: its bytes are passed through a TopLevelIdScanner and dropped
 * as they arrive, and at its newline the reader reports its size and id, then goes on with the
 * next line. So one oversized message costs its sender an error, not everyone the session.
 */
export class LineReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Set while the current line is past the limit: its id scanner and its size so far. */
  private discarding: { scanner: TopLevelIdScanner; bytes: number } | null = null;

  constructor(
    private readonly maxBytes: number,
    private readonly events: LineEvents,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      this.take(chunk.subarray(start, end));
      if (newline === -1) return;
      this.endLine();
      start = newline + 1;
    }
  }

  /** Forgets a line cut off by the end of the stream. */
  clear(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.discarding = null;
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.discarding !== null) {
      this.discarding.scanner.feed(piece);
      this.discarding.bytes += piece.length;
      return;
    }
    if (this.pendingBytes + piece.length <= this.maxBytes) {
      this.pending.push(piece);
      this.pendingBytes += piece.length;
      return;
    }
    const scanner = new TopLevelIdScanner();
    for (const kept of this.pending) scanner.feed(kept);
    scanner.feed(piece);
    this.discarding = { scanner, bytes: this.pendingBytes + piece.length };
    this.pending = [];
    this.pendingBytes = 0;
  }

  private endLine(): void {
    if (this.discarding !== null) {
      const { bytes, scanner } = this.discarding;
      this.discarding = null;
      this.events.oversized(bytes, scanner.id);
      return;
    }
    const line = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    this.events.line(line);
  }
}

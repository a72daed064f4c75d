import type { ServerResponse } from 'node:http';

/** Below this, Buffer.allocUnsafe slices node's own shared pool (4 KiB is half its 8 KiB slab). */
const SMALLEST = 4 * 1024;
/** Past this, an answer is rare enough to be allocated on its own. */
const LARGEST = 4 * 1024 * 1024;
/** The most memory kept for reuse, all sizes together. */
const MOST_KEPT = 16 * 1024 * 1024;

/**
 * Memory reused for the bodies of answers built byte by byte (a window's JSON). A fresh Buffer
 * of 10 to 50 KB for each answer is a new ArrayBuffer outside V8's heap, and at thousands of
 * answers a second that external memory makes V8 collect its whole heap again and again: a
 * window server measured half as fast, with pauses in its p99, as with this pool.
 *
 * A body's memory comes back only once its response has finished, that is once the socket's
 * write of it has completed, so it is never reused while the kernel may still read it. The
 * body of a response that never finishes (its connection failed) is left to the garbage
 * collector. Sizes are powers of two, so a buffer serves any answer up to its size.
 */
export class ResponseBuffers {
  private readonly free = new Map<number, Buffer[]>();
  private kept = 0;

  /** `length` bytes to fill, lent until `response` finishes. */
  take(length: number, response: ServerResponse): Buffer {
    if (length < SMALLEST || length > LARGEST) return Buffer.allocUnsafe(length);
    const size = sizeClass(length);
    const spare = this.free.get(size)?.pop();
    if (spare !== undefined) this.kept -= size;
    const memory = spare ?? Buffer.allocUnsafeSlow(size);
    response.once('finish', () => this.giveBack(memory));
    return memory.subarray(0, length);
  }

  private giveBack(memory: Buffer): void {
    if (this.kept + memory.length > MOST_KEPT) return;
    let spares = this.free.get(memory.length);
    if (spares === undefined) {
      spares = [];
      this.free.set(memory.length, spares);
    }
    spares.push(memory);
    this.kept += memory.length;
  }
}

/** The smallest power of two at or above `length`. */
function sizeClass(length: number): number {
  return 2 ** Math.ceil(Math.log2(length));
}

import type { WriteStream } from 'node:fs';

/**
 * Text written to a file stream in chunks of 64 KiB, waiting for the stream to drain when it asks
 * to, so writing a million cues neither builds one huge string nor floods memory. Each piece is
 * encoded into the chunk's bytes as it is written, so the many small strings of a cue writer die
 * young instead of waiting in a list for the next chunk (which kept the heap's young generation
 * growing: a 100k-cue conversion peaked 20 MB higher).
 */
export class BufferedTextWriter {
  private chunk: Buffer;
  private used = 0;

  constructor(
    private readonly stream: WriteStream,
    private readonly chunkBytes = 1 << 16,
  ) {
    this.chunk = Buffer.allocUnsafe(chunkBytes);
  }

  /**
   * Adds text. Returns a promise only when a chunk went out and the stream must drain first: a
   * writer of millions of small pieces awaits only then (`const sent = write(x); if (sent) await sent`),
   * not once per piece. `await write(x)` works too.
   */
  write(text: string): Promise<void> | undefined {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8, so a piece of this length always fits.
    const room = text.length * 3;
    if (room <= this.chunkBytes - this.used) {
      this.used += this.chunk.write(text, this.used, 'utf8');
      return undefined;
    }
    if (room > this.chunkBytes) {
      // A piece as big as a chunk goes out as it is, not copied into one.
      return this.flush().then(() => this.send(text));
    }
    const sent = this.flush();
    this.used += this.chunk.write(text, this.used, 'utf8');
    return sent;
  }

  async close(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) => {
      this.stream.once('error', reject);
      this.stream.end(() => resolve());
    });
  }

  /**
   * Abandons the file, resolving once the stream has closed. A stream whose open is still pending
   * opens (and truncates) the file after destroy(): whoever removes the path or writes it anew next
   * (a stream abandoned for the whole-document path) must wait for that, or their file is cut short.
   */
  async destroy(): Promise<void> {
    if (this.stream.closed) return;
    await new Promise<void>((resolve) => {
      this.stream.once('close', () => resolve());
      this.stream.destroy();
    });
  }

  private flush(): Promise<void> {
    if (this.used === 0) return Promise.resolve();
    const full = this.chunk.subarray(0, this.used);
    // The stream keeps the bytes until they are written: the next piece goes into a new chunk.
    this.chunk = Buffer.allocUnsafe(this.chunkBytes);
    this.used = 0;
    return this.send(full);
  }

  private async send(chunk: string | Buffer): Promise<void> {
    if (!this.stream.write(chunk)) {
      await new Promise<void>((resolve, reject) => {
        const onError = (error: Error): void => reject(error);
        this.stream.once('error', onError);
        this.stream.once('drain', () => {
          this.stream.off('error', onError);
          resolve();
        });
      });
    }
  }
}

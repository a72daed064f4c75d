import type { WriteStream } from 'node:fs';

/**
 * Text written to a file stream in chunks of about 256 KiB, waiting for the stream to drain when
 * it asks to, so writing a million cues neither builds one huge string nor floods memory.
 */
export class BufferedTextWriter {
  private pending: string[] = [];
  private pendingLength = 0;

  constructor(
    private readonly stream: WriteStream,
    private readonly chunkChars = 1 << 18,
  ) {}

  /**
   * Adds text. Returns a promise only when a chunk went out and the stream must drain first: a
   * writer of millions of small pieces awaits only then (`const sent = write(x); if (sent) await sent`),
   * not once per piece. `await write(x)` works too.
   */
  write(text: string): Promise<void> | undefined {
    if (text.length >= this.chunkChars) {
      // A piece as big as a chunk goes out as it is, not joined into a copy.
      return this.flush().then(() => this.send(text));
    }
    this.pending.push(text);
    this.pendingLength += text.length;
    if (this.pendingLength >= this.chunkChars) return this.flush();
    return undefined;
  }

  async close(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) => {
      this.stream.once('error', reject);
      this.stream.end(() => resolve());
    });
  }

  destroy(): void {
    this.stream.destroy();
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const chunk = this.pending.join('');
    this.pending = [];
    this.pendingLength = 0;
    await this.send(chunk);
  }

  private async send(chunk: string): Promise<void> {
    if (!this.stream.write(chunk, 'utf8')) {
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

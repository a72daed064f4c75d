import { createWriteStream, type WriteStream } from 'node:fs';

/** Text for an XML attribute value in double quotes. */
export function escapeAttribute(value: string): string {
  return /[&<>"\t\n\r]/.test(value)
    ? value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;')
    : value;
}

/** Text for XML character data. A carriage return is escaped so that it survives end-of-line normalisation. */
export function escapeText(value: string): string {
  return /[&<>\r]/.test(value) ? value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;') : value;
}

export function attributeList(attributes: Iterable<[string, string | undefined]>): string {
  let out = '';
  for (const [name, value] of attributes) if (value !== undefined) out += ` ${name}="${escapeAttribute(value)}"`;
  return out;
}

/** Writes text to a file in large chunks, waiting for the stream to drain, so big documents stream. */
export class ChunkedWriter {
  private readonly stream: WriteStream;
  private pending: string[] = [];
  private size = 0;

  constructor(path: string) {
    this.stream = createWriteStream(path, { encoding: 'utf8' });
  }

  async write(text: string): Promise<void> {
    this.pending.push(text);
    this.size += text.length;
    if (this.size >= 1 << 20) await this.flush();
  }

  private async flush(): Promise<void> {
    const chunk = this.pending.join('');
    this.pending = [];
    this.size = 0;
    if (!this.stream.write(chunk)) await new Promise<void>((resolve, reject) => {
      this.stream.once('drain', resolve);
      this.stream.once('error', reject);
    });
  }

  async close(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) => {
      this.stream.once('error', reject);
      this.stream.end(() => resolve());
    });
  }
}

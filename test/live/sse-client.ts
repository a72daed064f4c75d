import { Agent, fetch } from 'undici';

/** One Server-Sent Event as a client sees it. */
export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/**
 * A minimal SSE reader over fetch, for tests: collects events and comment lines (heartbeats) as
 * they arrive, and waits for a number of them.
 */
export class SseReader {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  status = 0;
  contentType = '';
  private readonly abort = new AbortController();
  // A connection pool of its own, closed with the reader: while a stream held a connection of the
  // shared pool, the pool opened a spare one that stayed idle, and a server shutting down gives a
  // connection that has not sent its first request a grace period (drain.ts): 4 s per test.
  private readonly agent = new Agent();
  private waiters: Array<() => void> = [];
  private done: Promise<void> = Promise.resolve();

  static async open(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
    const reader = new SseReader();
    const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: reader.abort.signal, dispatcher: reader.agent });
    reader.status = response.status;
    reader.contentType = response.headers.get('content-type') ?? '';
    if (response.body) reader.done = reader.pump(response.body);
    return reader;
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          this.parse(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
        }
        for (const wake of this.waiters.splice(0)) wake();
      }
    } catch {
      // aborted
    }
  }

  private parse(block: string): void {
    const event: SseEvent = { data: '' };
    let hasData = false;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
      else if (line.startsWith('id: ')) event.id = line.slice(4);
      else if (line.startsWith('event: ')) event.event = line.slice(7);
      else if (line.startsWith('data: ')) {
        event.data += (hasData ? '\n' : '') + line.slice(6);
        hasData = true;
      }
    }
    if (hasData) this.events.push(event);
  }

  /** Resolves once `predicate` holds, or rejects after `timeoutMs`. */
  async until(predicate: (reader: SseReader) => boolean, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this)) {
      if (Date.now() > deadline) throw new Error(`SSE: condition not met within ${timeoutMs} ms; got ${this.events.length} events, ${this.comments.length} comments`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  /** The clocks of the events so far. */
  clocks(): number[] {
    return this.events.filter((event) => event.id !== undefined).map((event) => Number(event.id));
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.done;
    await this.agent.destroy();
  }
}

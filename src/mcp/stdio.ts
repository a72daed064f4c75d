import { once } from 'node:events';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { AnnotationService } from '../service/annotation-service.js';
import { openServiceStore, redactLocation } from '../service/open-service-store.js';
import { buildMcpServer } from './server.js';
import { oneLine, StdioLineTransport } from './stdio-line-transport.js';

export interface StdioSessionOptions {
  /** The `.annot` file to edit; without one the session works on a private in-memory store. */
  readonly path?: string;
  readonly version?: string;
  /** Where diagnostics go: never stdout, which carries the protocol alone. */
  readonly log?: (line: string) => void;
  /** The largest message read, in bytes (`--max-message`); a longer one is answered with an error. Default 10 MiB. */
  readonly maxMessageBytes?: number;
}

/** How long a closing session waits for calls already received to answer before it closes anyway. */
const DRAIN_TIMEOUT_MS = 10_000;

/**
 * `annot mcp`: serves the tools over stdin/stdout until the client closes stdin (or SIGINT or
 * SIGTERM arrives). Calls already received still get their answers, then the store is closed,
 * so an edit is never cut off half-way and the file is left clean. Resolves when all is closed.
 */
export async function runMcpOverStdio(options: StdioSessionOptions = {}): Promise<void> {
  const log = options.log ?? ((line: string) => process.stderr.write(line + '\n'));
  keepStdoutForProtocol();
  const store = await openServiceStore(options.path, { create: true });
  const server = buildMcpServer(new AnnotationService(store), { version: options.version });
  const transport = new StdioLineTransport(process.stdin, process.stdout, { maxMessageBytes: options.maxMessageBytes, log: (line) => log(`annot mcp: ${line}`) });
  transport.onerror = (error) => log(`annot mcp: ${oneLine(error.message)}`);
  const pending = new PendingRequests();
  await server.connect(transport);
  pending.watch(transport);
  log(`annot mcp: serving ${options.path === undefined ? 'an in-memory store' : redactLocation(options.path)} over stdio`);

  const ended = new AbortController();
  const end = () => ended.abort();
  process.stdin.once('end', end);
  process.stdin.once('close', end);
  process.once('SIGINT', end);
  process.once('SIGTERM', end);
  try {
    if (!ended.signal.aborted) await once(ended.signal, 'abort');
    await pending.drained(DRAIN_TIMEOUT_MS);
  } finally {
    process.stdin.off('end', end);
    process.stdin.off('close', end);
    process.off('SIGINT', end);
    process.off('SIGTERM', end);
    await server.close();
    await store.close();
  }
}

/**
 * A stray console.log from any module would corrupt the JSON-RPC stream, so in this process the
 * console's stdout methods write to stderr instead.
 */
function keepStdoutForProtocol(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

/** The requests received and not yet answered, seen at the transport: what a clean close waits for. */
class PendingRequests {
  private readonly ids = new Set<string | number>();
  private idle: (() => void) | undefined;

  watch(transport: Transport): void {
    const receive = transport.onmessage;
    transport.onmessage = (message: JSONRPCMessage) => {
      if ('method' in message && 'id' in message) this.ids.add(message.id);
      receive?.(message);
    };
    const send = transport.send.bind(transport);
    transport.send = async (message: JSONRPCMessage) => {
      await send(message);
      if (!('method' in message) && 'id' in message && message.id !== undefined) {
        this.ids.delete(message.id);
        if (this.ids.size === 0) this.idle?.();
      }
    };
  }

  async drained(timeoutMs: number): Promise<void> {
    if (this.ids.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.idle = resolve;
      timer = setTimeout(resolve, timeoutMs);
    });
    clearTimeout(timer);
  }
}

import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { ANNOT_CODE_KEY, JSON_RPC_ERROR, jsonRpcError, parseIncoming, type Incoming } from './incoming-message.js';
import { LineReader } from './line-reader.js';

/** The SDK's own stdio limit, kept as the default: clients already send messages up to it. */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export interface StdioLineTransportOptions {
  /** The largest message read, in bytes; a longer line is answered with an error and skipped. */
  readonly maxMessageBytes?: number;
  /** One line for each message refused (stderr: stdout carries only the protocol). */
  readonly log?: (line: string) => void;
}

/**
 * The stdio transport of `annot mcp`, in place of the SDK's StdioServerTransport, which closes
 * the whole session on one line over its buffer limit and drops a malformed message without an
 * answer. Here every line gets what JSON-RPC 2.0 promises: a message goes to the server; text
 * that is not JSON gets -32700, a request the server cannot take -32600 or -32602 with its id;
 * a line over the limit is skipped as it arrives and answered -32600 with its id when it can be
 * found. The session goes on after each of them.
 */
export class StdioLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private readonly reader: LineReader;
  private readonly maxMessageBytes: number;
  private readonly log: (line: string) => void;
  private started = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    options: StdioLineTransportOptions = {},
  ) {
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.log = options.log ?? (() => undefined);
    this.reader = new LineReader(this.maxMessageBytes, {
      line: (bytes) => this.receive(bytes),
      oversized: (bytes, id) => this.refuseOversized(bytes, id),
    });
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('StdioLineTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(JSON.stringify(message) + '\n')) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.reader.clear();
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer | string) => {
    this.reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  };

  private readonly onStreamError = (error: Error) => {
    this.onerror?.(error);
  };

  private receive(bytes: Buffer): void {
    const text = bytes.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    this.deliver(parseIncoming(text));
  }

  private deliver(incoming: Incoming): void {
    if (incoming.kind === 'message') {
      this.onmessage?.(incoming.message);
      return;
    }
    this.log(oneLine(`refused ${incoming.reason}`));
    if (incoming.answer !== null) void this.send(incoming.answer);
  }

  private refuseOversized(bytes: number, id: RequestId | null): void {
    const limit = this.maxMessageBytes;
    this.log(`refused a message of ${bytes} bytes, over the limit of ${limit} bytes${id === null ? '' : ` (id ${JSON.stringify(id)})`}`);
    void this.send(
      jsonRpcError(id, JSON_RPC_ERROR.invalidRequest, `Invalid Request: the message is ${bytes} bytes, over the limit of ${limit} bytes (annot mcp --max-message); none of it was read`, {
        [ANNOT_CODE_KEY]: 'ANNOT_BODY_TOO_LARGE',
        limit_bytes: limit,
      }),
    );
  }
}

/** A log line: the first line of the text, at most 300 characters. */
export function oneLine(text: string): string {
  const first = text.split('\n', 1)[0];
  return first.length > 300 ? `${first.slice(0, 297)}...` : first;
}

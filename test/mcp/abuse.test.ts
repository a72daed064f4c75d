import { jest } from '@jest/globals';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { JSONRPCMessageSchema, McpError, type CallToolResult, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import { mountMcpOverHttp } from '../../src/mcp/http.js';
import { LIMITS } from '../../src/model/limits.js';
import { buildApp } from '../../src/server/app.js';
import { AnnotationService } from '../../src/service/annotation-service.js';
import { MemoryStore } from '../../src/store/memory.js';
import { ANNOT_BIN } from '../support/run-cli.js';
import { eventually } from '../support/serve-cli.js';
import type { Transport } from './mcp-client.js';

jest.setTimeout(90_000);

type Raw = Record<string, unknown> & { id?: unknown; error?: { code: number; message: string; data?: Record<string, unknown> } };

/**
 * `annot mcp` in a child process with two speakers on its stdin: the MCP SDK's own Client (over a
 * transport that writes to the pipe and reads whole lines back) and the test, which writes abuse
 * lines raw between the client's requests. Every line the server writes is kept, so answers the
 * client cannot take (id null) are seen too.
 */
class AbusedSession implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  readonly client = new Client({ name: 'annot-abuse-test', version: '1.0.0' });
  readonly lines: Raw[] = [];
  private readonly child: ChildProcessWithoutNullStreams;
  private buffered = '';
  private err = '';
  readonly exited: Promise<number | null>;

  constructor(args: string[] = [], env: NodeJS.ProcessEnv = {}) {
    this.child = spawn(process.execPath, [ANNOT_BIN, 'mcp', ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    this.exited = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
    this.child.stderr.on('data', (chunk: Buffer) => (this.err += chunk.toString()));
  }

  async start(): Promise<void> {
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.buffered += chunk.toString();
      let newline: number;
      while ((newline = this.buffered.indexOf('\n')) !== -1) {
        const line = this.buffered.slice(0, newline);
        this.buffered = this.buffered.slice(newline + 1);
        const raw = JSON.parse(line) as Raw;
        this.lines.push(raw);
        const parsed = JSONRPCMessageSchema.safeParse(raw);
        if (parsed.success && raw.id !== null) this.onmessage?.(parsed.data as JSONRPCMessage);
      }
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.writeRaw(JSON.stringify(message));
  }

  /** One line as it is, newline added; resolves once the pipe has taken it. */
  writeRaw(line: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.stdin.write(line + '\n')) resolve();
      else this.child.stdin.once('drain', () => resolve());
    });
  }

  async close(): Promise<void> {
    this.child.stdin.end();
    this.onclose?.();
  }

  stderr(): string {
    return this.err;
  }

  /** The answer the server wrote with this id (waits for it). */
  async answer(id: unknown): Promise<Raw> {
    await eventually(() => this.lines.some((line) => line.id === id && ('error' in line || 'result' in line)), `an answer with id ${JSON.stringify(id)}`, 30_000);
    return this.lines.find((line) => line.id === id && ('error' in line || 'result' in line))!;
  }

  /** Answers with id null, in order. */
  nullAnswers(): Raw[] {
    return this.lines.filter((line) => line.id === null);
  }

  async connect(): Promise<this> {
    await this.client.connect(this);
    return this;
  }

  async clock(): Promise<number> {
    const result = (await this.client.callTool({ name: 'latest_clock', arguments: {} })) as CallToolResult;
    return (result.structuredContent as { clock: number }).clock;
  }
}

const call = (id: number | string, name: string, args: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describe('annot mcp under abuse: every message answered as JSON-RPC says, and the session goes on', () => {
  let session: AbusedSession;
  beforeAll(async () => {
    session = await new AbusedSession().connect();
  });
  afterAll(async () => {
    await session.client.close();
    expect(await session.exited).toBe(0);
  });

  it('answers a line over the 10 MiB default with -32600 carrying its id, and serves the next request', async () => {
    const huge = call(77, 'add_tier', { name: 'x'.repeat(11 * 1024 * 1024) });
    await session.writeRaw(huge);
    const answer = await session.answer(77);
    expect(answer.error).toMatchObject({ code: -32600, data: { annot_code: 'ANNOT_BODY_TOO_LARGE', limit_bytes: 10 * 1024 * 1024 } });
    expect(answer.error!.message).toContain(`the message is ${Buffer.byteLength(huge)} bytes, over the limit of 10485760 bytes`);
    expect(await session.clock()).toBe(0);
  });

  it('fails the SDK client\'s own oversized call at once (the error carries its id), and the next call works', async () => {
    const attempt = session.client.callTool({ name: 'add_tier', arguments: { name: 'y'.repeat(11 * 1024 * 1024) } });
    await expect(attempt).rejects.toBeInstanceOf(McpError);
    await expect(attempt).rejects.toMatchObject({ code: -32600 });
    expect(await session.clock()).toBe(0);
  });

  it('answers text that is not JSON with -32700 and id null (JSON-RPC 2.0 §5.1)', async () => {
    const before = session.nullAnswers().length;
    await session.writeRaw('{"jsonrpc": "2.0", "id": 5, "method": ');
    await eventually(() => session.nullAnswers().length > before, 'the parse error');
    expect(session.nullAnswers()[before].error).toMatchObject({ code: -32700 });
    expect(session.nullAnswers()[before].error!.message).toMatch(/^Parse error: the message is not JSON/);
    expect(await session.clock()).toBe(0);
  });

  it('answers a request with an id and no method with -32600 and that id', async () => {
    await session.writeRaw(JSON.stringify({ jsonrpc: '2.0', id: 'no-method' }));
    expect((await session.answer('no-method')).error).toMatchObject({ code: -32600, message: 'Invalid Request: a request needs a "method" string' });
  });

  it('answers params of the wrong type with -32602, in one line', async () => {
    await session.writeRaw(JSON.stringify({ jsonrpc: '2.0', id: 31, method: 'tools/call', params: 'add_tier' }));
    expect((await session.answer(31)).error).toMatchObject({ code: -32602, message: 'Invalid params: "params" of tools/call must be an object' });
    await session.writeRaw(JSON.stringify({ jsonrpc: '2.0', id: 32, method: 'tools/call', params: { name: 5 } }));
    expect((await session.answer(32)).error).toEqual({ code: -32602, message: 'Invalid params for tools/call: params.name: expected string, received number' });
  });

  it('answers a batch, a wrong version and an unknown member with -32600, and skips a malformed notification', async () => {
    await session.writeRaw('[{"jsonrpc": "2.0", "id": 40, "method": "ping"}]');
    await session.writeRaw(JSON.stringify({ jsonrpc: '1.0', id: 41, method: 'ping' }));
    await session.writeRaw(JSON.stringify({ jsonrpc: '2.0', id: 42, method: 'ping', extra: true }));
    await session.writeRaw(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized', params: 'x' }));
    expect((await session.answer(41)).error).toMatchObject({ code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0", got "1.0"' });
    expect((await session.answer(42)).error).toMatchObject({ code: -32600 });
    expect(session.nullAnswers().some((line) => /a batch \(JSON array\)/.test(line.error!.message))).toBe(true);
    expect(await session.clock()).toBe(0);
  });

  it('refuses names and texts past the limits as tool errors, through the same client', async () => {
    const longName = await session.client.callTool({ name: 'add_tier', arguments: { name: 't'.repeat(LIMITS.nameChars + 1) } }) as CallToolResult;
    expect(longName.isError).toBe(true);
    expect((longName.content[0] as { text: string }).text).toMatch(/name/);
    expect((longName.content[0] as { text: string }).text).toMatch(/256/);
    const ok = await session.client.callTool({ name: 'add_tier', arguments: { name: 't'.repeat(LIMITS.nameChars) } }) as CallToolResult;
    expect(ok.isError).toBeFalsy();
    const bigBody = await session.client.callTool({
      name: 'add_annotation',
      arguments: { tier: 't'.repeat(LIMITS.nameChars), asset_id: 'a.wav', start_seconds: 0, end_seconds: 1, body: { text: 'b'.repeat(LIMITS.bodyChars) } },
    }) as CallToolResult;
    expect(bigBody.isError).toBe(true);
    expect(bigBody.structuredContent).toMatchObject({ error: { code: 'ANNOT_INVALID_ANNOTATION' } });
    expect((bigBody.content[0] as { text: string }).text).toContain('body: at most 1048576 characters as JSON text');
    expect(await session.clock()).toBe(1);
  });

  it('says each refusal on stderr in one line, never a zod issue list', () => {
    const lines = session.stderr().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^annot mcp: serving/);
    for (const line of lines) expect(line).toMatch(/^annot mcp: /);
    expect(session.stderr()).not.toContain('"code": "invalid_type"');
    expect(lines.filter((line) => line.startsWith('annot mcp: refused')).length).toBeGreaterThanOrEqual(9);
  });
});

describe('annot mcp --max-message', () => {
  it('takes the limit from the flag or ANNOT_MCP_MAX_MESSAGE: a message under it is served, one over it refused', async () => {
    for (const [args, env] of [[['--max-message', '64k'], {}], [[], { ANNOT_MCP_MAX_MESSAGE: '64KiB' }]] as const) {
      const session = await new AbusedSession([...args], env).connect();
      try {
        await session.writeRaw(call(1001, 'add_tier', { name: 'a', metadata: { note: 'n'.repeat(60 * 1024) } }));
        expect((await session.answer(1001)).result).toMatchObject({ structuredContent: { name: 'a' } });
        await session.writeRaw(call(1002, 'add_tier', { name: 'b', metadata: { note: 'n'.repeat(70 * 1024) } }));
        expect((await session.answer(1002)).error).toMatchObject({ code: -32600, data: { limit_bytes: 64 * 1024 } });
        expect(await session.clock()).toBe(1);
      } finally {
        await session.client.close();
        await session.exited;
      }
    }
  });

  it('refuses a size that is not one, in one line at start', async () => {
    const session = new AbusedSession(['--max-message', 'lots']);
    expect(await session.exited).toBe(1);
    expect(session.stderr()).toMatch(/^annot: --max-message: expected a size like 1048576, 512k, 64MiB or 1GB, got "lots" \[ANNOT_INVALID_INPUT\]\n$/);
  });
});

describe('/mcp over HTTP under the same abuse', () => {
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    app = await buildApp({ service: new AnnotationService(new MemoryStore()), mountMcp: mountMcpOverHttp, log: () => {}, maxBodyBytes: 64 * 1024 });
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  const post = async (body: string, contentType = 'application/json'): Promise<{ status: number; json: Raw }> => {
    const response = await fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': contentType, accept: 'application/json, text/event-stream' }, body });
    return { status: response.status, json: (await response.json()) as Raw };
  };

  it('answers bodies it cannot take with JSON-RPC errors, as stdio does', async () => {
    expect(await post('{"jsonrpc": "2.0", "id": 1, "method": ')).toMatchObject({ status: 400, json: { jsonrpc: '2.0', id: null, error: { code: -32700 } } });
    expect(await post(JSON.stringify({ jsonrpc: '2.0', id: 2 }))).toMatchObject({ status: 400, json: { id: 2, error: { code: -32600 } } });
    expect(await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: 'x' }))).toMatchObject({ status: 400, json: { id: 3, error: { code: -32602 } } });
    expect(await post(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 5 } }))).toMatchObject({ status: 400, json: { id: 4, error: { code: -32602 } } });
    const tooLarge = await post(call(5, 'add_tier', { name: 'x'.repeat(100 * 1024) }));
    expect(tooLarge).toMatchObject({ status: 413, json: { id: null, error: { code: -32600, data: { annot_code: 'ANNOT_BODY_TOO_LARGE', limit_bytes: 64 * 1024 } } } });
    expect(await post('x', 'text/plain')).toMatchObject({ status: 415, json: { id: null, error: { code: -32600 } } });
  });
});

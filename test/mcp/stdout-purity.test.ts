import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ANNOT_BIN, runCli } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';

interface Session {
  child: ChildProcessWithoutNullStreams;
  stdoutLines(): string[];
  stderr(): string;
  send(message: unknown): void;
  /** Resolves once a response with this id has appeared on stdout. */
  response(id: number): Promise<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startSession(args: string[]): Session {
  const child = spawn(process.execPath, [ANNOT_BIN, 'mcp', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  const lines = () => out.split('\n').filter((line) => line !== '');
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    for (const line of lines()) {
      try {
        const message = JSON.parse(line) as Record<string, unknown>;
        const resolve = waiting.get(message.id as number);
        if (resolve) resolve(message);
      } catch {
        // judged by the assertions, not here
      }
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return {
    child,
    stdoutLines: lines,
    stderr: () => err,
    send: (message) => child.stdin.write(typeof message === 'string' ? `${message}\n` : `${JSON.stringify(message)}\n`),
    response: (id) => new Promise((resolve) => waiting.set(id, resolve)),
    exited,
  };
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'purity-test', version: '1.0.0' } },
};

function expectOnlyJsonRpc(lines: string[]): Array<Record<string, unknown>> {
  return lines.map((line) => {
    const message = JSON.parse(line) as Record<string, unknown>;
    expect(message.jsonrpc).toBe('2.0');
    expect('result' in message || 'error' in message || 'method' in message).toBe(true);
    return message;
  });
}

describe('annot mcp keeps stdout for the protocol', () => {
  const { dir, cleanup } = tempDir('annot-mcp-purity-');
  const fileArgs = [join(dir, 'purity.annot')];
  afterAll(cleanup);

  it('writes nothing but JSON-RPC messages to stdout, through start-up, errors, garbage input and shutdown', async () => {
    const session = startSession(fileArgs);
    session.send(initialize);
    await session.response(1);
    session.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    session.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    session.send('this is not JSON');
    session.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_annotation', arguments: { annotation_id: 'missing' } } });
    session.send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'add_tier', arguments: { name: 'words' } } });
    session.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } });
    await Promise.all([session.response(2), session.response(3), session.response(4), session.response(5)]);
    session.child.stdin.end();
    const { code } = await session.exited;

    expect(code).toBe(0);
    const messages = expectOnlyJsonRpc(session.stdoutLines());
    const byId = new Map(messages.map((message) => [message.id, message]));
    // The line that is not JSON gets its -32700 parse error (id null: nothing of it could be read).
    expect([...byId.keys()].sort()).toEqual([1, 2, 3, 4, 5, null]);
    expect(byId.get(null)!.error).toMatchObject({ code: -32700 });
    expect((byId.get(2)!.result as { tools: unknown[] }).tools).toHaveLength(11);
    expect(byId.get(3)!.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'annotation missing not found' }] });
    expect(byId.get(4)!.result).toMatchObject({ structuredContent: { name: 'words' }, _meta: { 'annot/clock': 1 } });
    expect(session.stderr()).toMatch(/annot mcp: serving/);
  });

  it('answers a call received just before stdin closes, then exits cleanly', async () => {
    const session = startSession(fileArgs);
    session.send(initialize);
    await session.response(1);
    session.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    session.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'latest_clock', arguments: {} } });
    session.child.stdin.end();
    const { code } = await session.exited;
    expect(code).toBe(0);
    const messages = expectOnlyJsonRpc(session.stdoutLines());
    expect(messages.find((message) => message.id === 2)).toMatchObject({ result: { structuredContent: { clock: expect.any(Number) } } });
  });

  it('stops cleanly on SIGTERM', async () => {
    const session = startSession(fileArgs);
    session.send(initialize);
    await session.response(1);
    session.child.kill('SIGTERM');
    const { code } = await session.exited;
    expect(code).toBe(0);
    expectOnlyJsonRpc(session.stdoutLines());
  });

  it('refuses a file that is not an .annot store on stderr, with nothing on stdout and the file untouched', async () => {
    const notAnnot = join(dir, 'talk.vtt');
    const content = 'WEBVTT\n\n00:00.000 --> 00:01.000\nhello\n';
    writeFileSync(notAnnot, content);
    const result = await runCli(['mcp', notAnnot]);
    expect(readFileSync(notAnnot, 'utf8')).toBe(content);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^annot: .*talk\.vtt/);
  });

  it('refuses FILE and --store together (oclif\'s exclusive sees flags only), without the password', async () => {
    const result = await runCli(['mcp', join(dir, 'x.annot'), '--store', 'postgres://u:secret@127.0.0.1:1/test?project=x']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^annot: mcp takes FILE or --store, not both .*\[ANNOT_USAGE\]\n$/);
    expect(result.stderr).not.toContain('secret');
  });
});

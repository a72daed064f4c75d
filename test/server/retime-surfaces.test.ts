import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { annotMcpTransport, connectTools } from '../mcp/mcp-client.js';
import { runCli } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';
import { eventually, serveCli, type ServedCli } from '../support/serve-cli.js';
import { SseReader } from '../live/sse-client.js';

// One retime, three surfaces, one service function: `annot retime` (a child process), POST /retime
// on a running `annot serve` (a child process, over loopback HTTP) and the `retime` tool of
// `annot mcp` (a child process, driven by the SDK's client), each on its own copy of one .annot
// file, give the same result and leave the same annotations. And a server running on a file sees
// a retime another process makes, live, through its op-log stream.

const TALK = fileURLToPath(new URL('../../fixtures/talk.vtt', import.meta.url));

type ErrorAnswer = { error: { code: string; message: string } };

/** The request each surface is given, in its own spelling. */
const FLAGS = ['--fps-from', '23.976', '--fps-to', '25', '--shift=-3.25', '--within', '3,30', '--tier', 'cues'];
const BODY = { fps_from: '23.976', fps_to: 25, shift: '-3.25', within: ['3', '30'], tier: 'cues' };

describe('POST /retime, the retime MCP tool and annot retime', () => {
  const { dir, cleanup } = tempDir('annot-retime-surfaces-');
  const servers: ServedCli[] = [];
  afterAll(async () => {
    for (const served of servers) await served.stop();
    cleanup();
  });
  const original = join(dir, 'talk.annot');
  let n = 0;
  const copy = () => {
    const path = join(dir, `copy-${n++}.annot`);
    copyFileSync(original, path);
    return path;
  };
  const serve = async (file: string): Promise<string> => {
    const served = await serveCli([file]);
    servers.push(served);
    return served.url;
  };
  const post = (url: string, body: unknown) => fetch(`${url}/retime`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-actor': 'user:test' }, body: JSON.stringify(body) });
  const annotations = async (file: string) => {
    const query = await runCli(['query', file]);
    expect(query.code).toBe(0);
    return query.stdout.trim().split('\n').map((line) => JSON.parse(line));
  };

  beforeAll(async () => {
    expect((await runCli(['convert', TALK, original, '--tier', 'cues'])).code).toBe(0);
  }, 60_000);

  it('give the same result and leave the same annotations', async () => {
    const [byCli, byHttp, byMcp] = [copy(), copy(), copy()];

    const cli = await runCli(['retime', byCli, ...FLAGS, '--json']);
    expect(cli.code).toBe(0);
    const { file, ...fromCli } = JSON.parse(cli.stdout);
    expect(file).toBe(byCli);

    const url = await serve(byHttp);
    const answer = await post(url, BODY);
    expect(answer.status).toBe(200);
    const fromHttp = (await answer.json()) as Record<string, unknown>;
    expect(answer.headers.get('x-service-clock')).toBe(String(fromHttp.clock));

    const tools = await connectTools(annotMcpTransport(byMcp));
    let fromMcp: Record<string, unknown>;
    try {
      const called = await tools.ok('retime', { ...BODY, actor: 'agent:test' });
      fromMcp = called.result;
      expect(called.clock).toBe(fromMcp.clock);
    } finally {
      await tools.close();
    }

    expect(fromCli).toMatchObject({ description: '×960/1001, -3.25 s, within [3 s, 30 s)', moved: 6, cut: 1, dropped: 0, tiers: ['cues'] });
    expect(fromCli.rounded).toBeGreaterThan(0);
    // The same, but that the findings name the strictness as each surface spells it.
    const inWireWords = { ...fromCli, findings: fromCli.findings.map((line: string) => line.replace('--strict-time', 'strict_time')) };
    expect(fromHttp).toEqual(inWireWords);
    expect(fromMcp).toEqual(inWireWords);

    const times = async (path: string) => (await annotations(path)).map(({ id, reference }) => [id, reference.interval.start.s, reference.interval.end.s]);
    const cliTimes = await times(byCli);
    expect(await times(byHttp)).toEqual(cliTimes);
    expect(await times(byMcp)).toEqual(cliTimes);
    // The first cue starts before the window and stays; the second, 3.25 × 960/1001 - 3.25 s, is cut at 0.
    expect(cliTimes.slice(0, 2).map(([, start, end]) => [start, end])).toEqual([['0', '3.25'], ['0', '4.231']]);
  }, 180_000);

  it('refuse the same bad requests in their own words', async () => {
    const file = copy();
    const before = readFileSync(file);
    const url = await serve(file);
    const http = await post(url, { fps_from: 'fast', fps_to: 25 });
    expect(http.status).toBe(400);
    expect(((await http.json()) as ErrorAnswer).error).toMatchObject({ code: 'ANNOT_INVALID_TIME', message: expect.stringMatching(/^fps_from: expected frames per second/) });
    const strict = await post(url, { shift: '-5', strict: true });
    expect(strict.status).toBe(422);
    expect(((await strict.json()) as ErrorAnswer).error).toMatchObject({ code: 'ANNOT_RETIME_BEFORE_ZERO', message: expect.stringMatching(/; strict refuses to drop it/) });
    const kind = await post(url, { shift: true });
    expect(kind.status).toBe(400);
    expect(((await kind.json()) as ErrorAnswer).error.message).toMatch(/^shift: expected a time/);

    const tools = await connectTools(annotMcpTransport(file));
    try {
      expect(await tools.fails('retime', { fps_from: 'fast', fps_to: 25 })).toMatchObject({ code: 'ANNOT_INVALID_TIME', message: expect.stringMatching(/^fps_from: expected frames per second/) });
      expect(await tools.fails('retime', { scale: '1/3', strict_time: true })).toMatchObject({ code: 'ANNOT_LOSSY_TIME', message: expect.stringMatching(/strict_time refuses to round it/) });
    } finally {
      await tools.close();
    }
    const cli = await runCli(['retime', file, '--fps-from', 'fast', '--fps-to', '25']);
    expect(cli.stderr).toMatch(/^annot: --fps-from: expected frames per second/);
    await servers.pop()!.stop();
    expect(readFileSync(file).equals(before)).toBe(true);
  }, 180_000);

  it('a server running on the file sees a retime by another process live, on its op-log stream and in GET /annotations', async () => {
    const file = copy();
    const url = await serve(file);
    const clock = Number(await (await fetch(`${url}/oplog/latest-clock`)).text().then((text) => JSON.parse(text).clock));
    const stream = await SseReader.open(`${url}/oplog/stream?from_clock=${clock + 1}`);
    try {
      const result = await runCli(['retime', file, '--shift', '2.5']);
      expect(result.code).toBe(0);
      await stream.until((s) => s.events.length >= 7);
      const entries = stream.events.map((event) => JSON.parse(event.data));
      expect(entries.map((entry) => [entry.kind, entry.actor])).toEqual(Array(7).fill(['update_annotation', 'cli:retime']));
      await eventually(async () => {
        const listed = (await (await fetch(`${url}/annotations`)).json()) as Array<{ reference: { interval: { start: { s: string } } } }>;
        return listed.map((a) => a.reference.interval.start.s).join(' ') === '2.5 5.75 10.3 13.625 17.5 21.98 24.5';
      }, 'GET /annotations shows the retimed starts');
    } finally {
      await stream.close();
    }
  }, 120_000);
});

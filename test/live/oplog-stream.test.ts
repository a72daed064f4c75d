import { join } from 'node:path';
import { startTestServer, STORE_KINDS, wordInput, WORDS_TIER, type TestServer } from '../server/http-client.js';
import { tempDir } from '../support/sample-annot.js';
import { serveCli, type ServedCli } from '../support/serve-cli.js';
import { SseReader } from './sse-client.js';

const FAST = { live: { pollMs: 20, heartbeatMs: 100 } };

describe.each(STORE_KINDS)('GET /oplog/stream (%s store)', (storeKind) => {
  let t: TestServer;
  const readers: SseReader[] = [];
  const open = async (path: string, headers?: Record<string, string>) => {
    const reader = await SseReader.open(t.url + path, headers);
    readers.push(reader);
    return reader;
  };
  beforeEach(async () => {
    t = await startTestServer({ storeKind, ...FAST });
  });
  afterEach(async () => {
    for (const reader of readers.splice(0)) await reader.close();
    await t.close();
  });

  it('sends each new entry as an event whose id is its clock, with the ETag of the annotation it writes', async () => {
    await t.call('POST', '/tiers', { json: WORDS_TIER });
    const stream = await open('/oplog/stream');
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    const created = await t.call('POST', '/annotations', { json: wordInput('live', 0, 500) });
    await stream.until((s) => s.events.length >= 1);
    const [event] = stream.events;
    expect(event.id).toBe('2');
    const entry = JSON.parse(event.data);
    expect(entry).toMatchObject({ clock: 2, kind: 'add_annotation', target_id: created.json.id, etag: created.headers.get('etag') });
    expect(entry.payload.annotation.body).toEqual({ text: 'live' });
  });

  it('resumes after Last-Event-ID with exactly the missed entries, none twice', async () => {
    await t.call('POST', '/tiers', { json: WORDS_TIER });
    const first = await open('/oplog/stream');
    for (let i = 0; i < 3; i++) await t.call('POST', '/annotations', { json: wordInput(`a${i}`, i * 10, i * 10 + 5) });
    await first.until((s) => s.events.length === 3);
    expect(first.clocks()).toEqual([2, 3, 4]);
    await first.close();

    // While disconnected: two additions, an update and a delete.
    const a = await t.call('POST', '/annotations', { json: wordInput('b0', 100, 105) });
    await t.call('POST', '/annotations', { json: wordInput('b1', 110, 115) });
    const patched = await t.call('PATCH', `/annotations/${a.json.id}`, { json: { body: { text: 'B0' } }, headers: { 'if-match': a.headers.get('etag')! } });
    await t.call('DELETE', `/annotations/${a.json.id}`, { headers: { 'if-match': patched.headers.get('etag')! } });

    const resumed = await open('/oplog/stream', { 'last-event-id': first.events.at(-1)!.id! });
    await resumed.until((s) => s.events.length >= 4);
    await t.call('POST', '/annotations', { json: wordInput('c0', 200, 205) });
    await resumed.until((s) => s.events.length >= 5);
    expect(resumed.clocks()).toEqual([5, 6, 7, 8, 9]);
    expect(resumed.events.map((e) => JSON.parse(e.data).kind)).toEqual(['add_annotation', 'add_annotation', 'update_annotation', 'delete_annotation', 'add_annotation']);
  });

  it('starts at from_clock when there is no Last-Event-ID, and sends heartbeats as comments while idle', async () => {
    await t.call('POST', '/tiers', { json: WORDS_TIER });
    await t.call('POST', '/annotations', { json: wordInput('x', 0, 5) });
    const stream = await open('/oplog/stream?from_clock=1');
    await stream.until((s) => s.events.length === 2 && s.comments.some((c) => c.startsWith('heartbeat')));
    expect(stream.clocks()).toEqual([1, 2]);
  });

  it('refuses a Last-Event-ID that is not a clock, and an unknown query parameter', async () => {
    const bad = await t.call('GET', '/oplog/stream', { headers: { 'last-event-id': 'abc' } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('ANNOT_INVALID_QUERY');
    expect((await t.call('GET', '/oplog/stream?since=3')).status).toBe(400);
  });
});

describe('GET /oplog/stream with --token', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ token: 's3cret', ...FAST });
  });
  afterAll(() => t.close());

  it('takes the token in the Authorization header or as ?token= (EventSource sets no headers), and refuses without', async () => {
    expect((await t.call('GET', '/oplog/stream')).status).toBe(401);
    expect((await t.call('GET', '/oplog/stream?token=wrong')).status).toBe(401);
    // ?token= is for the stream and the media only.
    expect((await t.call('GET', '/tiers?token=s3cret')).status).toBe(401);
    for (const [path, headers] of [['/oplog/stream?token=s3cret', {}], ['/oplog/stream', { authorization: 'Bearer s3cret' }]] as const) {
      const reader = await SseReader.open(t.url + path, headers);
      expect(reader.status).toBe(200);
      await reader.close();
    }
  });
});

describe('GET /oplog/stream on a .annot file written by another process', () => {
  const { dir, cleanup } = tempDir();
  const servers: ServedCli[] = [];
  afterAll(async () => {
    for (const served of servers) await served.stop();
    cleanup();
  });

  const serve = async (file: string): Promise<string> => {
    const served = await serveCli([file]);
    servers.push(served);
    return served.url;
  };

  it('shows edits another annot process makes on the same file', async () => {
    const file = join(dir, 'shared.annot');
    const watched = await serve(file);
    const writer = await serve(file);
    const post = (url: string, path: string, body: unknown) => fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post(writer, '/tiers', WORDS_TIER)).status).toBe(201);
    const stream = await SseReader.open(`${watched}/oplog/stream?from_clock=1`);
    try {
      expect((await post(writer, '/annotations', wordInput('from the other process', 0, 900))).status).toBe(201);
      await stream.until((s) => s.events.length >= 2);
      expect(stream.clocks()).toEqual([1, 2]);
      expect(JSON.parse(stream.events[1].data).payload.annotation.body.text).toBe('from the other process');
    } finally {
      await stream.close();
    }
  });
});

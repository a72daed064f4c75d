import { startTestServer, STORE_KINDS, wordInput, WORDS_TIER, type TestServer } from './http-client.js';

describe.each(STORE_KINDS)('HTTP op-log, state-at, meta, schemas and formats (%s store)', (storeKind) => {
  let t: TestServer;
  beforeEach(async () => {
    t = await startTestServer({ storeKind });
  });
  afterEach(() => t.close());

  it('reports clock 0 for an empty log and the newest clock after mutations', async () => {
    expect((await t.call('GET', '/oplog/latest-clock')).json).toEqual({ clock: 0 });
    await t.call('POST', '/tiers', { json: WORDS_TIER });
    await t.call('POST', '/annotations', { json: wordInput('a', 0, 1) });
    expect((await t.call('GET', '/oplog/latest-clock')).json).toEqual({ clock: 2 });
  });

  it('lists entries with both bounds inclusive, and honours limit', async () => {
    await t.call('POST', '/tiers', { json: WORDS_TIER });
    for (let i = 0; i < 5; i++) await t.call('POST', '/annotations', { json: wordInput(`w${i}`, i, i + 1) });
    const clocks = async (query: string) => ((await t.call('GET', `/oplog${query}`)).json as Array<{ clock: number }>).map((e) => e.clock);
    expect(await clocks('')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await clocks('?from_clock=2&until_clock=4')).toEqual([2, 3, 4]);
    expect(await clocks('?from_clock=6&until_clock=6')).toEqual([6]);
    expect(await clocks('?from_clock=3&limit=2')).toEqual([3, 4]);
    expect(await clocks('?until_clock=0')).toEqual([]);
    const [entry] = (await t.call('GET', '/oplog?from_clock=2&until_clock=2')).json;
    expect(entry).toMatchObject({ clock: 2, kind: 'add_annotation', actor: 'anonymous', payload: { annotation: { body: { text: 'w0' } } } });
    expect(Object.keys(entry).sort()).toEqual(['actor', 'clock', 'kind', 'payload', 'received_at', 'target_id']);
  });

  it.each([['?from_clock=-1'], ['?from_clock=1.5'], ['?until_clock=abc'], ['?limit=0'], ['?limit=100001'], ['?clock=1']])('answers 400 to GET /oplog%s', async (query) => {
    const answer = await t.call('GET', `/oplog${query}`);
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe('ANNOT_INVALID_QUERY');
  });

  it('replays to any clock, and at the latest clock equals GET /tiers + GET /annotations', async () => {
    await t.call('POST', '/tiers', { json: WORDS_TIER });
    const a = await t.call('POST', '/annotations', { json: wordInput('a', 0, 500) });
    const b = await t.call('POST', '/annotations', { json: wordInput('b', 500, 900) });
    await t.call('PATCH', `/annotations/${a.json.id}`, { json: { confidence: 0.25 }, headers: { 'if-match': a.headers.get('etag')! } });
    await t.call('DELETE', `/annotations/${b.json.id}`, { headers: { 'if-match': b.headers.get('etag')! } });
    await t.call('POST', '/tiers', { json: { name: 'notes', stereotype: 'NONE' } });
    await t.call('PUT', '/meta/project', { json: { value: 'demo' } });
    const latest = (await t.call('GET', '/oplog/latest-clock')).json.clock;
    expect(latest).toBe(7);

    const now = (await t.call('GET', `/state-at?clock=${latest}`)).json;
    expect(now).toEqual({ at_clock: 7, tiers: (await t.call('GET', '/tiers')).json, annotations: (await t.call('GET', '/annotations')).json });

    const before = (await t.call('GET', '/state-at?clock=3')).json;
    expect(before.annotations.map((x: { body: { text: string }; confidence: unknown }) => [x.body.text, x.confidence])).toEqual([['a', null], ['b', null]]);
    expect((await t.call('GET', '/state-at?clock=0')).json).toEqual({ at_clock: 0, tiers: [], annotations: [] });
  });

  it('answers 400 to a state-at clock beyond the latest, missing or not a whole number', async () => {
    const beyond = await t.call('GET', '/state-at?clock=1');
    expect(beyond.status).toBe(400);
    expect(beyond.json.error.code).toBe('ANNOT_CLOCK_OUT_OF_RANGE');
    expect((await t.call('GET', '/state-at')).status).toBe(400);
    expect((await t.call('GET', '/state-at?clock=-1')).status).toBe(400);
    expect((await t.call('GET', '/state-at?clock=1e3')).status).toBe(400);
  });

  it('sets and lists metadata; PUT answers the pair and a clock; the op-log records it', async () => {
    const put = await t.call('PUT', '/meta/project', { json: { value: 'demo' } });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ project: 'demo' });
    expect(put.headers.get('x-service-clock')).toBe('1');
    expect((await t.call('GET', '/meta')).json).toMatchObject({ project: 'demo' });
    expect((await t.call('GET', '/oplog')).json[0]).toMatchObject({ kind: 'set_meta', target_id: 'project', payload: { value: 'demo' } });
  });

  it('answers 422 to a meta value that is not a string or has extra keys', async () => {
    for (const json of [{ value: 5 }, { value: 'x', extra: 1 }, {}]) {
      const answer = await t.call('PUT', '/meta/project', { json });
      expect(answer.status).toBe(422);
      expect(answer.json.error.code).toBe('ANNOT_INVALID_BODY');
    }
    expect((await t.call('GET', '/oplog/latest-clock')).json.clock).toBe(0);
  });

  it('lists the registered body schema URIs sorted, and serves one by URI, plain or percent-encoded', async () => {
    const list = (await t.call('GET', '/schemas')).json as string[];
    expect(list).toContain('annot://schema/word/v1');
    expect([...list].sort()).toEqual(list);
    const plain = await t.call('GET', '/schemas/annot://schema/word/v1');
    expect(plain.status).toBe(200);
    expect(plain.json.$id).toBe('annot://schema/word/v1');
    expect((await t.call('GET', `/schemas/${encodeURIComponent('annot://schema/word/v1')}`)).json).toEqual(plain.json);
    const missing = await t.call('GET', '/schemas/annot://schema/nothing/v9');
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('ANNOT_SCHEMA_NOT_FOUND');
  });

  it('lists the registered formats, annot among them', async () => {
    const formats = (await t.call('GET', '/formats')).json as Array<{ name: string; extensions: string[]; media_types: string[] }>;
    expect(formats.find((f) => f.name === 'annot')).toMatchObject({ extensions: ['.annot'], media_types: ['application/x-annot+sqlite'] });
  });

  it('answers 404 in the error shape for an unknown route or method', async () => {
    for (const [method, path] of [['GET', '/nowhere'], ['DELETE', '/tiers']]) {
      const answer = await t.call(method, path);
      expect(answer.status).toBe(404);
      expect(answer.json).toEqual({ error: { code: 'ANNOT_ROUTE_NOT_FOUND', message: expect.stringContaining(path) } });
    }
  });
});

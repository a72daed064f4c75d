import { startTestServer, STORE_KINDS, wordInput, WORDS_TIER, type TestServer } from './http-client.js';

describe.each(STORE_KINDS)('HTTP annotations and tiers (%s store)', (storeKind) => {
  let t: TestServer;
  beforeEach(async () => {
    t = await startTestServer({ storeKind });
    expect((await t.call('POST', '/tiers', { json: WORDS_TIER })).status).toBe(201);
  });
  afterEach(() => t.close());

  const create = async (text: string, start: number, end: number, extra: Record<string, unknown> = {}) => {
    const answer = await t.call('POST', '/annotations', { json: wordInput(text, start, end, extra) });
    expect(answer.status).toBe(201);
    return answer;
  };

  it('answers /health with ok', async () => {
    const answer = await t.call('GET', '/health');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ status: 'ok' });
  });

  it('creates a tier with 201, replaces it with 200, and serves it by name and in the list', async () => {
    const replaced = await t.call('POST', '/tiers', { json: { ...WORDS_TIER, metadata: { lang: 'en' } } });
    expect(replaced.status).toBe(200);
    expect(replaced.headers.get('x-service-clock')).toBe('2');
    expect((await t.call('GET', '/tiers/words')).json).toEqual({ name: 'words', stereotype: 'NONE', parent: null, metadata: { lang: 'en' } });
    expect((await t.call('GET', '/tiers')).json).toHaveLength(1);
  });

  it('answers 404 for a tier that does not exist and 422 for an invalid tier', async () => {
    const missing = await t.call('GET', '/tiers/nope');
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('ANNOT_TIER_NOT_FOUND');
    const invalid = await t.call('POST', '/tiers', { json: { name: 'x', stereotype: 'WRONG' } });
    expect(invalid.status).toBe(422);
    expect(invalid.json.error.code).toBe('ANNOT_INVALID_WIRE');
    const orphan = await t.call('POST', '/tiers', { json: { name: 'x', stereotype: 'INCLUDED_IN', parent: 'ghost' } });
    expect(orphan.status).toBe(422);
    expect(orphan.json.error.code).toBe('ANNOT_UNKNOWN_TIER');
  });

  it('creates an annotation with 201, a Location, an ETag and the clock, filling in id and provenance', async () => {
    const answer = await create('hello', 0, 500, { confidence: 0.5 });
    expect(answer.headers.get('x-service-clock')).toBe('2');
    expect(answer.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(answer.headers.get('location')).toBe(`/annotations/${answer.json.id}`);
    expect(answer.json).toMatchObject({ tier: 'words', body: { text: 'hello' }, confidence: 0.5, provenance: { was_generated_by: 'server:annot', was_attributed_to: 'anonymous' } });
  });

  it('records the X-Actor header as the actor and the attribution', async () => {
    const answer = await t.call('POST', '/annotations', { json: wordInput('hi', 0, 1), headers: { 'x-actor': 'user:ada' } });
    expect(answer.json.provenance.was_attributed_to).toBe('user:ada');
    const [entry] = (await t.call('GET', '/oplog?from_clock=2')).json;
    expect(entry.actor).toBe('user:ada');
  });

  it('refuses a string confidence instead of coercing it (422)', async () => {
    const answer = await t.call('POST', '/annotations', { json: wordInput('hi', 0, 1, { confidence: '0.5' }) });
    expect(answer.status).toBe(422);
    expect(answer.json.error.details.issues).toEqual([expect.objectContaining({ path: 'confidence' })]);
  });

  it('refuses unknown keys instead of dropping them (422), at the top and inside the body', async () => {
    const top = await t.call('POST', '/annotations', { json: wordInput('hi', 0, 1, { colour: 'red' }) });
    expect(top.status).toBe(422);
    expect(top.json.error.message).toContain('colour');
    const inBody = await t.call('POST', '/annotations', { json: { ...wordInput('hi', 0, 1), body: { text: 'hi', colour: 'red' } } });
    expect(inBody.status).toBe(422);
    expect(inBody.json.error.code).toBe('ANNOT_BODY_VALIDATION');
  });

  it('answers 422 for an unknown tier or body schema, 409 for a duplicate id', async () => {
    expect((await t.call('POST', '/annotations', { json: wordInput('hi', 0, 1, { tier: 'ghost' }) })).status).toBe(422);
    expect((await t.call('POST', '/annotations', { json: wordInput('hi', 0, 1, { body_schema_uri: 'annot://schema/nothing/v1' }) })).status).toBe(422);
    const first = await create('hi', 0, 1);
    const again = await t.call('POST', '/annotations', { json: wordInput('hi', 0, 1, { id: first.json.id }) });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('ANNOT_DUPLICATE_ID');
  });

  it('answers 400 for malformed JSON, 415 for another content type, 400 for a JSON array', async () => {
    const malformed = await t.call('POST', '/annotations', { body: '{"tier": ', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.code).toBe('ANNOT_MALFORMED_BODY');
    const text = await t.call('POST', '/annotations', { body: 'tier=words', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.json.error.code).toBe('ANNOT_UNSUPPORTED_MEDIA_TYPE');
    expect((await t.call('POST', '/annotations', { json: [] })).status).toBe(400);
  });

  it('gets an annotation with the same ETag the create answered, and 404 once it is gone', async () => {
    const created = await create('hi', 0, 1);
    const got = await t.call('GET', `/annotations/${created.json.id}`);
    expect(got.status).toBe(200);
    expect(got.headers.get('etag')).toBe(created.headers.get('etag'));
    expect(got.json).toEqual(created.json);
    expect((await t.call('GET', '/annotations/00000000-0000-4000-8000-00000000dead')).status).toBe(404);
  });

  it('patches with If-Match: a new ETag and clock, and the old ETag is then stale (412)', async () => {
    const created = await create('hi', 0, 1);
    const path = `/annotations/${created.json.id}`;
    const etag = created.headers.get('etag')!;
    const patched = await t.call('PATCH', path, { json: { body: { text: 'hello' }, confidence: 1 }, headers: { 'if-match': etag } });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ id: created.json.id, body: { text: 'hello' }, confidence: 1, provenance: created.json.provenance });
    expect(patched.headers.get('etag')).not.toBe(etag);
    expect(Number(patched.headers.get('x-service-clock'))).toBeGreaterThan(Number(created.headers.get('x-service-clock')));
    const stale = await t.call('PATCH', path, { json: { confidence: 0 }, headers: { 'if-match': etag } });
    expect(stale.status).toBe(412);
    expect(stale.json.error.details.current_etag).toBe(patched.headers.get('etag'));
    expect((await t.call('GET', path)).json.confidence).toBe(1);
  });

  it('answers 428 to a PATCH without If-Match and changes nothing', async () => {
    const created = await create('hi', 0, 1);
    const answer = await t.call('PATCH', `/annotations/${created.json.id}`, { json: { confidence: 0 } });
    expect(answer.status).toBe(428);
    expect(answer.json.error.code).toBe('ANNOT_PRECONDITION_REQUIRED');
    expect((await t.call('GET', `/annotations/${created.json.id}`)).json).toEqual(created.json);
    expect((await t.call('GET', '/oplog/latest-clock')).json).toEqual({ clock: 2 });
  });

  it('validates a PATCH body like a create: no coercion, no unknown keys, no id change (422)', async () => {
    const created = await create('hi', 0, 1);
    const headers = { 'if-match': created.headers.get('etag')! };
    const path = `/annotations/${created.json.id}`;
    expect((await t.call('PATCH', path, { json: { confidence: '1' }, headers })).status).toBe(422);
    expect((await t.call('PATCH', path, { json: { colour: 'red' }, headers })).status).toBe(422);
    expect((await t.call('PATCH', path, { json: { id: '00000000-0000-4000-8000-000000000001' }, headers })).status).toBe(422);
    expect((await t.call('PATCH', path, { json: { body: { text: 5 } }, headers })).status).toBe(422);
    expect((await t.call('GET', path)).headers.get('etag')).toBe(headers['if-match']);
  });

  it('lets exactly one of two concurrent PATCHes with the same ETag win; the other gets 412', async () => {
    const created = await create('hi', 0, 1);
    const headers = { 'if-match': created.headers.get('etag')! };
    const path = `/annotations/${created.json.id}`;
    const answers = await Promise.all([
      t.call('PATCH', path, { json: { body: { text: 'one' } }, headers }),
      t.call('PATCH', path, { json: { body: { text: 'two' } }, headers }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
    const winner = answers.find((a) => a.status === 200)!;
    expect((await t.call('GET', path)).json.body).toEqual(winner.json.body);
  });

  it('deletes with 204 and a clock; a second delete is 404; a stale If-Match refuses the delete; none is 428', async () => {
    const kept = await create('kept', 0, 1);
    await t.call('PATCH', `/annotations/${kept.json.id}`, { json: { confidence: 1 }, headers: { 'if-match': kept.headers.get('etag')! } });
    const staleDelete = await t.call('DELETE', `/annotations/${kept.json.id}`, { headers: { 'if-match': kept.headers.get('etag')! } });
    expect(staleDelete.status).toBe(412);
    const gone = await create('gone', 0, 1);
    const unconditional = await t.call('DELETE', `/annotations/${gone.json.id}`);
    expect(unconditional.status).toBe(428);
    expect(unconditional.json.error.code).toBe('ANNOT_PRECONDITION_REQUIRED');
    const deleted = await t.call('DELETE', `/annotations/${gone.json.id}`, { headers: { 'if-match': gone.headers.get('etag')! } });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect(Number(deleted.headers.get('x-service-clock'))).toBe(5);
    expect((await t.call('DELETE', `/annotations/${gone.json.id}`)).status).toBe(404);
  });

  it('answers every mutation with a strictly increasing X-Service-Clock', async () => {
    const clocks: number[] = [];
    const record = (answer: { headers: Headers }) => clocks.push(Number(answer.headers.get('x-service-clock')));
    record(await t.call('POST', '/tiers', { json: { name: 'notes', stereotype: 'NONE' } }));
    const a = await create('a', 0, 1);
    record(a);
    record(await t.call('PATCH', `/annotations/${a.json.id}`, { json: { confidence: 1 }, headers: { 'if-match': a.headers.get('etag')! } }));
    record(await t.call('PUT', '/meta/project', { json: { value: 'demo' } }));
    const current = await t.call('GET', `/annotations/${a.json.id}`);
    record(await t.call('DELETE', `/annotations/${a.json.id}`, { headers: { 'if-match': current.headers.get('etag')! } }));
    expect(clocks).toEqual([2, 3, 4, 5, 6]);
  });

  describe('listing', () => {
    beforeEach(async () => {
      await t.call('POST', '/tiers', { json: { name: 'notes', stereotype: 'NONE' } });
      await create('a', 0, 500);
      await create('b', 500, 1250);
      await create('c', 5000, 6000);
      await t.call('POST', '/annotations', { json: { ...wordInput('n', 400, 700), tier: 'notes', body: { text: 'n' }, body_schema_uri: 'annot://schema/label/v1' } });
    });
    const texts = (answer: { json: Array<{ body: { text: string } }> }) => answer.json.map((a) => a.body.text);

    it('lists everything without a window, and one tier with tier=', async () => {
      expect(texts(await t.call('GET', '/annotations'))).toEqual(['a', 'b', 'c', 'n']);
      expect(texts(await t.call('GET', '/annotations?tier=notes'))).toEqual(['n']);
    });

    it('takes a window in decimal seconds, parsed exactly; intersects by default', async () => {
      expect(texts(await t.call('GET', '/annotations?start=0.5&end=5'))).toEqual(['n', 'b']);
      expect(texts(await t.call('GET', '/annotations?start=0.5&end=5&tier=words'))).toEqual(['b']);
    });

    it('takes any of the 13 Allen relations, the annotation being the left operand', async () => {
      expect(texts(await t.call('GET', '/annotations?start=0.5&end=1.25&relation=equals'))).toEqual(['b']);
      expect(texts(await t.call('GET', '/annotations?start=0.5&end=1.25&relation=met_by'))).toEqual([]);
      expect(texts(await t.call('GET', '/annotations?start=0.5&end=1.25&relation=meets'))).toEqual(['a']);
      expect(texts(await t.call('GET', '/annotations?start=0&end=10&relation=during'))).toEqual(['n', 'b', 'c']);
      expect(texts(await t.call('GET', '/annotations?start=1.25&end=2&relation=after'))).toEqual(['c']);
    });

    it('cuts the list at limit and says so in X-Annot-Truncated', async () => {
      const cut = await t.call('GET', '/annotations?limit=2');
      expect(texts(cut)).toEqual(['a', 'b']);
      expect(cut.headers.get('x-annot-truncated')).toBe('true');
      expect((await t.call('GET', '/annotations?limit=4')).headers.get('x-annot-truncated')).toBeNull();
    });

    it.each([
      ['start without end', '?start=0', 'ANNOT_INVALID_QUERY'],
      ['an unknown relation', '?start=0&end=1&relation=near', 'ANNOT_UNKNOWN_RELATION'],
      ['a time that is not a number', '?start=zero&end=1', 'ANNOT_INVALID_TIME'],
      ['a time the rate cannot hold', '?start=0.0005&end=1&rate=1000', 'ANNOT_LOSSY_TIME'],
      ['a rate that is not a positive integer', '?rate=1.5', 'ANNOT_INVALID_QUERY'],
      ['a limit of 0', '?limit=0', 'ANNOT_INVALID_QUERY'],
      ['an unknown parameter', '?tiers=words', 'ANNOT_INVALID_QUERY'],
      ['a repeated parameter', '?tier=a&tier=b', 'ANNOT_INVALID_QUERY'],
    ])('answers 400 for %s', async (_what, query, code) => {
      const answer = await t.call('GET', `/annotations${query}`);
      expect(answer.status).toBe(400);
      expect(answer.json.error.code).toBe(code);
    });
  });
});

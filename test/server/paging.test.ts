import { makeAnnotation, mediaRef } from '../../src/model/annotation.js';
import { makeTier } from '../../src/model/tier.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { startTestServer, wordInput, WORDS_TIER, type Answer, type TestServer } from './http-client.js';

const nextLink = (answer: Answer): string | null => {
  const link = answer.headers.get('link');
  if (link === null) return null;
  const match = /^<([^>]+)>; rel="next"$/.exec(link);
  expect(match).not.toBeNull();
  return match![1];
};

describe('HTTP listing pages with an opaque cursor', () => {
  let t: TestServer;
  afterEach(() => t.close());

  // 250 pages, as many cursors as 250,000 annotations in pages of 1,000 would take, at a fifth of
  // the data: the cursors are what is under test, and the data cost most of the suite's CPU time.
  it('reads 50,000 annotations in pages of 200, every id once', async () => {
    t = await startTestServer();
    const total = 50_000;
    await t.store.addTier(makeTier({ name: 'words' }));
    const at = new RationalTime(1_700_000_000_000, 1000);
    function* generate() {
      for (let i = 0; i < total; i++) {
        yield makeAnnotation({
          tier: 'words',
          reference: mediaRef('talk.wav', new TimeInterval(new RationalTime(i, 1000), new RationalTime(i + 1, 1000))),
          body: { text: `w${i}` },
          body_schema_uri: 'annot://schema/word/v1',
          provenance: { was_generated_by: 'user:test', generated_at_time: at },
        });
      }
    }
    expect(await t.store.addMany(generate())).toBe(total);
    const seen = new Set<string>();
    let repeated = 0;
    let path: string | null = '/annotations?limit=200';
    let pages = 0;
    while (path !== null) {
      const answer: Answer = await t.call('GET', path);
      expect(answer.status).toBe(200);
      for (const annotation of answer.json as Array<{ id: string }>) {
        if (seen.has(annotation.id)) repeated++;
        seen.add(annotation.id);
      }
      pages++;
      path = nextLink(answer);
    }
    expect(repeated).toBe(0);
    expect(seen.size).toBe(total);
    expect(pages).toBe(250);
  }, 600_000);

  it.each([['the full listing', ''], ['a tier listing', 'tier=words&']])('%s: keeps the filters in the next link, sees appended annotations, skips none when the last one is deleted', async (_what, filter) => {
    t = await startTestServer();
    await t.call('POST', '/tiers', { json: WORDS_TIER });
    const created: Array<{ id: string; etag: string }> = [];
    for (let i = 0; i < 7; i++) {
      const answer = await t.call('POST', '/annotations', { json: wordInput(`w${i}`, i * 100, i * 100 + 50) });
      created.push({ id: answer.json.id, etag: answer.headers.get('etag')! });
    }
    const first = await t.call('GET', `/annotations?${filter}limit=3`);
    expect(first.json.map((a: { body: { text: string } }) => a.body.text)).toEqual(['w0', 'w1', 'w2']);
    const next = nextLink(first)!;
    expect(next).toMatch(new RegExp(`^/annotations\\?${filter}limit=3&after=[A-Za-z0-9_-]+$`));
    // The last annotation of the page is deleted, one is appended: the next page neither skips nor repeats.
    expect((await t.call('DELETE', `/annotations/${created[2].id}`, { headers: { 'if-match': created[2].etag } })).status).toBe(204);
    await t.call('POST', '/annotations', { json: wordInput('w7', 700, 750) });
    const second = await t.call('GET', next);
    expect(second.json.map((a: { body: { text: string } }) => a.body.text)).toEqual(['w3', 'w4', 'w5']);
    const third = await t.call('GET', nextLink(second)!);
    expect(third.json.map((a: { body: { text: string } }) => a.body.text)).toEqual(['w6', 'w7']);
    expect(nextLink(third)).toBeNull();
  });

  it('refuses a cursor that is not one, one of other filters, and one of an earlier annot, saying which', async () => {
    t = await startTestServer();
    await t.call('POST', '/tiers', { json: WORDS_TIER });
    for (let i = 0; i < 3; i++) await t.call('POST', '/annotations', { json: wordInput(`w${i}`, i * 100, i * 100 + 50) });
    const bad = await t.call('GET', '/annotations?after=nonsense');
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: 'ANNOT_INVALID_CURSOR', details: { parameter: 'after' } });
    expect(bad.json.error.message).toMatch(/not a cursor.*Link: rel="next"/);
    const cursor = new URL(nextLink(await t.call('GET', '/annotations?limit=1'))!, t.url).searchParams.get('after')!;
    const other = await t.call('GET', `/annotations?tier=words&after=${cursor}`);
    expect(other.status).toBe(400);
    expect(other.json.error).toMatchObject({ code: 'ANNOT_INVALID_CURSOR', details: { parameter: 'after' } });
    expect(other.json.error.message).toMatch(/other filters/);
    // The cursors of the offset engine this keyset paging replaced: refused with a message that says so.
    const old = Buffer.from(JSON.stringify({ o: 1, id: '00000000-0000-4000-8000-000000000001', q: 'abc' })).toString('base64url');
    const earlier = await t.call('GET', `/annotations?after=${old}`);
    expect(earlier.status).toBe(400);
    expect(earlier.json.error.message).toMatch(/earlier annot.*first page/);
  });

  it('pages a window by its keys: the same window spelled otherwise keeps its cursor, deletes between pages skip nothing', async () => {
    t = await startTestServer();
    await t.call('POST', '/tiers', { json: WORDS_TIER });
    const created: Array<{ id: string; etag: string }> = [];
    for (let i = 0; i < 6; i++) {
      const answer = await t.call('POST', '/annotations', { json: wordInput(`w${i}`, i * 100, i * 100 + 50) });
      created.push({ id: answer.json.id, etag: answer.headers.get('etag')! });
    }
    const first = await t.call('GET', '/annotations?start=0&end=1&limit=2');
    expect(first.json.map((a: { body: { text: string } }) => a.body.text)).toEqual(['w0', 'w1']);
    const after = new URL(nextLink(first)!, t.url).searchParams.get('after')!;
    expect((await t.call('DELETE', `/annotations/${created[1].id}`, { headers: { 'if-match': created[1].etag } })).status).toBe(204);
    const second = await t.call('GET', `/annotations?start=00:00:00.000&end=1.0&limit=4&after=${after}`);
    expect(second.status).toBe(200);
    expect(second.json.map((a: { body: { text: string } }) => a.body.text)).toEqual(['w2', 'w3', 'w4', 'w5']);
    expect(nextLink(second)).toBeNull();
  });

  it('answers a tier that does not exist with 404, the tiers there are and the nearest name', async () => {
    t = await startTestServer();
    await t.call('POST', '/tiers', { json: WORDS_TIER });
    for (const path of ['/annotations?tier=word', '/annotations?tier=word&start=0&end=10']) {
      const answer = await t.call('GET', path);
      expect(answer.status).toBe(404);
      expect(answer.json.error.code).toBe('ANNOT_TIER_NOT_FOUND');
      expect(answer.json.error.message).toBe('the store has no tier "word"; did you mean "words"? (tiers: words)');
    }
  });
});

describe('HTTP conditional requests', () => {
  let t: TestServer;
  beforeEach(async () => {
    t = await startTestServer();
    await t.call('POST', '/tiers', { json: WORDS_TIER });
  });
  afterEach(() => t.close());

  it('answers GET with If-None-Match equal to the current ETag with 304, and 200 once it changed', async () => {
    const created = await t.call('POST', '/annotations', { json: wordInput('a', 0, 500) });
    const path = `/annotations/${created.json.id}`;
    const etag = created.headers.get('etag')!;
    const unchanged = await t.call('GET', path, { headers: { 'if-none-match': etag } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
    expect(unchanged.headers.get('etag')).toBe(etag);
    expect((await t.call('GET', path, { headers: { 'if-none-match': `"other", W/${etag}` } })).status).toBe(304);
    expect((await t.call('GET', path, { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
    await t.call('PATCH', path, { json: { confidence: 0.5 }, headers: { 'if-match': etag } });
    const changed = await t.call('GET', path, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.json.confidence).toBe(0.5);
  });

  it('requires If-Match on DELETE: 428 without, 412 when stale, 404 for a missing annotation', async () => {
    const created = await t.call('POST', '/annotations', { json: wordInput('a', 0, 500) });
    const path = `/annotations/${created.json.id}`;
    expect((await t.call('DELETE', path)).status).toBe(428);
    expect((await t.call('DELETE', path, { headers: { 'if-match': '"stale"' } })).status).toBe(412);
    expect((await t.call('DELETE', '/annotations/00000000-0000-4000-8000-000000000099')).status).toBe(404);
    expect((await t.call('DELETE', path, { headers: { 'if-match': created.headers.get('etag')! } })).status).toBe(204);
  });
});

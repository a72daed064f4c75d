import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRange } from '../../src/server/routes/media.js';
import { startTestServer, type TestServer } from '../server/http-client.js';
import { tempDir } from '../support/sample-annot.js';
import { toneWav } from './browser.js';

describe('GET /media (annot serve --media)', () => {
  const { dir, cleanup } = tempDir();
  const wav = toneWav(1);
  let t: TestServer;
  beforeAll(async () => {
    const path = join(dir, 'tone.wav');
    writeFileSync(path, wav);
    t = await startTestServer({ live: { media: path }, token: 'tok' });
  });
  afterAll(async () => {
    await t.close();
    cleanup();
  });
  const get = (headers: Record<string, string> = {}, query = '?token=tok') => fetch(`${t.url}/media${query}`, { headers });

  it('sends the whole file with Accept-Ranges and its media type', async () => {
    const response = await get();
    expect(response.status).toBe(200);
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await response.arrayBuffer()).equals(wav)).toBe(true);
  });

  it.each([
    ['bytes=0-99', 0, 99],
    ['bytes=100-', 100, wav.length - 1],
    ['bytes=-10', wav.length - 10, wav.length - 1],
    [`bytes=50-${wav.length + 500}`, 50, wav.length - 1],
  ])('answers Range %s with 206 and exactly those bytes', async (range, start, end) => {
    const response = await get({ range });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes ${start}-${end}/${wav.length}`);
    expect(response.headers.get('content-length')).toBe(String(end - start + 1));
    expect(Buffer.from(await response.arrayBuffer()).equals(wav.subarray(start, end + 1))).toBe(true);
  });

  it('answers 416 with the size to a range past the end', async () => {
    const response = await get({ range: `bytes=${wav.length}-` });
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe(`bytes */${wav.length}`);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('ANNOT_RANGE_NOT_SATISFIABLE');
  });

  it('needs the token (header or ?token=, which a media element can carry)', async () => {
    expect((await get({}, '')).status).toBe(401);
    expect((await get({ authorization: 'Bearer tok' }, '')).status).toBe(200);
  });

  it('serves the page to anyone: it asks for the token itself', async () => {
    const page = await fetch(`${t.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('"media":{"url":"/media","element":"audio","frame_duration":null}');
    const script = await fetch(`${t.url}/page/app.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await fetch(`${t.url}/page/..%2Fsecret.js`)).status).toBe(404);
  });
});

describe('parseRange', () => {
  it('reads the forms a media element sends, and leaves the rest to a whole answer', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-0', 100)).toEqual({ start: 0, end: 0 });
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
    expect(parseRange('bytes=5-2', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
  });
});

describe('GET /media without --media', () => {
  it('answers 404 saying how to give media', async () => {
    const t = await startTestServer();
    try {
      const answer = await t.call('GET', '/media');
      expect(answer.status).toBe(404);
      expect(answer.json.error.message).toContain('--media');
    } finally {
      await t.close();
    }
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/sqlite.js';
import { overLimitFiles } from '../support/over-limit-files.js';
import { tempDir, writeSampleAnnot } from '../support/sample-annot.js';
import { startTestServer, wordInput, WORDS_TIER, type TestServer } from './http-client.js';

describe('HTTP import and export', () => {
  const { dir, cleanup } = tempDir();
  const sample = join(dir, 'talk.annot');
  let bytes: Buffer;
  let t: TestServer;
  beforeAll(async () => {
    await writeSampleAnnot(sample);
    bytes = readFileSync(sample);
  });
  afterAll(cleanup);
  beforeEach(async () => {
    t = await startTestServer({ maxImportBytes: 1024 * 1024 });
  });
  afterEach(() => t.close());

  it('imports a file sent as the raw body (201), logging every tier and annotation it adds', async () => {
    const answer = await t.call('POST', '/import?format=annot', { body: bytes, headers: { 'content-type': 'application/octet-stream' } });
    expect(answer.status).toBe(201);
    expect(answer.json).toMatchObject({ format: 'annot', annotations_added: 6, tiers_added: 2, clock: 8, warnings: [] });
    expect(answer.headers.get('x-service-clock')).toBe('8');
    expect((await t.call('GET', '/annotations')).json).toHaveLength(6);
    // Imports are in the op-log, so time travel covers them.
    expect((await t.call('GET', '/state-at?clock=8')).json.annotations).toEqual((await t.call('GET', '/annotations')).json);
  });

  it('imports a file sent as the multipart field "file", sniffing the format when none is named', async () => {
    const form = new FormData();
    form.append('note', 'ignored field before the file');
    form.append('file', new Blob([bytes]), 'talk.annot');
    form.append('after', 'ignored field after the file');
    const answer = await t.call('POST', '/import', { body: form });
    expect(answer.status).toBe(201);
    expect(answer.json).toMatchObject({ format: 'annot', annotations_added: 6 });
  });

  it('keeps tiers the store already has and counts only the new ones', async () => {
    await t.call('POST', '/tiers', { json: { ...WORDS_TIER, metadata: { mine: true } } });
    const answer = await t.call('POST', '/import?format=annot', { body: bytes });
    expect(answer.json.tiers_added).toBe(1);
    expect((await t.call('GET', '/tiers/words')).json.metadata).toEqual({ mine: true });
  });

  it('answers 400 for a multipart body without a file field and for an unknown format', async () => {
    const form = new FormData();
    form.append('other', new Blob([bytes]), 'talk.annot');
    const noFile = await t.call('POST', '/import?format=annot', { body: form });
    expect(noFile.status).toBe(400);
    expect(noFile.json.error.message).toContain('"file"');
    const unknown = await t.call('POST', '/import?format=nope', { body: bytes });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.code).toBe('ANNOT_UNKNOWN_FORMAT');
  });

  it('answers 422 for a file that is not in the format it claims, and adds nothing', async () => {
    const answer = await t.call('POST', '/import?format=annot', { body: 'not a database at all' });
    expect(answer.status).toBe(422);
    expect((await t.call('GET', '/oplog/latest-clock')).json.clock).toBe(0);
  });

  it('answers 413 for an upload over the import limit, declared or streamed', async () => {
    const big = Buffer.alloc(1024 * 1024 + 1, 0x61);
    const declared = await t.call('POST', '/import?format=annot', { body: big });
    expect(declared.status).toBe(413);
    expect(declared.json.error).toMatchObject({ code: 'ANNOT_BODY_TOO_LARGE', details: { limit_bytes: 1024 * 1024 } });
    const streamed = await fetch(`${t.url}/import?format=annot`, {
      method: 'POST',
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < 20; i++) controller.enqueue(new Uint8Array(64 * 1024));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    await streamed.text();
  });

  it('exports the store as an attachment with its media type; the file loads back with the same annotations', async () => {
    await t.call('POST', '/tiers', { json: WORDS_TIER });
    await t.call('POST', '/annotations', { json: wordInput('a', 0, 500) });
    await t.call('POST', '/annotations', { json: wordInput('b', 500, 750) });
    const response = await fetch(`${t.url}/export?format=annot`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-annot+sqlite');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="export.annot"');
    const file = join(dir, 'exported.annot');
    writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    const store = await SqliteStore.open(file, { readonly: true });
    try {
      const texts: string[] = [];
      for await (const annotation of store.all()) texts.push(String(annotation.body.text));
      expect(texts).toEqual(['a', 'b']);
    } finally {
      await store.close();
    }
  });

  it('answers 400 to an export without a format or with an unknown one', async () => {
    expect((await t.call('GET', '/export')).json.error.code).toBe('ANNOT_INVALID_QUERY');
    expect((await t.call('GET', '/export?format=nope')).status).toBe(400);
  });

  it('imports ASS, TTML and SBV (named or sniffed) and exports the store as each of them, with its media type', async () => {
    const fixture = (...path: string[]) => readFileSync(join(process.cwd(), 'fixtures', ...path));
    const ass = await t.call('POST', '/import', { body: fixture('ass', 'features.ass') });
    expect(ass.status).toBe(201);
    expect(ass.json).toMatchObject({ format: 'ass', annotations_added: 7, tiers_added: 1 });
    const ttml = await t.call('POST', '/import?format=ttml&tier=ttml', { body: fixture('ttml', 'features.ttml') });
    expect(ttml.json).toMatchObject({ format: 'ttml', annotations_added: 6 });
    const sbv = await t.call('POST', '/import?tier=sbv', { body: '0:00:01.000,0:00:03.500\nHello\n' });
    expect(sbv.json).toMatchObject({ format: 'sbv', annotations_added: 1 });
    for (const [format, type, signature] of [['ass', 'text/x-ssa', '[Script Info]'], ['ttml', 'application/ttml+xml', '<tt xmlns="http://www.w3.org/ns/ttml"'], ['sbv', 'text/x-sbv', '0:00:01.000,0:00:03.500\nHello']]) {
      const exported = await fetch(`${t.url}/export?format=${format}`);
      expect(exported.status).toBe(200);
      expect(exported.headers.get('content-type')).toContain(type);
      expect(await exported.text()).toContain(signature);
    }
  });

  it('imports a WebVTT file into a tier and exports it back as text/vtt', async () => {
    const vtt = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nhello\n\n00:00:03.000 --> 00:00:04.000\nworld\n';
    const answer = await t.call('POST', '/import?format=webvtt&tier=cues&asset_id=talk.wav', { body: vtt, headers: { 'content-type': 'text/vtt' } });
    expect(answer.status).toBe(201);
    expect(answer.json.annotations_added).toBe(2);
    const exported = await fetch(`${t.url}/export?format=webvtt`);
    expect(exported.headers.get('content-type')).toContain('text/vtt');
    expect(await exported.text()).toContain('hello');
  });
});

describe('HTTP import of a file past the limits', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ maxImportBytes: 16 * 1024 * 1024 });
  });
  afterAll(() => t.close());

  it.each(overLimitFiles().filter((file) => ['second.vtt', 'tier.TextGrid', 'value.jams', 'value.eaf'].includes(file.name)))(
    '$title: 422 naming the upload and the place in it, and nothing added',
    async (file) => {
      const format = { vtt: 'webvtt', TextGrid: 'textgrid', jams: 'jams', eaf: 'eaf' }[file.name.split('.').pop() as string] as string;
      const answer = await t.call('POST', `/import?format=${format}`, { body: file.content });
      expect(answer.status).toBe(422);
      const expected = `upload.${format}${file.refusal}`;
      expect(answer.json.error.message.slice(0, expected.length)).toBe(expected);
      expect((await t.call('GET', '/annotations')).json).toEqual([]);
      expect((await t.call('GET', '/tiers')).json).toEqual([]);
    },
  );
});

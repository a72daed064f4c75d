import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { annotationRef, makeAnnotation, mediaRef, type Annotation } from '../../src/model/annotation.js';
import { makeTier } from '../../src/model/tier.js';
import { annotationToOutput, annotationToWire } from '../../src/model/wire.js';
import { annotationsToWireJson } from '../../src/model/wire-json.js';
import { startServer } from '../../src/server/serve.js';
import { annotationWireJson } from '../../src/model/wire-json.js';
import { queryAnnotations } from '../../src/service/query-annotations.js';
import type { ReadPosition, ReadQuery } from '../../src/store/read-page.js';
import { MemoryStore } from '../../src/store/memory.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import type { AnnotationStore } from '../../src/store/store.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';

// GET /annotations reads the store's `wire-json` form: on an .annot file, texts built from the rows
// (sqlite-wire-json.ts), cached, and found through the interval index in SQLite or, once warm, in
// memory. Its bytes must be exactly what the object path gives: JSON.stringify of the output forms
// of the `objects` form. A fixture store with the awkward cases (rates, points, ties, escapes,
// confidences, derivations, references) is queried both ways.

const GEN = new RationalTime(1_700_000_000_123, 1000);
const TEXTS = ['plain', 'tab\there', 'line\nbreak', 'quote " and \\ backslash', 'ünïcödé 😀', '\u2028\u2029', '\u0001ctl', 'lone \ud800 surrogate'];

function fixture(): Annotation[] {
  const out: Annotation[] = [];
  const rates = [1000, 48_000, 30, 25, 1];
  for (let i = 0; i < 600; i++) {
    const rate = rates[i % rates.length];
    const start = Math.floor((i * 37 % 600) * rate / 10);
    const length = i % 11 === 0 ? 0 : Math.max(1, Math.floor(((i % 7) + 1) * rate / 20));
    const interval = new TimeInterval(new RationalTime(start, rate), new RationalTime(start + length, rate));
    const annotation = makeAnnotation({
      id: `00000000-0000-4000-8000-${(i % 300 === 5 ? 999_999 - i : i + 1).toString(16).padStart(12, '0')}`,
      tier: i % 3 === 0 ? 'words' : i % 3 === 1 ? 'lines' : 'tïer "x"',
      reference: mediaRef(i % 2 ? 'talk.wav' : 'sha256:' + 'ab'.repeat(32), interval),
      body: i % 4 === 0 ? { text: TEXTS[i % TEXTS.length], n: i / 7, big: 1e21, nested: { a: [1, null, true, { '1': 'x', b: -0 }] } } : { text: TEXTS[i % TEXTS.length] },
      body_schema_uri: 'annot://schema/label/v1',
      provenance: { was_generated_by: i % 5 ? 'user:a' : 'model:whisper\tv3', was_attributed_to: 'user:b', was_derived_from: i % 6 === 0 ? ['sha256:' + 'cd'.repeat(32), 'x'] : [], generated_at_time: i % 2 ? GEN : new RationalTime(7, 3) },
      confidence: i % 3 === 0 ? null : (i % 97) / 97,
    });
    out.push(annotation);
  }
  // Two with the very same interval (ties broken by id) and references, which windows never return.
  out.push(makeAnnotation({ id: '00000000-0000-4000-8000-00000000ffff', tier: 'words', reference: mediaRef('talk.wav', out[3].reference.kind === 'media' ? out[3].reference.interval : new TimeInterval(new RationalTime(0, 1), new RationalTime(1, 1))), body: { text: 'tie' }, body_schema_uri: 'annot://schema/label/v1', provenance: { was_generated_by: 'user:a', generated_at_time: GEN } }));
  out.push(makeAnnotation({ tier: 'notes', reference: annotationRef(out[0].id), body: { text: 'note' }, body_schema_uri: 'annot://schema/label/v1', provenance: { was_generated_by: 'user:a', generated_at_time: GEN } }));
  return out;
}

const WINDOWS: Array<Record<string, string>> = [
  { start: '0', end: '10' },
  { start: '0', end: '60' },
  { start: '3.7', end: '3.7' },
  { start: '12.3', end: '17.9' },
  { start: '12.3', end: '17.9', tier: 'words' },
  { start: '12.3', end: '17.9', tier: 'tïer "x"' },
  { start: '59', end: '61' },
  { start: '1000', end: '2000' },
  { start: '0.1', end: '0.2', rate: '48000' },
  { start: '0', end: '60', limit: '7' },
  { start: '0', end: '60', relation: 'during' },
];

async function fill(store: AnnotationStore): Promise<void> {
  for (const name of ['words', 'lines', 'tïer "x"', 'notes']) await store.addTier(makeTier({ name }));
  await store.addMany(fixture());
}

/** The answer as the object path gives it: JSON.stringify of the wire forms, limited like the route. */
async function objectPath(store: AnnotationStore, params: Record<string, string>, seconds = true): Promise<string> {
  const found: Annotation[] = [];
  const limit = Number(params.limit ?? 1000);
  for await (const annotation of queryAnnotations(store, { ...params, rate: params.rate === undefined ? undefined : Number(params.rate) })) {
    if (found.length === limit) break;
    found.push(annotation);
  }
  // The surfaces answer with the output form (exact seconds `s` beside each {v, r}); stores and ETags use the plain wire form.
  const json = JSON.stringify(found.map((annotation) => (seconds ? annotationToOutput(annotation, 'seconds') : annotationToWire(annotation))));
  expect(annotationsToWireJson(found, { seconds })).toBe(json);
  return json;
}

describe('GET /annotations read fast path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'annot-fast-path-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['an .annot file', async () => SqliteStore.open(join(dir, 'fixture.annot'))],
    ['SQLite in memory', async () => SqliteStore.open(':memory:')],
    ['the memory store (no fast path: the fallback)', async () => new MemoryStore()],
  ])('answers %s with the same bytes as the object path', async (_name, open) => {
    const store = await open();
    await fill(store);
    const server = await startServer({ store, log: () => undefined });
    try {
      for (const params of WINDOWS) {
        const response = await fetch(`${server.url}/annotations?${new URLSearchParams(params)}`);
        expect(response.status).toBe(200);
        const body = await response.text();
        expect(body).toBe(await objectPath(store, params));
        if (params.start === '0' && params.end === '60' && !params.relation) expect((JSON.parse(body) as unknown[]).length).toBeGreaterThan(params.limit ? 6 : 500);
        if (params.limit === '7') expect(response.headers.get('x-annot-truncated')).toBe('true');
      }
    } finally {
      await server.close();
    }
  });

  it('the store gives the same texts as its objects, window by window, cold and once its interval index is warm', async () => {
    const store = await SqliteStore.open(join(dir, 'service.annot'));
    await fill(store);
    expect(await store.count()).toBe(602);
    try {
      // More reads than it takes to warm the index (sqlite-paged-reads.ts), so both ways are compared.
      for (let start = 0; start < 62; start += 0.7) {
        const window = new TimeInterval(RationalTime.fromSeconds(start.toFixed(1), 10), RationalTime.fromSeconds((start + 2.5).toFixed(1), 10));
        for (const query of [{ window }, { window, tier: 'words' }, { window, relation: 'during' }] as ReadQuery[]) {
          const texts = await readTexts(store, query, 10_000);
          expect(texts).toEqual(await readObjectTexts(store, query));
          expect(await readTexts(store, query, 3)).toEqual(texts);
        }
      }
    } finally {
      await store.close();
    }
  });

  it('pages through a window with the same cursors and bytes as the store without a fast path', async () => {
    const fast = await SqliteStore.open(join(dir, 'paging.annot'));
    const plain = new MemoryStore();
    await fill(fast);
    await fill(plain);
    const servers = [await startServer({ store: fast, log: () => undefined }), await startServer({ store: plain, log: () => undefined })];
    try {
      const read = async (server: { url: string }) => {
        const pages: string[] = [];
        let next: string | null = '/annotations?start=0&end=60&limit=37';
        while (next !== null) {
          const response: Response = await fetch(`${server.url}${next}`);
          expect(response.status).toBe(200);
          pages.push(await response.text());
          next = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1] ?? null;
        }
        return pages;
      };
      const [fastPages, plainPages] = [await read(servers[0]), await read(servers[1])];
      expect(fastPages.length).toBeGreaterThan(10);
      expect(fastPages).toEqual(plainPages);
      const ids = fastPages.flatMap((page) => (JSON.parse(page) as Array<{ id: string }>).map((a) => a.id));
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      for (const server of servers) await server.close();
    }
  });

  it('sends an all-ASCII page and one with other characters byte for byte, cold and warm', async () => {
    const store = await SqliteStore.open(':memory:');
    await store.addTier(makeTier({ name: 'words' }));
    const texts = ['plain', 'caf\u00e9', 'tab\there', '\u65e5\u672c', 'quote " \\', '\u2028'];
    await store.addMany(texts.map((text, i) => makeAnnotation({ tier: 'words', reference: mediaRef('talk.wav', new TimeInterval(new RationalTime(i, 1), new RationalTime(i + 1, 1))), body: { text }, body_schema_uri: 'annot://schema/label/v1', provenance: { was_generated_by: 'user:a', generated_at_time: GEN } })));
    const server = await startServer({ store, log: () => undefined });
    try {
      for (let round = 0; round < 3; round++) {
        for (const [start, end] of [[0, 1], [0, 2], [2, 3], [3, 4], [0, 6]]) {
          const params = { start: String(start), end: String(end) };
          const response = await fetch(`${server.url}/annotations?${new URLSearchParams(params)}`);
          expect(Buffer.from(await response.arrayBuffer())).toEqual(Buffer.from(await objectPath(store, params), 'utf8'));
        }
      }
    } finally {
      await server.close();
    }
  });

  it('never answers from texts or index entries of rows that changed since: own writes, another connection\'s, and a rowid used again', async () => {
    const file = join(dir, 'changes.annot');
    const store = await SqliteStore.open(file);
    await fill(store);
    const window: ReadQuery = { window: new TimeInterval(new RationalTime(0, 1), new RationalTime(60, 1)) };
    const texts = async () => (await readTexts(store, window, 10_000)).join(',');
    const agrees = async () => {
      const expected = await readObjectTexts(store, window);
      expect(await readTexts(store, window, 10_000)).toEqual(expected);
      expect(await readTexts(store, window, 10_000, 'wire-bytes')).toEqual(expected);
    };
    try {
      for (let i = 0; i < 10; i++) await agrees(); // warm
      // Own writes: an update that moves an annotation, a delete, an insert that takes the rowid the delete freed, setAt and deleteAt.
      const [first] = await store.intersects(window.window!);
      await store.update({ ...first, body: { text: 'changed here' } });
      await agrees();
      expect(await texts()).toContain('changed here');
      const moved = fixture()[10];
      await store.update({ ...moved, reference: mediaRef('talk.wav', new TimeInterval(new RationalTime(59, 1), new RationalTime(59, 1))), body: { text: 'moved to 59' } });
      await agrees();
      expect(await texts()).toContain('moved to 59');
      const last = fixture()[599];
      await store.delete(last.id);
      await store.add({ ...last, id: '00000000-0000-4000-8000-0000000abcde', body: { text: 'took the freed rowid' } });
      await agrees();
      expect(await texts()).toContain('took the freed rowid');
      const key = new TimeInterval(new RationalTime(30, 1), new RationalTime(31, 1));
      await store.setAt(key, [makeAnnotation({ id: '00000000-0000-4000-8000-0000000abcdf', tier: 'words', reference: mediaRef('talk.wav', key), body: { text: 'set at 30' }, body_schema_uri: 'annot://schema/label/v1', provenance: { was_generated_by: 'user:a', generated_at_time: GEN } })]);
      await agrees();
      expect(await texts()).toContain('set at 30');
      expect(await store.deleteAt(key)).toBe(1);
      await agrees();
      expect(await texts()).not.toContain('set at 30');
      // Another connection (another process would be the same): its commits are seen on the next read.
      const other = await SqliteStore.open(file);
      try {
        await other.update({ ...first, body: { text: 'changed elsewhere' } });
      } finally {
        await other.close();
      }
      expect(await texts()).toContain('changed elsewhere');
      await agrees();
    } finally {
      await store.close();
    }
  });
});

/** Every page of a read in the wire-json form (or wire-bytes, decoded), `limit` at a time. */
async function readTexts(store: AnnotationStore, query: ReadQuery, limit: number, form: 'wire-json' | 'wire-bytes' = 'wire-json'): Promise<string[]> {
  const out: string[] = [];
  let after: ReadPosition | null = null;
  do {
    const page: { items: Array<string | Uint8Array>; next: ReadPosition | null } = await store.read(query, { after, limit, form });
    out.push(...page.items.map((item) => (typeof item === 'string' ? item : Buffer.from(item).toString('utf8'))));
    after = page.next;
  } while (after !== null);
  return out;
}

/** The same read in the objects form, each annotation's output-form JSON made from the object. */
async function readObjectTexts(store: AnnotationStore, query: ReadQuery): Promise<string[]> {
  const page = await store.read(query, { limit: 100_000, form: 'objects' });
  return page.items.map((annotation) => {
    const text = annotationWireJson(annotation, { seconds: true });
    expect(text).toBe(JSON.stringify(annotationToOutput(annotation, 'seconds')));
    return text;
  });
}

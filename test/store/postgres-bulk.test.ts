import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Annotation } from '../../src/model/annotation.js';
import type { Mutation } from '../../src/oplog/mutation.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { annotationToWire } from '../../src/model/wire.js';
import { DuplicateAnnotationIdError, ProjectRateLossError, TierOverlapError, UnknownTierError } from '../../src/store/errors.js';
import { PostgresStore } from '../../src/store/postgres.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import type { AnnotationStore } from '../../src/store/store.js';
import { POSTGRES_URL, describeWithPostgres, postgresUnreachable } from '../support/postgres.js';
import { ann, collect, idFor, iv, refAnn, tier } from './fixtures.js';

// addMany on PostgreSQL streams through one COPY straight into annot.annotations, and so do long
// runs of additions in a logged batch. These check that path on batches larger than any chunk, fed
// lazily, against the SQLite store.

jest.setTimeout(120_000);

const RUN = `jest-bulk-${randomBytes(4).toString('hex')}`;
let counter = 0;
const unreachable = await postgresUnreachable();

/** Text that COPY's text format must escape, and JSON that must survive it. */
const AWKWARD = ['tab\there', 'line\nbreak', 'back\\slash', 'cr\rlf', '\\N', 'quote"s', 'ünï😀'];

function* batch(n: number): Generator<Annotation> {
  for (let i = 1; i <= n; i++) {
    const start = (i * 37) % 5000;
    yield ann(iv(start, start + (i % 7), 10), { id: i, tier: i % 3 === 0 ? 'lines' : 'words', label: `${AWKWARD[i % AWKWARD.length]} ${i}`, confidence: i % 4 === 0 ? (i % 1000) / 1000 : null });
    if (i % 500 === 0) yield refAnn(idFor(i), { id: 1_000_000 + i });
  }
}

async function* lazily<T>(items: Iterable<T>): AsyncGenerator<T> {
  for (const item of items) {
    yield item;
    if (Math.random() < 0.001) await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

async function prepare(store: AnnotationStore): Promise<void> {
  for (const name of ['words', 'lines', 'notes']) await store.addTier(tier(name));
}

describeWithPostgres('PostgresStore addMany through COPY', unreachable, () => {
  const dir = mkdtempSync(join(tmpdir(), 'annot-pg-bulk-'));
  const stores: PostgresStore[] = [];
  const pgStore = async (rate?: number) => {
    const store = await PostgresStore.open(POSTGRES_URL, { project: `${RUN}-${++counter}`, rate });
    stores.push(store);
    return store;
  };
  afterAll(async () => {
    for (const store of stores) await store.dropProject().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads 12,000 annotations from an async iterable with the same answers as the SQLite store', async () => {
    const postgres = await pgStore();
    const sqlite = await SqliteStore.open(join(dir, 'same.annot'));
    try {
      await prepare(postgres);
      await prepare(sqlite);
      expect(await postgres.addMany(lazily(batch(12_000)))).toBe(12_024);
      await sqlite.addMany(batch(12_000));
      expect(await postgres.count()).toBe(await sqlite.count());
      const wire = (list: Annotation[]) => list.map(annotationToWire);
      expect(wire(await collect(postgres.all()))).toEqual(wire(await collect(sqlite.all())));
      for (const [start, end] of [[0, 10], [1234, 1300], [4990, 5100], [0, 5010]]) {
        expect(wire(await postgres.intersects(iv(start, end, 10)))).toEqual(wire(await sqlite.intersects(iv(start, end, 10))));
        expect(wire(await postgres.during(iv(start, end, 10)))).toEqual(wire(await sqlite.during(iv(start, end, 10))));
      }
      expect(wire(await postgres.byTier('notes'))).toEqual(wire(await sqlite.byTier('notes')));
    } finally {
      await sqlite.close();
    }
  });

  it('writes nothing when an annotation late in the stream names an unknown tier, and names it', async () => {
    const store = await pgStore();
    await prepare(store);
    const stray = ann(iv(1, 2), { id: 99_999, tier: 'nope' });
    await expect(store.addMany(lazily([...batch(3000), stray]))).rejects.toThrow(UnknownTierError);
    await expect(store.addMany([...batch(3000), stray])).rejects.toThrow(`annotation ${idFor(99_999)} names tier "nope"`);
    expect(await store.count()).toBe(0);
    // The transaction was rolled back cleanly: the connection and the staging table are reusable.
    expect(await store.addMany(batch(10))).toBe(10);
  });

  it('writes nothing when the stream throws or a time does not fit the project rate, mid-COPY', async () => {
    const store = await pgStore(1000);
    await prepare(store);
    async function* failing(): AsyncGenerator<Annotation> {
      yield* batch(2500);
      throw new Error('source broke');
    }
    await expect(store.addMany(failing())).rejects.toThrow('source broke');
    const lossy = ann(iv(1, 2, 3), { id: 88_888 });
    await expect(store.addMany([...batch(2500), lossy])).rejects.toThrow(ProjectRateLossError);
    expect(await store.count()).toBe(0);
    expect(await store.addMany(batch(10))).toBe(10);
  });

  it('keeps the duplicate-id and no-overlap refusals', async () => {
    const store = await pgStore();
    await prepare(store);
    await store.addTier(tier('turns'), { enforceNoOverlap: true });
    await expect(store.addMany([...batch(2000), ann(iv(0, 1), { id: 5 })])).rejects.toThrow(DuplicateAnnotationIdError);
    await store.add(ann(iv(0, 10), { id: 1, tier: 'turns' }));
    const overlapping = [ann(iv(20, 30), { id: 2, tier: 'turns' }), ann(iv(5, 15), { id: 3, tier: 'turns' })];
    const refusal = await store.addMany(overlapping).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(TierOverlapError);
    expect(refusal).toMatchObject({ tier: 'turns' });
    expect(await store.count()).toBe(1);
    expect((await store.get(idFor(1)))?.reference).toMatchObject({ kind: 'media' });
  });

  it('applies a logged import of thousands of additions through COPY, in order, with one op-log entry each, all or nothing', async () => {
    const store = await pgStore();
    const context = { actor: 'user:import', receivedAt: new RationalTime(1_700_000_000_000, 1000) };
    const annotations = [...batch(3000)];
    const mutations: Mutation[] = [
      { kind: 'add_tier', tier: tier('words') },
      { kind: 'add_tier', tier: tier('lines') },
      { kind: 'add_tier', tier: tier('notes') },
      ...annotations.slice(0, 1500).map((annotation): Mutation => ({ kind: 'add_annotation', annotation })),
      { kind: 'set_meta', key: 'source', value: 'bulk' },
      ...annotations.slice(1500).map((annotation): Mutation => ({ kind: 'add_annotation', annotation })),
    ];
    const entries = await store.applyLogged(mutations, context);
    expect(entries).toHaveLength(mutations.length);
    expect(await store.latestClock()).toBe(mutations.length);
    expect((await collect(store.all())).map((a) => a.id)).toEqual(annotations.map((a) => a.id));
    // The log went in through COPY too: every entry reads back as it was written, awkward texts included.
    expect(await store.readOpLog()).toEqual(entries);

    const again = await pgStore();
    await prepare(again);
    const duplicate = [...annotations.slice(0, 2000), annotations[10]];
    await expect(again.applyLogged(duplicate.map((annotation): Mutation => ({ kind: 'add_annotation', annotation })), context)).rejects.toBeInstanceOf(DuplicateAnnotationIdError);
    expect(await again.count()).toBe(0);
    expect(await again.latestClock()).toBe(0);
  });
});

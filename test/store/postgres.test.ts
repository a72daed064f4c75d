import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Annotation } from '../../src/model/annotation.js';
import { annotationToWire } from '../../src/model/wire.js';
import type { OpLoggedStore } from '../../src/oplog/op-logged-store.js';
import {
  DuplicateAnnotationIdError,
  ProjectRateLossError,
  ProjectRateMismatchError,
  StoreFormatError,
  TierOverlapError,
  UnknownTierError,
} from '../../src/store/errors.js';
import { PostgresStore, parseStoreUrl } from '../../src/store/postgres.js';
import { PG_SCHEMA_VERSION, pgMigrationPath } from '../../src/store/postgres-schema.js';
import type { AnnotationStore } from '../../src/store/store.js';
import { LossyTimeConversionError } from '../../src/time/errors.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { describeOpLogContract } from '../oplog/contract.js';
import { describeStoreContract } from './contract.js';
import { POSTGRES_URL, describeWithPostgres, postgresUnreachable } from '../support/postgres.js';
import { ann, collect, idFor, ids, iv, point, refAnn, tier } from './fixtures.js';

jest.setTimeout(60_000);

const URL_ = POSTGRES_URL;
/** Every project this run makes starts with this, so afterAll can sweep what a failed test left. */
const RUN = `jest-${randomBytes(4).toString('hex')}`;
let counter = 0;
const freshProject = (): string => `${RUN}-${++counter}`;

const unreachable = await postgresUnreachable();
const context = { actor: 'user:test', receivedAt: new RationalTime(1_700_000_000_000, 1000) };

async function open(options: { project?: string; rate?: number } = {}): Promise<PostgresStore> {
  return PostgresStore.open(URL_, { project: options.project ?? freshProject(), rate: options.rate });
}

async function drop(store: AnnotationStore): Promise<void> {
  await (store as PostgresStore).dropProject();
}

describeWithPostgres('PostgresStore', unreachable, () => {
  afterAll(async () => {
    // Sweep projects a failed test may have left behind; never more than this run's own.
    const client = new pg.Client(URL_);
    await client.connect();
    const { rows } = await client.query<{ name: string }>('SELECT name FROM annot.projects WHERE name LIKE $1', [`${RUN}-%`]);
    await client.end();
    for (const { name } of rows) await (await PostgresStore.open(URL_, { project: name })).dropProject();
  });

  describeStoreContract('postgres', () => open(), drop);
  describeOpLogContract('postgres', () => open(), (store: OpLoggedStore) => drop(store));

  describe('PostgresStore no-overlap tiers', () => {
    let store: PostgresStore;
    beforeEach(async () => {
      store = await open();
      await store.addTier(tier('turns'), { enforceNoOverlap: true });
      await store.addTier(tier('words'));
      await store.add(ann(iv(0, 10), { id: 1, tier: 'turns' }));
    });
    afterEach(() => drop(store));

    async function overlapOf(promise: Promise<unknown>): Promise<TierOverlapError> {
      const error = await promise.then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(TierOverlapError);
      return error as TierOverlapError;
    }

    it('refuses an overlapping annotation with a TierOverlapError naming both annotations, and keeps the first', async () => {
      const error = await overlapOf(store.add(ann(iv(5, 15), { id: 2, tier: 'turns' })));
      expect([error.tier, error.id, error.otherId]).toEqual(['turns', idFor(2), idFor(1)]);
      expect(error.code).toBe('ANNOT_TIER_OVERLAP');
      expect(error.message).toContain(idFor(1));
      expect(error.message).toContain(idFor(2));
      expect(ids(await store.byTier('turns'))).toEqual([idFor(1)]);
      expect(await store.isNoOverlapEnforced('turns')).toBe(true);
    });

    it('allows touching intervals, and a point only where no interval holds it', async () => {
      await store.add(ann(iv(10, 20), { id: 2, tier: 'turns' }));
      await store.add(ann(point(20), { id: 3, tier: 'turns' }));
      expect((await overlapOf(store.add(ann(point(5), { id: 4, tier: 'turns' })))).otherId).toBe(idFor(1));
      expect((await overlapOf(store.add(ann(point(10), { id: 5, tier: 'turns' })))).otherId).toBe(idFor(2));
      expect(ids(await store.byTier('turns'))).toEqual([1, 2, 3].map(idFor));
    });

    it('leaves other tiers free to overlap', async () => {
      await store.addMany([ann(iv(0, 10), { id: 2 }), ann(iv(5, 15), { id: 3 })]);
      expect(ids(await store.intersects(iv(6, 7)))).toEqual([1, 2, 3].map(idFor));
    });

    it('refuses a batch that overlaps itself, writing none of it, and an update that would overlap', async () => {
      const error = await overlapOf(store.addMany([ann(iv(20, 30), { id: 2, tier: 'turns' }), ann(iv(25, 35), { id: 3, tier: 'turns' })]));
      expect([error.id, error.otherId]).toEqual([idFor(3), idFor(2)]);
      expect(await store.count()).toBe(1);
      await store.add(ann(iv(40, 50), { id: 4, tier: 'turns' }));
      const moved = await overlapOf(store.update(ann(iv(8, 42), { id: 4, tier: 'turns' })));
      expect(moved.id).toBe(idFor(4));
      expect([idFor(1), idFor(4)]).toContain(moved.otherId);
      expect((await store.get(idFor(4)))?.reference).toMatchObject({ interval: iv(40, 50) });
    });

    it('is enforced by the database itself, even for a row written around the store', async () => {
      const client = new pg.Client(URL_);
      await client.connect();
      try {
        const { rows } = await client.query<{ pid: number }>('SELECT pid FROM annot.projects WHERE name = $1', [store.project]);
        const raw = client.query(
          "INSERT INTO annot.annotations (pid, id, tier, ref_kind, asset_id, start_v, start_r, end_v, end_r, start_n, end_n, span, body, body_schema_uri, generated_by, attributed_to, derived_from, generated_at_v, generated_at_r) " +
            "VALUES ($1, $2, 'turns', 'media', 'a', 0, 1, 1, 1, 0, 1, '[0,1)', '{}', 'annot://schema/label/v1', 'x', 'x', '[]', 0, 1)",
          [rows[0].pid, idFor(9)],
        );
        await expect(raw).rejects.toMatchObject({ code: '23P01' });
      } finally {
        await client.end();
      }
    });

    it('allows overlaps again once the tier is added without the option, and refuses to turn it back on over them', async () => {
      await store.addTier(tier('turns'));
      expect(await store.isNoOverlapEnforced('turns')).toBe(false);
      await store.add(ann(iv(5, 15), { id: 2, tier: 'turns' }));
      const error = await overlapOf(store.addTier(tier('turns'), { enforceNoOverlap: true }));
      expect([error.id, error.otherId].sort()).toEqual([idFor(1), idFor(2)]);
      expect(error.message).toMatch(/cannot forbid overlaps in tier "turns"/);
      expect(await store.isNoOverlapEnforced('turns')).toBe(false);
      await store.delete(idFor(2));
      await store.addTier(tier('turns'), { enforceNoOverlap: true });
      await overlapOf(store.add(ann(iv(5, 15), { id: 3, tier: 'turns' })));
    });

    it('refuses an overlapping add_annotation in applyLogged, logging nothing', async () => {
      await overlapOf(store.applyLogged([{ kind: 'add_annotation', annotation: ann(iv(9, 11), { id: 2, tier: 'turns' }) }], context));
      expect(await store.latestClock()).toBe(0);
      await store.applyLogged([{ kind: 'add_tier', tier: tier('turns'), enforceNoOverlap: false }, { kind: 'add_annotation', annotation: ann(iv(9, 11), { id: 2, tier: 'turns' }) }], context);
      expect(await store.latestClock()).toBe(2);
    });
  });

  describe('PostgresStore projects', () => {
    it('keeps projects in one database apart: same ids, separate tiers, metadata, queries and op-logs', async () => {
      const a = await open();
      const b = await open();
      try {
        for (const s of [a, b]) await s.addTier(tier('words'));
        await a.add(ann(iv(0, 10), { id: 1, label: 'in a' }));
        await b.add(ann(iv(0, 10), { id: 1, label: 'in b' }));
        await a.addTier(tier('only-a'));
        await a.setMeta('title', 'A');
        await a.applyLogged([{ kind: 'set_meta', key: 'k', value: 'v' }], context);
        expect((await a.get(idFor(1)))?.body).toEqual({ text: 'in a' });
        expect((await b.get(idFor(1)))?.body).toEqual({ text: 'in b' });
        expect(await b.getTier('only-a')).toBeNull();
        expect(await b.getMeta('title')).toBeNull();
        expect(await b.latestClock()).toBe(0);
        expect(await a.latestClock()).toBe(1);
        await b.deleteAt(iv(0, 10));
        expect(await a.count()).toBe(1);
        expect(ids(await a.intersects(iv(0, 5)))).toEqual([idFor(1)]);
      } finally {
        await a.dropProject();
        await b.dropProject();
      }
    });

    it('takes the project from the URL query unless the options name it, and refuses two different names', async () => {
      expect(parseStoreUrl('postgres://u:secret@h:5/db?project=x&sslmode=disable&connect_timeout=3')).toEqual({
        connectionString: 'postgres://u:secret@h:5/db?sslmode=disable',
        project: 'x',
        where: 'postgres://h:5/db',
        address: 'h:5',
        database: 'db',
        user: 'u',
        connectTimeoutMs: 3000,
      });
      expect(parseStoreUrl('postgres://h/db').connectTimeoutMs).toBe(10_000);
      expect(() => parseStoreUrl('postgres://u:secret@h/db?connect_timeout=soon')).toThrow(/connect_timeout: expected a number of seconds/);
      expect(() => parseStoreUrl('postgres://u:secret@[h/db')).toThrow(/"postgres:\/\/\*\*\*@\[h\/db" is not a URL/);
      expect(parseStoreUrl('postgres://u@h/db').project).toBe('default');
      expect(() => parseStoreUrl('postgres://u@h/db?project=x', 'y')).toThrow(/names project "x" and the options name "y"/);
      expect(() => parseStoreUrl('mysql://h/db')).toThrow(/postgres:\/\//);
      const name = freshProject();
      const store = await PostgresStore.open(`${URL_}?project=${encodeURIComponent(name)}`);
      expect(store.project).toBe(name);
      await store.dropProject();
    });

    it('fixes the rate when a project is created and refuses a reopen with another rate', async () => {
      const project = freshProject();
      const first = await open({ project, rate: 48000 });
      try {
        await expect(open({ project, rate: 44100 })).rejects.toBeInstanceOf(ProjectRateMismatchError);
        const again = await open({ project });
        expect(again.rate).toBe(48000);
        await again.close();
      } finally {
        await first.dropProject();
      }
    });

    it('refuses, never rounds, a time the project rate cannot hold, and still answers queries at any rate exactly', async () => {
      const store = await open({ rate: 48000 });
      try {
        await store.addTier(tier('words'));
        const error = await store.add(ann(iv(1, 7, 7), { id: 1 })).then(() => null, (e: unknown) => e);
        expect(error).toBeInstanceOf(ProjectRateLossError);
        expect(error).toBeInstanceOf(LossyTimeConversionError);
        expect((error as ProjectRateLossError).code).toBe('ANNOT_LOSSY_TIME');
        expect((error as Error).message).toMatch(/rate 48000.*project/);
        await expect(store.addMany([ann(iv(0, 1), { id: 2 }), ann(point(1, 7), { id: 3 })])).rejects.toBeInstanceOf(ProjectRateLossError);
        expect(await store.count()).toBe(0);
        await store.add(ann(iv(1, 3, 3), { id: 4 })); // 1/3 s is 16000 ticks: exact
        expect(ids(await store.intersects(iv(1, 7, 7)))).toEqual([idFor(4)]);
        expect(await store.intersects(iv(1, 2, 7))).toEqual([]);
        expect(await store.getAt(iv(1, 7, 7))).toEqual([]);
        expect(ids(await store.relate(iv(7, 14, 7), ['meets']))).toEqual([idFor(4)]);
        expect(ids(await store.relate(iv(3, 4, 7), ['contains']))).toEqual([idFor(4)]);
        const back = await store.get(idFor(4));
        expect(back?.reference).toMatchObject({ interval: iv(1, 3, 3) });
      } finally {
        await store.dropProject();
      }
    });

    it('stamps the schema version and plans forward-only migrations', async () => {
      const client = new pg.Client(URL_);
      await client.connect();
      try {
        const { rows } = await client.query("SELECT value FROM annot.meta WHERE key = 'schema_version'");
        expect(Number(rows[0].value)).toBe(PG_SCHEMA_VERSION);
      } finally {
        await client.end();
      }
      const step = (from: number) => ({ from, to: from + 1, description: `step ${from}`, apply: async () => undefined });
      expect(pgMigrationPath('db', 1, 3, [step(2), step(1)]).map((s) => s.from)).toEqual([1, 2]);
      expect(() => pgMigrationPath('db', 4, 3)).toThrow(StoreFormatError);
      expect(() => pgMigrationPath('db', 4, 3)).toThrow(/newer than this build/);
      expect(() => pgMigrationPath('db', 1, 3, [step(2)])).toThrow(/no migration leaves version 1/);
    });
  });

  describe('PostgresStore writers', () => {
    it('never hands out a clock twice when two stores on two pools append to one project at once', async () => {
      const project = freshProject();
      const a = await open({ project });
      const b = await open({ project });
      try {
        await a.addTier(tier('words'));
        const calls = [a, b].flatMap((s, k) =>
          Array.from({ length: 50 }, (_, i) => s.applyLogged([{ kind: 'add_annotation', annotation: ann(iv(i, i + 1), { id: k * 100 + i + 1 }) }], context)),
        );
        const clocks = (await Promise.all(calls)).flat().map((e) => e.clock);
        expect([...clocks].sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
        expect((await b.readOpLog()).map((e) => e.clock)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
        expect(await a.latestClock()).toBe(100);
        expect(await b.count()).toBe(100);
      } finally {
        await b.close();
        await a.dropProject();
      }
    });

    it('writes nothing from a large addMany when a row in the middle is refused', async () => {
      const store = await open();
      try {
        await store.addTier(tier('words'));
        const big = (bad: (i: number) => Annotation | null): Annotation[] =>
          Array.from({ length: 12_000 }, (_, i) => bad(i) ?? ann(iv(i, i + 2), { id: i + 1 }));
        await expect(store.addMany(big((i) => (i === 7000 ? ann(iv(1, 2), { id: 10 }) : null)))).rejects.toBeInstanceOf(DuplicateAnnotationIdError);
        await expect(store.addMany(big((i) => (i === 8000 ? ann(iv(1, 2), { id: i + 1, tier: 'nowhere' }) : null)))).rejects.toBeInstanceOf(UnknownTierError);
        await expect(store.addMany(big((i) => (i === 6000 ? ann(iv(1, 11, 11), { id: i + 1 }) : null)))).rejects.toBeInstanceOf(LossyTimeConversionError);
        expect(await store.count()).toBe(0);
        expect(await collect(store.intervals())).toEqual([]);
        expect(await store.addMany(big(() => null))).toBe(12_000);
        expect(await store.count()).toBe(12_000);
        expect(ids(await store.intersects(iv(5000, 5002)))).toEqual([5000, 5001, 5002].map(idFor));
      } finally {
        await store.dropProject();
      }
    });

    it('round-trips every field, AnnotationRefs, tiers and metadata through a second store on the same project', async () => {
      const project = freshProject();
      const a = await open({ project });
      const written = [ann(iv(24000, 72000, 48000), { id: 1, confidence: 0.94, label: 'é “quoted” 🎵 \u0000' }), refAnn(idFor(1), { id: 2 }), ann(iv(-5, 5, 10), { id: 3 })];
      try {
        await a.addTier(tier('words', { metadata: { lang: 'en', n: [1, { a: null }] } }));
        await a.addTier(tier('notes'));
        await a.addMany(written);
        const b = await open({ project });
        expect((await collect(b.all())).map(annotationToWire)).toEqual(written.map(annotationToWire));
        expect(await b.listTiers()).toEqual(await a.listTiers());
        await b.close();
      } finally {
        await a.dropProject();
      }
    });
  });
});

import Database from 'better-sqlite3';
import fc from 'fast-check';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Annotation } from '../../src/model/annotation.js';
import { annotationToWire } from '../../src/model/wire.js';
import { StoreFormatError } from '../../src/store/errors.js';
import { MemoryStore } from '../../src/store/memory.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { migrationPath, runMigrations, type SqliteMigrationStep } from '../../src/store/sqlite-migrations.js';
import { ALLEN_RELATIONS, holds } from '../../src/time/allen.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { classBound, durationClass } from '../../src/store/sqlite-interval-index.js';
import type { AnnotationStore } from '../../src/store/store.js';
import { describeStoreContract } from './contract.js';
import { ann, collect, idFor, ids, iv, point, refAnn, tier } from './fixtures.js';

let dir: string;
let counter = 0;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'annot-sqlite-test-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function freshPath(): string {
  counter += 1;
  return join(dir, `store-${counter}.annot`);
}

async function removeFile(store: AnnotationStore): Promise<void> {
  await store.close();
  const path = (store as SqliteStore).path;
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
}

describeStoreContract('sqlite (file)', () => SqliteStore.open(freshPath()), removeFile);
describeStoreContract('sqlite (:memory:)', () => SqliteStore.open(':memory:'));

/** A store with a bit of everything: cross-rate times, a point, an AnnotationRef, tier hierarchy, metadata. */
async function populate(store: AnnotationStore): Promise<Annotation[]> {
  await store.addTier(tier('words', { metadata: { lang: 'en', annotators: ['ana', { id: 2 }] } }));
  await store.addTier(tier('syllables', { stereotype: 'SYMBOLIC_SUBDIVISION', parent: 'words' }));
  await store.addTier(tier('notes'));
  const annotations = [
    ann(iv(24000, 72000, 48000), { id: 1, confidence: 0.94, label: 'é “quoted” 🎵' }),
    ann(iv(1001, 2002, 30000), { id: 2 }),
    ann(point(7, 3), { id: 3, confidence: 0 }),
    refAnn(idFor(1), { id: 4, tier: 'syllables', confidence: 1 }),
    ann(iv(-5, 5, 10), { id: 5, tier: 'notes' }),
  ];
  await store.addMany(annotations);
  await store.setMeta('title', 'Session — 1');
  return annotations;
}

describe('SqliteStore file', () => {
  it('reopens with every field, tier and metadata exactly as written, rates included', async () => {
    const path = freshPath();
    const store = await SqliteStore.open(path);
    const written = await populate(store);
    const tiers = await store.listTiers();
    await store.close();

    const again = await SqliteStore.open(path, { readonly: true });
    try {
      expect((await collect(again.all())).map(annotationToWire)).toEqual(written.map(annotationToWire));
      expect(await again.listTiers()).toEqual(tiers);
      expect(await again.listMeta()).toEqual({ title: 'Session — 1' });
      const first = await again.get(idFor(1));
      const interval = first?.reference.kind === 'media' ? first.reference.interval : null;
      expect(interval?.start.v).toBe(24000);
      expect(interval?.start.r).toBe(48000);
      expect(ids(await again.intersects(iv(1, 2)))).toEqual([idFor(1)]);
      expect(again.schemaVersion).toBe(1);
    } finally {
      await again.close();
    }
  });

  it('round-trips a MemoryStore through a file and back without losing anything', async () => {
    const memory = new MemoryStore();
    const written = await populate(memory);
    const path = freshPath();
    const file = await SqliteStore.open(path);
    for (const t of await memory.listTiers()) await file.addTier(t);
    await file.addMany(memory.all());
    for (const [key, value] of Object.entries(await memory.listMeta())) await file.setMeta(key, value);
    await file.close();

    const reopened = await SqliteStore.open(path, { readonly: true });
    const back = new MemoryStore();
    for (const t of await reopened.listTiers()) await back.addTier(t);
    await back.addMany(reopened.all());
    for (const [key, value] of Object.entries(await reopened.listMeta())) await back.setMeta(key, value);
    await reopened.close();

    expect((await collect(back.all())).map(annotationToWire)).toEqual(written.map(annotationToWire));
    expect(await back.listTiers()).toEqual(await memory.listTiers());
    expect(await back.listMeta()).toEqual(await memory.listMeta());
    expect((await collect(back.intervals())).map(String)).toEqual((await collect(memory.intervals())).map(String));
  });

  it('copies itself to another file that opens with the same content', async () => {
    const store = await SqliteStore.open(freshPath());
    const written = await populate(store);
    const copy = freshPath();
    await store.copyTo(copy);
    await store.close();
    const back = await SqliteStore.open(copy, { readonly: true });
    try {
      expect((await collect(back.all())).map(annotationToWire)).toEqual(written.map(annotationToWire));
      expect(await back.getMeta('title')).toBe('Session — 1');
    } finally {
      await back.close();
    }
  });

  it('refuses writes when opened read-only and leaves the file as it was', async () => {
    const path = freshPath();
    const store = await SqliteStore.open(path);
    await populate(store);
    await store.close();
    const before = readFileSync(path);
    const reader = await SqliteStore.open(path, { readonly: true });
    await expect(reader.add(ann(iv(0, 1), { id: 9 }))).rejects.toThrow(/read-only/);
    await reader.close();
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(() => readFileSync(`${path}-wal`)).toThrow();
  });

  it('does not create a missing file when opened read-only or with create: false', async () => {
    const path = freshPath();
    await expect(SqliteStore.open(path, { readonly: true })).rejects.toThrow(/no such \.annot file/);
    await expect(SqliteStore.open(path, { create: false })).rejects.toThrow(/no such \.annot file/);
    expect(() => readFileSync(path)).toThrow();
  });
});

describe('SqliteStore refuses files that are not .annot files and leaves them byte for byte', () => {
  async function expectRefused(path: string, message: RegExp): Promise<void> {
    const before = readFileSync(path);
    const error = await SqliteStore.open(path).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreFormatError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).not.toContain('\n');
    expect(readFileSync(path).equals(before)).toBe(true);
    for (const suffix of ['-wal', '-shm', '-journal']) expect(() => readFileSync(path + suffix)).toThrow();
  }

  it('refuses a text file', async () => {
    const path = freshPath();
    writeFileSync(path, 'WEBVTT\n\n00:00.000 --> 00:01.000\nhello\n');
    await expectRefused(path, /not an SQLite database/);
  });

  it('refuses a truncated .annot file', async () => {
    const path = freshPath();
    const store = await SqliteStore.open(path);
    await populate(store);
    await store.addMany(Array.from({ length: 300 }, (_, i) => ann(iv(i, i + 1), { id: 100 + i, label: 'x'.repeat(200) })));
    await store.close();
    truncateSync(path, 4096 + 100);
    await expectRefused(path, /truncated/);
    truncateSync(path, 50);
    await expectRefused(path, /truncated/);
  });

  it("refuses another application's SQLite database", async () => {
    const path = freshPath();
    const other = new Database(path);
    other.exec('CREATE TABLE songs (title TEXT); INSERT INTO songs VALUES (\'a\')');
    other.close();
    await expectRefused(path, /without annot's meta table \(tables: songs\)/);
  });

  it('refuses a file stamped with a newer schema version, saying to upgrade', async () => {
    const path = freshPath();
    const store = await SqliteStore.open(path);
    await populate(store);
    await store.close();
    const raw = new Database(path);
    raw.prepare("UPDATE meta SET value = '99' WHERE key = 'schema_version'").run();
    raw.close();
    await expectRefused(path, /schema_version 99 is newer than this build .* upgrade annot/);
    await expect(SqliteStore.open(path, { readonly: true })).rejects.toBeInstanceOf(StoreFormatError);
  });

  it('refuses a meta table without a schema version', async () => {
    const path = freshPath();
    const raw = new Database(path);
    raw.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)');
    raw.close();
    await expectRefused(path, /no schema_version/);
  });
});

describe('the migration ladder', () => {
  const step = (from: number, apply: SqliteMigrationStep['apply'] = () => undefined): SqliteMigrationStep => ({
    from,
    to: from + 1,
    description: `test step ${from}`,
    apply,
  });

  it('chains single steps from an old version to the current one', () => {
    const ladder = [step(2), step(1), step(3)];
    expect(migrationPath('f.annot', 1, 4, ladder).map((s) => s.from)).toEqual([1, 2, 3]);
    expect(migrationPath('f.annot', 4, 4, ladder)).toEqual([]);
  });

  it('refuses a version the ladder cannot reach, naming the file', () => {
    expect(() => migrationPath('f.annot', 1, 3, [step(2)])).toThrow(/f\.annot: schema_version 1 cannot be upgraded to 3/);
  });

  it('runs each step in a transaction, skips one already applied and rolls back one that does not stamp its version', () => {
    const db = new Database(':memory:');
    db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('schema_version', '1')");
    const stamp = (to: number) => (d: Database.Database) => void d.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(to));
    runMigrations(db, 'm.annot', [step(1, (d) => {
      d.exec('CREATE TABLE added (x)');
      stamp(2)(d);
    })]);
    expect(db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get()).toBe('2');
    runMigrations(db, 'm.annot', [step(1, () => { throw new Error('must be skipped'); })]);
    expect(() => runMigrations(db, 'm.annot', [step(2, (d) => d.exec('CREATE TABLE half (x)'))])).toThrow(/left schema_version at 2/);
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'half'").get()).toBeUndefined();
    db.close();
  });
});

describe('two SqliteStore connections on one file', () => {
  it('both write, and each sees the tiers, annotations and new duration classes the other committed', async () => {
    const path = freshPath();
    const a = await SqliteStore.open(path);
    const b = await SqliteStore.open(path);
    try {
      await a.addTier(tier('words'));
      await b.add(ann(iv(0, 10), { id: 1 }));
      expect(ids(await a.intersects(iv(5, 6)))).toEqual([idFor(1)]);
      await a.add(ann(iv(1000, 1010), { id: 2 }));
      // A duration class b has never seen, added by a: b must still find it.
      await a.add(ann(iv(0, 100000), { id: 3 }));
      await b.addTier(tier('notes'));
      await a.add(ann(point(4), { id: 4, tier: 'notes' }));
      expect(ids(await b.intersects(iv(0, 2000)))).toEqual([1, 3, 4, 2].map(idFor));
      expect(ids(await b.contains(iv(1, 2)))).toEqual([1, 3].map(idFor));
      expect(await a.count()).toBe(4);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('makes a writer wait for another process holding the write lock instead of failing', async () => {
    const path = freshPath();
    const release = `${path}.release`;
    const store = await SqliteStore.open(path);
    await store.addTier(tier('words'));
    // The holder keeps the write lock until the release file appears, not for a span of time, so
    // however slowly this process gets to its write, the lock is still held when it starts.
    const holder = spawn(process.execPath, ['--input-type=module', '-e', [
      "import Database from 'better-sqlite3';",
      "import { existsSync } from 'node:fs';",
      `const db = new Database(${JSON.stringify(path)});`,
      "db.pragma('busy_timeout = 5000');",
      "db.exec('BEGIN IMMEDIATE');",
      "process.stdout.write('locked\\n');",
      'const pause = new Int32Array(new SharedArrayBuffer(4));',
      `while (!existsSync(${JSON.stringify(release)})) Atomics.wait(pause, 0, 0, 5);`,
      "db.exec('COMMIT'); db.close();",
    ].join('\n')], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
        holder.on('exit', (code) => reject(new Error(`lock holder exited early (${code})`)));
      });
      const probe = new Database(path);
      probe.pragma('busy_timeout = 0');
      expect(() => probe.exec('BEGIN IMMEDIATE')).toThrow(/locked|busy/i); // the lock is held right now
      probe.close();
      // The holder polls for this file every 5 ms, so it commits while our write below is waiting.
      writeFileSync(release, '');
      await store.add(ann(iv(0, 1), { id: 1 }));
      expect(await store.count()).toBe(1);
    } finally {
      writeFileSync(release, '');
      // Waits for the holder to be gone, so no child of this file outlives it.
      const gone = holder.exitCode !== null || holder.signalCode !== null ? Promise.resolve() : new Promise((resolve) => holder.once('close', resolve));
      holder.kill();
      await gone;
      await store.close();
    }
  });
});

describe('SqliteStore streaming and bulk loads', () => {
  it('streams all() in insertion order over a few thousand rows, and allows writes between items', async () => {
    const store = await SqliteStore.open(':memory:');
    await store.addTier(tier('words'));
    const n = 3000;
    await store.addMany(Array.from({ length: n }, (_, i) => ann(iv(n - i, n - i + 2), { id: i + 1 })));
    let seen = 0;
    let previous = 0;
    for await (const annotation of store.all()) {
      const number = parseInt(annotation.id.slice(-12), 16);
      expect(number).toBe(previous + 1);
      previous = number;
      seen += 1;
      if (seen === 10) await store.setMeta('progress', 'ten');
    }
    expect(seen).toBe(n);
    expect((await collect(store.intervals())).length).toBe(n);
    await store.close();
  });

  it('loads a large batch into an empty file with rebuilt indexes, and still refuses a duplicate id in it', async () => {
    const store = await SqliteStore.open(':memory:');
    await store.addTier(tier('words'));
    const n = 25_000;
    const batch = Array.from({ length: n }, (_, i) => ann(iv(i, i + 3, 10), { id: i + 1 }));
    await expect(store.addMany([...batch, ann(iv(0, 1), { id: 7 })])).rejects.toThrow(new RegExp(idFor(7)));
    expect(await store.count()).toBe(0);
    expect(await store.addMany(batch)).toBe(n);
    expect(ids(await store.intersects(iv(100, 101, 10)))).toEqual([99, 100, 101].map(idFor));
    await expect(store.add(ann(iv(0, 1), { id: 5 }))).rejects.toThrow(/already in the store/);
    await store.close();
  });
});

describe('the duration classes of the interval index', () => {
  it('puts every duration in the smallest class whose bound holds it', () => {
    for (const duration of [1e-9, 2 ** -20, 0.1, 0.5, 1, 3, 2 ** 10, 86400 * 365]) {
      const c = durationClass(100, 100 + duration);
      expect(classBound(c)).toBeGreaterThanOrEqual(100 + duration - 100);
      expect(c === 1 || classBound(c - 1) < 100 + duration - 100).toBe(true);
    }
    expect(durationClass(5, 5)).toBe(0);
  });
});

describe('the float-keyed index with exact recheck', () => {
  it('answers like brute force for times near each other at unrelated large rates, where floats round', async () => {
    // Neighbouring instants a few ticks apart at rates up to 10^9 and offsets up to 10^6 s: float
    // seconds collide or round across each other, the exact answers must not change.
    const base = 123_456;
    const time = fc.tuple(fc.integer({ min: -3, max: 3 }), fc.constantFrom(1, 7, 1001, 30000, 999_999_937, 1_000_000_000))
      .map(([ticks, r]) => new RationalTime(base * r + ticks, r));
    const interval = fc.tuple(time, time).map(([a, b]) => (a.le(b) ? new TimeInterval(a, b) : new TimeInterval(b, a)));
    await fc.assert(
      fc.asyncProperty(fc.array(interval, { minLength: 1, maxLength: 25 }), interval, fc.subarray([...ALLEN_RELATIONS]), async (xs, q, rels) => {
        const store = await SqliteStore.open(':memory:');
        try {
          await store.addTier(tier('words'));
          const annotations = xs.map((x, i) => ann(x, { id: i + 1 }));
          await store.addMany(annotations);
          const expected = (keep: (x: TimeInterval) => boolean): string[] =>
            annotations
              .filter((a) => a.reference.kind === 'media' && keep(a.reference.interval))
              .sort((a, b) => {
                const x = (a.reference as { interval: TimeInterval }).interval;
                const y = (b.reference as { interval: TimeInterval }).interval;
                return x.start.compare(y.start) || x.end.compare(y.end) || (a.id < b.id ? -1 : 1);
              })
              .map((a) => a.id);
          expect(ids(await store.relate(q, rels))).toEqual(expected((x) => rels.some((r) => holds(r, x, q))));
          expect(ids(await store.getAt(q))).toEqual(expected((x) => x.equals(q)));
          const keys = await collect(store.intervals());
          for (let i = 1; i < keys.length; i++) expect(keys[i - 1].start.compare(keys[i].start) || keys[i - 1].end.compare(keys[i].end)).toBe(-1);
        } finally {
          await store.close();
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('SqliteStore window reads once its interval index is in memory', () => {
  /** Every page of a window read, as ids; and the unpaged answer it must equal. */
  const pagedIds = async (store: SqliteStore, window: TimeInterval, limit: number): Promise<string[]> => {
    const out: string[] = [];
    let after: Awaited<ReturnType<SqliteStore['read']>>['next'] = null;
    do {
      const page: Awaited<ReturnType<SqliteStore['read']>> = await store.read({ window }, { after, limit, form: 'objects' });
      out.push(...ids(page.items as Annotation[]));
      after = page.next;
    } while (after !== null);
    return out;
  };
  const agrees = async (store: SqliteStore): Promise<void> => {
    for (const window of [iv(0, 10_000), iv(100, 250), point(4000)]) {
      expect(await pagedIds(store, window, 97)).toEqual(ids(await store.intersects(window)));
    }
  };

  /** Lets the event loop turn, so the index's build (a slice per turn, sqlite-warm-build.ts) moves on. */
  const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

  it('is read in slices by warmUp, and answers as SQLite does once built', async () => {
    const store = await SqliteStore.open(':memory:');
    try {
      await store.addTier(tier('words'));
      await store.addMany(Array.from({ length: 20_000 }, (_, i) => ann(iv(i, i + 2 + 2 * (i % 5), 2), { id: i + 1 })));
      const cold = await pagedIds(store, iv(100, 250), 97);
      let turns = 0;
      let built: boolean | undefined;
      void store.warmUp().then((warm) => (built = warm));
      while (built === undefined) {
        await turn();
        turns++;
      }
      expect(built).toBe(true);
      expect(turns).toBeGreaterThan(1); // in slices, not one block
      expect(await pagedIds(store, iv(100, 250), 97)).toEqual(cold);
      await agrees(store);
      expect(await store.warmUp()).toBe(true); // already warm
    } finally {
      await store.close();
    }
  });

  it('stays right when its own writes land while the index is being read: moves, deletes, inserts, a rowid used again', async () => {
    const store = await SqliteStore.open(':memory:');
    try {
      await store.addTier(tier('words'));
      const n = 20_000;
      await store.addMany(Array.from({ length: n }, (_, i) => ann(iv(i, i + 2 + 2 * (i % 5), 2), { id: i + 1 })));
      let built: boolean | undefined;
      void store.warmUp().then((warm) => (built = warm));
      let writesWhileBuilding = 0;
      for (let i = 1; built === undefined && i <= 400; i++) {
        writesWhileBuilding++;
        // A row moved twice (from one place in the index to another, then on), a delete, and an insert.
        const moved = 1 + ((i * 37) % n);
        // Both places in a duration class the build reads, the last one late in it: the build reads it there too.
        await store.update(ann(iv(2 * i, 2 * i + 2, 2), { id: moved, label: 'moved' }));
        await turn();
        await store.update(ann(iv(2 * (9000 - i), 2 * (9000 - i) + 2, 2), { id: moved, label: 'moved again' }));
        if (i % 3 === 0) await store.delete(idFor(1 + ((i * 53) % n)));
        await store.add(ann(iv(4000 + i, 4001 + i), { id: 50_000 + i }));
        await turn();
      }
      // The last row deleted and a new one added: SQLite gives the new row the freed rowid.
      await store.delete(idFor(50_000 + 1));
      await store.add(ann(iv(77, 78), { id: 60_000 }));
      while (built === undefined) await turn();
      expect(built).toBe(true);
      expect(writesWhileBuilding).toBeGreaterThan(3);
      for (let i = 0; i < 2; i++) await agrees(store);
      expect(await pagedIds(store, iv(0, 10_000), 500)).toEqual(ids(await store.intersects(iv(0, 10_000))));
    } finally {
      await store.close();
    }
  });

  it('stays right across large writes of its own (more than it catches up with row by row) and small ones', async () => {
    const store = await SqliteStore.open(':memory:');
    try {
      await store.addTier(tier('words'));
      await store.addMany(Array.from({ length: 3000 }, (_, i) => ann(iv(i, i + 1 + (i % 7)), { id: i + 1 })));
      // Warm: one check reads far more than the WARM_AFTER windows that build the index; the second runs with it built.
      for (let i = 0; i < 2; i++) await agrees(store);
      // Past what the index catches up with: 5,000 new rows, then 5,000 updates (the index is rebuilt later).
      await store.addMany(Array.from({ length: 5000 }, (_, i) => ann(iv(i * 2, i * 2 + 3), { id: 10_000 + i })));
      await agrees(store);
      for (let i = 0; i < 5000; i++) await store.update(ann(iv(i + 5000, i + 5003), { id: 10_000 + i, label: 'moved' }));
      for (let i = 0; i < 2; i++) await agrees(store);
      // A few changes at a time, each caught up with.
      for (let i = 1; i <= 20; i++) {
        if (i % 3 === 0) await store.delete(idFor(i));
        else await store.update(ann(iv(9000 + i, 9000 + i), { id: i }));
        await store.add(ann(iv(4000 - i, 4000 + i), { id: 20_000 + i }));
        await agrees(store);
      }
    } finally {
      await store.close();
    }
  });
});

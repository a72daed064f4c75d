import fc from 'fast-check';
import { annotationInterval, type Annotation } from '../../src/model/annotation.js';
import { UnknownTierError } from '../../src/store/errors.js';
import { MemoryStore, type StoreChange } from '../../src/store/memory.js';
import { sortByInterval } from '../../src/store/ordering.js';
import { intersects } from '../../src/time/allen.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { describeStoreContract } from './contract.js';
import { ann, collect, idFor, ids, iv, tier } from './fixtures.js';

describeStoreContract('memory', async () => new MemoryStore());

describe('MemoryStore beyond the contract', () => {
  it('hands each validated change to beforeCommit, and a throw there leaves the store unchanged', async () => {
    const changes: StoreChange[] = [];
    let refuse = false;
    const store = new MemoryStore({
      beforeCommit: (change) => {
        if (refuse) throw new Error('log is full');
        changes.push(change);
      },
    });
    await store.addTier(tier('words'));
    await store.add(ann(iv(0, 1), { id: 1 }));
    await store.setMeta('k', 'v');
    await store.setAt(iv(0, 1), [ann(iv(0, 1), { id: 2 })]);
    expect(changes.map((c) => c.kind)).toEqual(['tier', 'annotations', 'meta', 'annotations']);
    expect(changes[3]).toMatchObject({ kind: 'annotations', delete: [idFor(1)] });
    refuse = true;
    await expect(store.add(ann(iv(5, 6), { id: 3 }))).rejects.toThrow('log is full');
    await expect(store.update(ann(iv(5, 6), { id: 2 }))).rejects.toThrow('log is full');
    await expect(store.deleteAt(iv(0, 1))).rejects.toThrow('log is full');
    await expect(store.addTier(tier('notes'))).rejects.toThrow('log is full');
    expect(ids(await store.intersects(iv(0, 10)))).toEqual([idFor(2)]);
    expect(await store.listTiers()).toHaveLength(1);
  });

  it('passes nothing to beforeCommit for a refused call', async () => {
    const changes: StoreChange[] = [];
    const store = new MemoryStore({ beforeCommit: (change) => changes.push(change) });
    await expect(store.add(ann(iv(0, 1), { id: 1 }))).rejects.toBeInstanceOf(UnknownTierError);
    expect(changes).toEqual([]);
  });

  it('loads a snapshot keeping its tier order, even a child listed before its parent', async () => {
    const store = new MemoryStore();
    store.load({
      tiers: [tier('lines', { stereotype: 'INCLUDED_IN', parent: 'words' }), tier('words')],
      meta: { title: 't' },
      annotations: [ann(iv(0, 1), { id: 2 }), ann(iv(0, 1), { id: 1, tier: 'lines' })],
    });
    expect((await store.listTiers()).map((t) => t.name)).toEqual(['lines', 'words']);
    expect(ids(await collect(store.all()))).toEqual([idFor(2), idFor(1)]);
    expect(await store.getMeta('title')).toBe('t');
    expect(() => store.load({ tiers: [], meta: {}, annotations: [] })).toThrow(/empty store/);
    expect(() => new MemoryStore().load({ tiers: [tier('a', { stereotype: 'INCLUDED_IN', parent: 'b' })], meta: {}, annotations: [] })).toThrow(UnknownTierError);
  });

  it('lists a tier in insertion order after an update moved an annotation into it', async () => {
    const store = new MemoryStore();
    await store.addTier(tier('words'));
    await store.addTier(tier('notes'));
    await store.add(ann(iv(0, 1), { id: 1, tier: 'words' }));
    await store.add(ann(iv(0, 1), { id: 2, tier: 'notes' }));
    await store.update(ann(iv(0, 1), { id: 1, tier: 'notes' }));
    expect(ids(await store.byTier('notes'))).toEqual([idFor(1), idFor(2)]);
    expect(await store.byTier('words')).toEqual([]);
  });

  it('keeps streaming all() while the store changes underneath', async () => {
    const store = new MemoryStore();
    await store.addTier(tier('words'));
    await store.addMany([1, 2, 3].map((n) => ann(iv(n, n + 1), { id: n })));
    const seen: string[] = [];
    for await (const annotation of store.all()) {
      seen.push(annotation.id);
      if (annotation.id === idFor(1)) await store.add(ann(iv(9, 10), { id: 4 }));
    }
    expect(seen).toContain(idFor(1));
    expect(await store.count()).toBe(4);
  });

  it('agrees with brute force through random adds, updates and deletes', async () => {
    const time = fc.integer({ min: 0, max: 30 }).chain((v) => fc.constantFrom(1, 2, 3).map((k) => new RationalTime(v * k, 2 * k)));
    const interval = fc.tuple(time, time).map(([a, b]) => (a.le(b) ? new TimeInterval(a, b) : new TimeInterval(b, a)));
    const op = fc.tuple(fc.constantFrom('add', 'update', 'delete', 'deleteAt'), fc.integer({ min: 1, max: 25 }), interval);
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 120 }), fc.array(interval, { minLength: 1, maxLength: 5 }), async (ops, queries) => {
        const store = new MemoryStore();
        await store.addTier(tier('words'));
        const model = new Map<string, Annotation>();
        for (const [kind, n, x] of ops) {
          const id = idFor(n);
          if (kind === 'add' && !model.has(id)) {
            await store.add(ann(x, { id }));
            model.set(id, ann(x, { id }));
          } else if (kind === 'update' && model.has(id)) {
            await store.update(ann(x, { id }));
            model.set(id, ann(x, { id }));
          } else if (kind === 'delete') {
            expect((await store.delete(id))?.id ?? null).toBe(model.has(id) ? id : null);
            model.delete(id);
          } else if (kind === 'deleteAt') {
            const doomed = [...model.values()].filter((a) => annotationInterval(a)?.equals(x));
            expect(await store.deleteAt(x)).toBe(doomed.length);
            for (const a of doomed) model.delete(a.id);
          }
        }
        const everything = [...model.values()];
        expect(await store.count()).toBe(model.size);
        for (const q of queries) {
          const want = sortByInterval(everything.filter((a) => intersects(annotationInterval(a) as TimeInterval, q)));
          expect(ids(await store.intersects(q))).toEqual(ids(want));
        }
        const keys = new Set(everything.map((a) => (annotationInterval(a) as TimeInterval).valueKey()));
        expect((await collect(store.intervals())).map((k) => k.valueKey()).sort()).toEqual([...keys].sort());
      }),
      { numRuns: 60 },
    );
  });
});

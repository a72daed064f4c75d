import fc from 'fast-check';
import type { Annotation } from '../../src/model/annotation.js';
import { annotationInterval } from '../../src/model/annotation.js';
import {
  AnnotationNotFoundError,
  DuplicateAnnotationIdError,
  InvalidCursorError,
  KeyMismatchError,
  UnknownTierError,
} from '../../src/store/errors.js';
import type { ReadPage, ReadPosition, ReadQuery } from '../../src/store/read-page.js';
import type { AnnotationStore } from '../../src/store/store.js';
import { annotationWireJson } from '../../src/model/wire-json.js';
import { ALLEN_RELATIONS, holds, intersects, type AllenRelation } from '../../src/time/allen.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { ann, collect, idFor, ids, iv, point, refAnn, tier, wire } from './fixtures.js';

/**
 * The one contract every AnnotationStore is held to. Each store's test file calls
 *
 *   describeStoreContract('sqlite', () => SqliteStore.open(':memory:'));
 *
 * `open` must return a fresh, empty store each time it is called (the suite opens one per test and
 * one per property-test run). `cleanup` runs after each test in place of `store.close()`; give it
 * when a store needs more (dropping a schema, deleting a file), and close the store in it.
 *
 * Kept small on purpose (a few dozen annotations per test, 40 property runs) so the PostgreSQL
 * store can run it against a real database in seconds.
 */
export function describeStoreContract(
  name: string,
  open: () => Promise<AnnotationStore>,
  cleanup?: (store: AnnotationStore) => Promise<void>,
): void {
  const dispose = async (store: AnnotationStore): Promise<void> => {
    if (cleanup) await cleanup(store);
    else await store.close();
  };

  describe(`${name} store contract`, () => {
    let store: AnnotationStore;

    beforeEach(async () => {
      store = await open();
      await store.addTier(tier('words'));
      await store.addTier(tier('notes'));
    });

    afterEach(async () => {
      await dispose(store);
    });

    describe('annotations by id', () => {
      it('returns what was added field for field, at its original rates', async () => {
        const a = ann(iv(24000, 72000, 48000), { id: 1, confidence: 0.94, label: 'é “quoted” 🎵' });
        const r = refAnn(a.id, { id: 2, confidence: 0.5 });
        await store.add(a);
        await store.add(r);
        expect(wire(await store.get(a.id))).toEqual(wire(a));
        expect(wire(await store.get(r.id))).toEqual(wire(r));
        const back = await store.get(a.id);
        expect(annotationInterval(back as Annotation)?.start.isIdentical(new RationalTime(24000, 48000))).toBe(true);
      });

      it('returns null for an id it does not hold', async () => {
        expect(await store.get(idFor(99))).toBeNull();
      });

      it('refuses a second annotation with an id it holds and keeps the first', async () => {
        await store.add(ann(iv(0, 10), { id: 1, label: 'first' }));
        await expect(store.add(ann(iv(5, 6), { id: 1, label: 'second' }))).rejects.toBeInstanceOf(DuplicateAnnotationIdError);
        expect((await store.get(idFor(1)))?.body).toEqual({ text: 'first' });
        expect(await store.count()).toBe(1);
        expect(ids(await store.intersects(iv(5, 6)))).toEqual([idFor(1)]);
      });

      it('refuses an annotation on a tier it has not registered', async () => {
        await expect(store.add(ann(iv(0, 10), { id: 1, tier: 'nowhere' }))).rejects.toBeInstanceOf(UnknownTierError);
        expect(await store.count()).toBe(0);
        expect(await store.get(idFor(1))).toBeNull();
      });

      it('replaces an annotation on update and keeps its place in all()', async () => {
        await store.add(ann(iv(0, 1), { id: 3 }));
        await store.add(ann(iv(1, 2), { id: 1 }));
        await store.add(ann(iv(2, 3), { id: 2 }));
        const revised = ann(iv(2, 3, 2), { id: 1, label: 'revised', confidence: 0.25 });
        await store.update(revised);
        expect(wire(await store.get(idFor(1)))).toEqual(wire(revised));
        expect(ids(await collect(store.all()))).toEqual([idFor(3), idFor(1), idFor(2)]);
        expect(await store.count()).toBe(3);
      });

      it('answers queries from the updated interval, not the old one', async () => {
        await store.add(ann(iv(0, 10), { id: 1 }));
        await store.update(ann(iv(100, 110), { id: 1 }));
        expect(await store.intersects(iv(0, 10))).toEqual([]);
        expect(ids(await store.intersects(iv(105, 106)))).toEqual([idFor(1)]);
        expect(await store.getAt(iv(0, 10))).toEqual([]);
        expect((await collect(store.intervals())).map((k) => k.toString())).toEqual([iv(100, 110).toString()]);
      });

      it('can turn an interval annotation into an AnnotationRef and back on update', async () => {
        await store.add(ann(iv(0, 10), { id: 1 }));
        await store.update(refAnn(idFor(7), { id: 1, tier: 'words' }));
        expect(await store.intersects(iv(0, 10))).toEqual([]);
        expect(ids(await store.byTier('words'))).toEqual([idFor(1)]);
        await store.update(ann(iv(3, 4), { id: 1 }));
        expect(ids(await store.intersects(iv(0, 10)))).toEqual([idFor(1)]);
      });

      it('refuses to update an id it does not hold', async () => {
        await expect(store.update(ann(iv(0, 1), { id: 1 }))).rejects.toBeInstanceOf(AnnotationNotFoundError);
        expect(await store.count()).toBe(0);
      });

      it('refuses an update onto an unregistered tier and keeps the old annotation', async () => {
        const a = ann(iv(0, 1), { id: 1 });
        await store.add(a);
        await expect(store.update(ann(iv(5, 6), { id: 1, tier: 'nowhere' }))).rejects.toBeInstanceOf(UnknownTierError);
        expect(wire(await store.get(a.id))).toEqual(wire(a));
        expect(ids(await store.intersects(iv(0, 1)))).toEqual([a.id]);
      });

      it('deletes by id, returning the removed annotation, and returns null for an id it does not hold', async () => {
        const a = ann(iv(0, 10), { id: 1 });
        await store.add(a);
        await store.add(ann(iv(0, 10), { id: 2 }));
        expect(wire(await store.delete(a.id))).toEqual(wire(a));
        expect(await store.delete(a.id)).toBeNull();
        expect(await store.get(a.id)).toBeNull();
        expect(ids(await store.intersects(iv(0, 10)))).toEqual([idFor(2)]);
        expect(ids(await collect(store.all()))).toEqual([idFor(2)]);
        expect(await store.count()).toBe(1);
      });

      it('lets a deleted id be added again', async () => {
        await store.add(ann(iv(0, 10), { id: 1 }));
        await store.delete(idFor(1));
        await store.add(ann(iv(20, 30), { id: 1 }));
        expect(ids(await store.intersects(iv(20, 30)))).toEqual([idFor(1)]);
      });

      it('counts every annotation, AnnotationRefs included', async () => {
        await store.add(ann(iv(0, 10), { id: 1 }));
        await store.add(ann(iv(0, 10), { id: 2 }));
        await store.add(refAnn(idFor(1), { id: 3 }));
        expect(await store.count()).toBe(3);
      });
    });

    describe('addMany', () => {
      it('adds every annotation of a batch and returns how many it added', async () => {
        const batch = [ann(iv(0, 1), { id: 1 }), refAnn(idFor(1), { id: 2 }), ann(point(5), { id: 3 })];
        expect(await store.addMany(batch)).toBe(3);
        expect(ids(await collect(store.all()))).toEqual([idFor(1), idFor(2), idFor(3)]);
      });

      it('accepts an async iterable', async () => {
        async function* generate(): AsyncGenerator<Annotation> {
          for (let i = 1; i <= 5; i += 1) yield ann(iv(i, i + 1), { id: i });
        }
        expect(await store.addMany(generate())).toBe(5);
        expect(await store.count()).toBe(5);
      });

      it('returns 0 for an empty batch', async () => {
        expect(await store.addMany([])).toBe(0);
      });

      it('writes nothing when one annotation of the batch has an id the store holds', async () => {
        await store.add(ann(iv(0, 1), { id: 2 }));
        const batch = [ann(iv(10, 11), { id: 1 }), ann(iv(20, 21), { id: 2 }), ann(iv(30, 31), { id: 3 })];
        await expect(store.addMany(batch)).rejects.toBeInstanceOf(DuplicateAnnotationIdError);
        expect(ids(await collect(store.all()))).toEqual([idFor(2)]);
        expect(await store.intersects(iv(0, 100))).toHaveLength(1);
      });

      it('writes nothing when the batch repeats an id', async () => {
        const batch = [ann(iv(10, 11), { id: 1 }), ann(iv(20, 21), { id: 2 }), ann(iv(30, 31), { id: 1 })];
        await expect(store.addMany(batch)).rejects.toBeInstanceOf(DuplicateAnnotationIdError);
        expect(await store.count()).toBe(0);
        expect(await store.get(idFor(1))).toBeNull();
        expect(await collect(store.intervals())).toEqual([]);
      });

      it('writes nothing when one annotation of the batch names an unregistered tier', async () => {
        const batch = [ann(iv(10, 11), { id: 1 }), refAnn(idFor(1), { id: 2 }), ann(iv(30, 31), { id: 3, tier: 'nowhere' })];
        await expect(store.addMany(batch)).rejects.toBeInstanceOf(UnknownTierError);
        expect(await store.count()).toBe(0);
        expect(await store.byTier('notes')).toEqual([]);
      });
    });

    describe('tiers', () => {
      it('returns a registered tier with every field, and null for a name it does not know', async () => {
        const lines = tier('lines', { stereotype: 'INCLUDED_IN', parent: 'words', metadata: { lang: 'en', n: [1, { a: null }] } });
        await store.addTier(lines);
        expect(await store.getTier('lines')).toEqual(lines);
        expect(await store.getTier('nowhere')).toBeNull();
      });

      it('upserts by name, keeping the tier in its registration place', async () => {
        await store.addTier(tier('lines', { stereotype: 'INCLUDED_IN', parent: 'words' }));
        await store.addTier(tier('words', { metadata: { annotator: 'ana' } }));
        expect(await store.getTier('words')).toEqual(tier('words', { metadata: { annotator: 'ana' } }));
        expect((await store.listTiers()).map((t) => t.name)).toEqual(['words', 'notes', 'lines']);
      });

      it('lists tiers in registration order', async () => {
        await store.addTier(tier('a-child', { stereotype: 'TIME_SUBDIVISION', parent: 'notes' }));
        await store.addTier(tier('0-first'));
        expect(await store.listTiers()).toEqual([
          tier('words'),
          tier('notes'),
          tier('a-child', { stereotype: 'TIME_SUBDIVISION', parent: 'notes' }),
          tier('0-first'),
        ]);
      });

      it('refuses a child tier whose parent is not registered yet, and accepts it after the parent', async () => {
        const child = tier('syllables', { stereotype: 'SYMBOLIC_SUBDIVISION', parent: 'phones' });
        await expect(store.addTier(child)).rejects.toBeInstanceOf(UnknownTierError);
        expect(await store.getTier('syllables')).toBeNull();
        await store.addTier(tier('phones'));
        await store.addTier(child);
        expect(await store.getTier('syllables')).toEqual(child);
      });
    });

    describe('metadata', () => {
      it('stores string values by key, overwrites them, and returns null for a key it does not hold', async () => {
        expect(await store.getMeta('title')).toBeNull();
        await store.setMeta('title', 'Session 1');
        await store.setMeta('empty', '');
        await store.setMeta('title', 'Session 2 — ünïcode');
        expect(await store.getMeta('title')).toBe('Session 2 — ünïcode');
        expect(await store.getMeta('empty')).toBe('');
        expect(await store.listMeta()).toMatchObject({ title: 'Session 2 — ünïcode', empty: '' });
      });
    });

    describe('an empty store', () => {
      it('answers every query with nothing', async () => {
        const q = iv(0, 10);
        expect(await store.count()).toBe(0);
        expect(await collect(store.all())).toEqual([]);
        expect(await store.intersects(q)).toEqual([]);
        expect(await store.during(q)).toEqual([]);
        expect(await store.contains(q)).toEqual([]);
        expect(await store.relate(q, ALLEN_RELATIONS)).toEqual([]);
        expect(await store.byTier('words')).toEqual([]);
        expect(await store.atTier('words', q)).toEqual([]);
        expect(await store.getAt(q)).toEqual([]);
        expect(await collect(store.intervals())).toEqual([]);
        expect(await store.deleteAt(q)).toBe(0);
      });
    });

    describe('Allen relations with the annotation as left operand, against q = [10, 20)', () => {
      const q = iv(10, 20);
      // One proper annotation per relation, id n = its position in ALLEN_RELATIONS.
      const AROUND_Q: Record<AllenRelation, TimeInterval> = {
        before: iv(0, 5),
        after: iv(25, 30),
        meets: iv(5, 10),
        met_by: iv(20, 25),
        overlaps: iv(5, 15),
        overlapped_by: iv(15, 25),
        starts: iv(10, 15),
        started_by: iv(10, 25),
        during: iv(12, 18),
        contains: iv(5, 25),
        finishes: iv(15, 20),
        finished_by: iv(5, 20),
        equals: iv(10, 20),
      };
      const idOf = (relation: AllenRelation): string => idFor(ALLEN_RELATIONS.indexOf(relation) + 1);

      beforeEach(async () => {
        await store.addMany(ALLEN_RELATIONS.map((r, i) => ann(AROUND_Q[r], { id: i + 1 })));
        await store.add(refAnn(idFor(1), { id: 100, tier: 'words' }));
      });

      it.each(ALLEN_RELATIONS.map((r) => [r]))('returns exactly the annotation that %s q', async (relation) => {
        expect(ids(await store.relate(q, [relation]))).toEqual([idOf(relation)]);
      });

      it('returns the annotations satisfying any of several relations, each once, in start order', async () => {
        expect(ids(await store.relate(q, ['before', 'during', 'after', 'during']))).toEqual(
          [idOf('before'), idOf('during'), idOf('after')],
        );
      });

      it('returns every interval annotation once for all thirteen relations, and nothing for none', async () => {
        expect(await store.relate(q, ALLEN_RELATIONS)).toHaveLength(13);
        expect(await store.relate(q, [])).toEqual([]);
      });

      it('treats intersects as the nine relations that share time with q', async () => {
        const nine: AllenRelation[] = ['overlaps', 'overlapped_by', 'starts', 'started_by', 'during', 'contains', 'finishes', 'finished_by', 'equals'];
        expect(ids(await store.intersects(q)).sort()).toEqual(nine.map(idOf).sort());
        expect(await store.intersects(q)).toEqual(await store.relate(q, nine));
      });

      it('returns only annotations strictly inside q from during and strictly around q from contains', async () => {
        expect(ids(await store.during(q))).toEqual([idOf('during')]);
        expect(ids(await store.contains(q))).toEqual([idOf('contains')]);
      });

      it('treats touching intervals as meeting, not intersecting', async () => {
        expect(ids(await store.intersects(iv(0, 5)))).toEqual([idOf('before')]);
        expect(ids(await store.relate(iv(25, 30), ['meets']))).toEqual(
          [idOf('contains'), idOf('started_by'), idOf('overlapped_by'), idOf('met_by')],
        );
      });

      it('answers the same for the query spelled at another rate', async () => {
        const q48k = iv(480000, 960000, 48000);
        for (const relation of ALLEN_RELATIONS) {
          expect(ids(await store.relate(q48k, [relation]))).toEqual([idOf(relation)]);
        }
      });
    });

    describe('points', () => {
      beforeEach(async () => {
        await store.addMany([
          ann(point(10), { id: 1 }),
          ann(point(20), { id: 2 }),
          ann(point(15), { id: 3 }),
          ann(iv(0, 10), { id: 4 }),
          ann(iv(10, 20), { id: 5 }),
          ann(point(20, 2), { id: 6 }), // 10 s, another spelling of point 1
        ]);
      });

      it("finds a point at a window's start and not one at its end", async () => {
        expect(ids(await store.intersects(iv(10, 20)))).toEqual([idFor(1), idFor(6), idFor(5), idFor(3)]);
      });

      it('finds the intervals that hold a point query, but not the one ending there', async () => {
        expect(ids(await store.intersects(point(10)))).toEqual([idFor(1), idFor(6), idFor(5)]);
        expect(ids(await store.intersects(point(15)))).toEqual([idFor(5), idFor(3)]);
        expect(ids(await store.intersects(point(20)))).toEqual([idFor(2)]);
      });

      it('treats equal points as equal (at any rate) and not as meeting', async () => {
        expect(ids(await store.relate(point(10), ['equals']))).toEqual([idFor(1), idFor(6)]);
        expect(ids(await store.relate(point(10), ['meets']))).toEqual([idFor(4)]);
        expect(ids(await store.relate(point(10), ['met_by']))).toEqual([idFor(5)]);
      });

      it('returns a point that both meets and starts q for either relation', async () => {
        const q = iv(10, 20);
        expect(ids(await store.relate(q, ['meets']))).toEqual([idFor(4), idFor(1), idFor(6)]);
        expect(ids(await store.relate(q, ['starts']))).toEqual([idFor(1), idFor(6)]);
        expect(ids(await store.relate(q, ['met_by']))).toEqual([idFor(2)]);
        expect(ids(await store.relate(q, ['finishes']))).toEqual([idFor(2)]);
        expect(ids(await store.relate(q, ['meets', 'starts']))).toEqual([idFor(4), idFor(1), idFor(6)]);
      });

      it('puts a point strictly inside q in during, and never a point in contains', async () => {
        expect(ids(await store.during(iv(10, 20)))).toEqual([idFor(3)]);
        expect(ids(await store.contains(point(15)))).toEqual([idFor(5)]);
        expect(await store.contains(iv(9, 11))).toEqual([]);
      });
    });

    describe('cross-rate values and ordering', () => {
      it('treats 1/2 at rate 2, 2/4 at rate 4 and 24000/48000 as one instant', async () => {
        await store.addMany([
          ann(iv(1, 2, 2), { id: 3 }),
          ann(iv(2, 4, 4), { id: 1 }),
          ann(iv(24000, 48000, 48000), { id: 2 }),
        ]);
        const q = iv(500, 1000, 1000);
        expect(ids(await store.relate(q, ['equals']))).toEqual([idFor(1), idFor(2), idFor(3)]);
        expect(ids(await store.getAt(q))).toEqual([idFor(1), idFor(2), idFor(3)]);
        const keys = await collect(store.intervals());
        expect(keys).toHaveLength(1);
        expect(keys[0].equals(q)).toBe(true);
        expect(ids(await store.relate(iv(1, 1, 1), ['meets']))).toEqual([idFor(1), idFor(2), idFor(3)]);
        expect(await store.relate(iv(1, 1, 1), ['before'])).toEqual([]);
      });

      it('orders results by start, then end, then id, comparing rational values', async () => {
        await store.addMany([
          ann(iv(1, 3, 3), { id: 9 }), // [1/3, 1)
          ann(iv(3334, 10000, 10000), { id: 1 }), // [0.3334, 1): just after 1/3
          ann(iv(3333, 10000, 10000), { id: 8 }), // [0.3333, 1): just before 1/3
          ann(iv(2, 6, 6), { id: 4 }), // [1/3, 1) again, smaller id
          ann(iv(1, 2, 3), { id: 5 }), // [1/3, 2/3)
          ann(point(1, 3), { id: 7 }), // the point 1/3
          ann(iv(0, 1, 1), { id: 6 }), // [0, 1)
        ]);
        const expected = [6, 8, 7, 5, 4, 9, 1].map(idFor);
        expect(ids(await store.intersects(iv(0, 1)))).toEqual(expected);
        expect(ids(await store.relate(iv(0, 1), ALLEN_RELATIONS))).toEqual(expected);
        const keys = (await collect(store.intervals())).map((k) => `${k.start.valueKey()}|${k.end.valueKey()}`);
        expect(keys).toEqual([iv(0, 1), iv(3333, 10000, 10000), point(1, 3), iv(1, 2, 3), iv(1, 3, 3), iv(3334, 10000, 10000)]
          .map((k) => `${k.start.valueKey()}|${k.end.valueKey()}`));
      });

      it('orders ties by id whatever the insertion order', async () => {
        await store.addMany([5, 2, 9, 1, 7].map((n) => ann(iv(3, 4), { id: n })));
        expect(ids(await store.intersects(iv(0, 10)))).toEqual([1, 2, 5, 7, 9].map(idFor));
        expect(ids(await store.getAt(iv(3, 4)))).toEqual([1, 2, 5, 7, 9].map(idFor));
        expect(ids(await store.atTier('words', iv(3, 4)))).toEqual([1, 2, 5, 7, 9].map(idFor));
      });
    });

    describe('AnnotationRefs, tiers and streaming', () => {
      beforeEach(async () => {
        await store.addTier(tier('lines'));
        await store.add(ann(iv(5, 6), { id: 4, tier: 'words' }));
        await store.add(refAnn(idFor(4), { id: 1, tier: 'words' }));
        await store.add(ann(iv(0, 10), { id: 2, tier: 'lines' }));
        await store.add(ann(iv(1, 2), { id: 3, tier: 'words' }));
        await store.add(refAnn(idFor(2), { id: 5, tier: 'notes' }));
      });

      it('never returns an AnnotationRef from an interval query', async () => {
        const everything = iv(-1000, 1000);
        expect(ids(await store.intersects(everything))).toEqual([2, 3, 4].map(idFor));
        expect(ids(await store.relate(everything, ALLEN_RELATIONS))).toEqual([2, 3, 4].map(idFor));
        expect(ids(await store.relate(point(0), ALLEN_RELATIONS))).toEqual([2, 3, 4].map(idFor));
        expect(await store.atTier('notes', everything)).toEqual([]);
        expect(ids(await store.atTier('words', everything))).toEqual([3, 4].map(idFor));
        expect((await collect(store.intervals())).map(String)).toEqual([iv(0, 10), iv(1, 2), iv(5, 6)].map(String));
      });

      it('returns AnnotationRefs from all(), byTier and count', async () => {
        expect(ids(await collect(store.all()))).toEqual([4, 1, 2, 3, 5].map(idFor));
        expect(ids(await store.byTier('words'))).toEqual([4, 1, 3].map(idFor));
        expect(ids(await store.byTier('notes'))).toEqual([idFor(5)]);
        expect(await store.byTier('nowhere')).toEqual([]);
        expect(await store.count()).toBe(5);
      });

      it('limits atTier to the tier and to annotations that intersect the query', async () => {
        expect(ids(await store.atTier('words', iv(2, 5)))).toEqual([]);
        expect(ids(await store.atTier('words', iv(1, 6)))).toEqual([3, 4].map(idFor));
        expect(ids(await store.atTier('lines', point(9)))).toEqual([idFor(2)]);
        expect(await store.atTier('lines', point(10))).toEqual([]);
      });

      it('streams all() in insertion order through an async iterator, updates keeping their place', async () => {
        await store.update(ann(iv(50, 60), { id: 1, tier: 'words' }));
        await store.delete(idFor(2));
        await store.add(ann(iv(7, 8), { id: 2, tier: 'lines' }));
        const iterable = store.all();
        expect(typeof iterable[Symbol.asyncIterator]).toBe('function');
        expect(ids(await collect(iterable))).toEqual([4, 1, 3, 5, 2].map(idFor));
        expect(ids(await store.byTier('words'))).toEqual([4, 1, 3].map(idFor));
      });
    });

    describe('the mapping facade', () => {
      beforeEach(async () => {
        await store.addMany([
          ann(iv(1, 2, 2), { id: 2 }),
          ann(iv(2, 4, 4), { id: 1 }),
          ann(iv(0, 10), { id: 3 }),
          ann(point(3), { id: 4 }),
          refAnn(idFor(3), { id: 5 }),
        ]);
      });

      it('returns the annotations at exactly a key, compared by value across rates, ordered by id', async () => {
        expect(ids(await store.getAt(iv(24000, 48000, 48000)))).toEqual([idFor(1), idFor(2)]);
        expect(ids(await store.getAt(point(6, 2)))).toEqual([idFor(4)]);
        expect(await store.getAt(iv(0, 9))).toEqual([]);
      });

      it('lists each distinct interval once, ordered by start then end', async () => {
        const keys = await collect(store.intervals());
        expect(keys.map((k) => `${k.start.valueKey()}|${k.end.valueKey()}`)).toEqual(
          [iv(0, 10), iv(1, 2, 2), point(3)].map((k) => `${k.start.valueKey()}|${k.end.valueKey()}`),
        );
      });

      it('replaces everything at a key with setAt, leaving other keys alone', async () => {
        const key = iv(500, 1000, 1000);
        const fresh = ann(iv(1, 2, 2), { id: 7, label: 'new' });
        const revised = ann(iv(4, 8, 8), { id: 2, label: 'revised' });
        await store.setAt(key, [fresh, revised]);
        expect(ids(await store.getAt(key))).toEqual([idFor(2), idFor(7)]);
        expect(await store.get(idFor(1))).toBeNull();
        expect(wire(await store.get(idFor(2)))).toEqual(wire(revised));
        expect(ids(await store.getAt(iv(0, 10)))).toEqual([idFor(3)]);
        expect(await store.count()).toBe(5);
      });

      it('removes a key when setAt is given an empty list', async () => {
        await store.setAt(iv(1, 2, 2), []);
        expect(await store.getAt(iv(1, 2, 2))).toEqual([]);
        expect(await store.get(idFor(1))).toBeNull();
        expect(await store.count()).toBe(3);
        expect(await collect(store.intervals())).toHaveLength(2);
      });

      it('refuses with KeyMismatchError an annotation that does not sit at the key, and changes nothing', async () => {
        const key = iv(0, 10);
        await expect(store.setAt(key, [ann(iv(0, 10), { id: 8 }), ann(iv(0, 11), { id: 9 })])).rejects.toBeInstanceOf(KeyMismatchError);
        await expect(store.setAt(key, [refAnn(idFor(3), { id: 8 })])).rejects.toBeInstanceOf(KeyMismatchError);
        expect(ids(await store.getAt(key))).toEqual([idFor(3)]);
        expect(await store.get(idFor(8))).toBeNull();
      });

      it('refuses an id held at another key, and an id repeated in the list, changing nothing', async () => {
        const key = iv(0, 10);
        await expect(store.setAt(key, [ann(key, { id: 4 })])).rejects.toBeInstanceOf(DuplicateAnnotationIdError);
        await expect(store.setAt(key, [ann(key, { id: 8 }), ann(key, { id: 8 })])).rejects.toBeInstanceOf(DuplicateAnnotationIdError);
        expect(ids(await store.getAt(key))).toEqual([idFor(3)]);
        expect(ids(await store.getAt(point(3)))).toEqual([idFor(4)]);
        expect(await store.get(idFor(8))).toBeNull();
      });

      it('refuses an unregistered tier in setAt and changes nothing', async () => {
        const key = iv(0, 10);
        await expect(store.setAt(key, [ann(key, { id: 8, tier: 'nowhere' })])).rejects.toBeInstanceOf(UnknownTierError);
        expect(ids(await store.getAt(key))).toEqual([idFor(3)]);
      });

      it('deletes every annotation at a key, across rates, and says how many', async () => {
        expect(await store.deleteAt(iv(3, 6, 6))).toBe(2);
        expect(await store.deleteAt(iv(3, 6, 6))).toBe(0);
        expect(await store.get(idFor(1))).toBeNull();
        expect(await store.get(idFor(2))).toBeNull();
        expect(await store.count()).toBe(3);
        expect(await store.intersects(iv(0, 1))).toHaveLength(1);
      });
    });

    describe('the paged read', () => {
      /** Every page of a read, `limit` at a time, as ids, with the positions handed out. */
      const readAll = async (subject: AnnotationStore, query: ReadQuery, limit: number): Promise<{ pages: string[][]; positions: ReadPosition[] }> => {
        const pages: string[][] = [];
        const positions: ReadPosition[] = [];
        let after: ReadPosition | null = null;
        for (;;) {
          const page: ReadPage<Annotation> = await subject.read(query, { after, limit, form: 'objects' });
          pages.push(ids(page.items));
          if (page.next === null) return { pages, positions };
          positions.push(page.next);
          after = page.next;
        }
      };

      it('pages a window by start, end and id, ties on start and on end included, each annotation once', async () => {
        // Five at exactly [10, 20) (some spelled at another rate), three sharing start 10, three sharing end 20.
        const tied = [5, 3, 9, 1, 7].map((id, i) => ann(i % 2 ? iv(10, 20) : iv(20, 40, 2), { id }));
        const sameStart = [12, 11, 13].map((id, i) => ann(iv(10, 15 + i * 10), { id }));
        const sameEnd = [22, 21, 23].map((id, i) => ann(iv(5 + i, 20), { id }));
        await store.addMany([...tied, ...sameStart, ...sameEnd, refAnn(idFor(1), { id: 99 })]);
        const whole = ids(await store.intersects(iv(0, 100)));
        expect(whole).toHaveLength(11);
        for (const limit of [1, 2, 3, 4, 11, 12]) {
          const { pages } = await readAll(store, { window: iv(0, 100) }, limit);
          expect(pages.flat()).toEqual(whole);
          expect(pages.every((page, i) => page.length === limit || i === pages.length - 1)).toBe(true);
          expect(pages[pages.length - 1].length).toBeGreaterThan(0);
        }
      });

      it('pages the listing in insertion order, interval-less annotations included, an update keeping its place; a tier listing too', async () => {
        const added = [ann(iv(50, 60), { id: 4 }), refAnn(idFor(4), { id: 2 }), ann(iv(0, 1), { id: 3, tier: 'notes' }), ann(iv(5, 6), { id: 1 })];
        await store.addMany(added);
        await store.update(ann(iv(70, 80), { id: 4, label: 'moved' }));
        expect((await readAll(store, {}, 3)).pages).toEqual([[idFor(4), idFor(2), idFor(3)], [idFor(1)]]);
        expect((await readAll(store, { tier: 'notes' }, 1)).pages).toEqual([[idFor(2)], [idFor(3)]]);
        expect((await readAll(store, { tier: 'nowhere' }, 5)).pages).toEqual([[]]);
        const first = await store.read({}, { limit: 1, form: 'objects' });
        expect(first.items[0].body).toEqual({ text: 'moved' });
      });

      it('resumes after the last key when annotations are deleted or added between pages: none repeated, none deleted shown, later ones seen', async () => {
        await store.addMany([1, 2, 3, 4, 5, 6].map((n) => ann(iv(n * 10, n * 10 + 5), { id: n })));
        const first = await store.read({ window: iv(0, 100) }, { limit: 2, form: 'objects' });
        expect(ids(first.items)).toEqual([idFor(1), idFor(2)]);
        await store.delete(idFor(2)); // the key the page ended at
        await store.delete(idFor(4)); // one not seen yet
        await store.add(ann(iv(15, 16), { id: 7 })); // before the key: not seen
        await store.add(ann(iv(90, 95), { id: 8 })); // after it: seen
        const rest = await readAll(store, { window: iv(0, 100) }, 2);
        expect(ids((await store.read({ window: iv(0, 100) }, { after: first.next, limit: 10, form: 'objects' })).items)).toEqual([idFor(3), idFor(5), idFor(6), idFor(8)]);
        expect(rest.pages.flat()).toEqual([idFor(1), idFor(7), idFor(3), idFor(5), idFor(6), idFor(8)]);

        const listing = await store.read({}, { limit: 2, form: 'objects' });
        await store.delete(ids(listing.items)[1]);
        await store.add(ann(iv(1, 2), { id: 9 }));
        expect(ids(listing.items)).toEqual([idFor(1), idFor(3)]);
        expect(ids((await store.read({}, { after: listing.next, limit: 10, form: 'objects' })).items)).toEqual([idFor(5), idFor(6), idFor(7), idFor(8), idFor(9)]);
      });

      it('refuses a position from another query: another window, relation or tier, or a listing\'s', async () => {
        await store.addMany([1, 2, 3].map((n) => ann(iv(n, n + 1), { id: n })));
        const windowed = (await store.read({ window: iv(0, 10) }, { limit: 1, form: 'objects' })).next as ReadPosition;
        const listed = (await store.read({}, { limit: 1, form: 'objects' })).next as ReadPosition;
        expect(windowed).not.toBeNull();
        // The same window at another rate is the same query.
        expect(ids((await store.read({ window: iv(0, 10000, 1000) }, { after: windowed, limit: 5, form: 'objects' })).items)).toEqual([idFor(2), idFor(3)]);
        for (const [query, after] of [
          [{ window: iv(0, 11) }, windowed],
          [{ window: iv(0, 10), relation: 'during' }, windowed],
          [{ window: iv(0, 10), tier: 'words' }, windowed],
          [{}, windowed],
          [{ window: iv(0, 10) }, listed],
          [{ tier: 'words' }, listed],
        ] as Array<[ReadQuery, ReadPosition]>) {
          await expect(store.read(query, { after, limit: 1, form: 'objects' })).rejects.toBeInstanceOf(InvalidCursorError);
        }
      });

      it('gives the wire-json form as the annotations\' output-form texts, and wire-bytes as their UTF-8 bytes, byte for byte', async () => {
        await store.addMany([ann(iv(1, 3, 48000), { id: 1, label: 'é "q"', confidence: 0.25 }), ann(iv(0, 5), { id: 2 }), refAnn(idFor(1), { id: 3 })]);
        for (const query of [{ window: iv(0, 10) }, {}, { tier: 'notes' }] as ReadQuery[]) {
          const objects = await store.read(query, { limit: 10, form: 'objects' });
          const texts = await store.read(query, { limit: 10, form: 'wire-json' });
          const bytes = await store.read(query, { limit: 10, form: 'wire-bytes' });
          const expected = objects.items.map((a) => annotationWireJson(a, { seconds: true }));
          expect(texts.items).toEqual(expected);
          expect(bytes.items.map((item) => Buffer.from(item))).toEqual(expected.map((text) => Buffer.from(text, 'utf8')));
        }
      });

      it('pages every relation and tier like the unpaged query, at any page size', async () => {
        const time = fc.integer({ min: 0, max: 24 }).chain((t) => fc.constantFrom(new RationalTime(t, 4), new RationalTime(t * 3, 12)));
        const interval = fc.tuple(time, time).map(([a, b]) => (a.le(b) ? new TimeInterval(a, b) : new TimeInterval(b, a)));
        await fc.assert(
          fc.asyncProperty(
            fc.array(fc.tuple(interval, fc.boolean()), { maxLength: 30 }),
            interval,
            fc.constantFrom<'intersects' | AllenRelation>('intersects', 'during', 'contains', 'overlaps', 'meets', 'equals', 'after'),
            fc.option(fc.constantFrom('words', 'notes'), { nil: undefined }),
            fc.integer({ min: 1, max: 7 }),
            async (specs, window, relation, onTier, limit) => {
              const subject = await open();
              try {
                await subject.addTier(tier('words'));
                await subject.addTier(tier('notes'));
                // Ids out of insertion order, so ties are broken by id, not by insertion.
                await subject.addMany(specs.map(([x, onNotes], i) => ann(x, { id: 100 + ((i * 37) % 97), tier: onNotes ? 'notes' : 'words' })));
                const unpaged = relation === 'intersects' ? await subject.intersects(window) : await subject.relate(window, [relation]);
                const expectedIds = ids(unpaged.filter((a) => onTier === undefined || a.tier === onTier));
                const { pages } = await readAll(subject, { window, relation, tier: onTier }, limit);
                expect(pages.flat()).toEqual(expectedIds);
              } finally {
                await dispose(subject);
              }
            },
          ),
          { numRuns: 25 },
        );
      });
    });

    describe('agreement with brute force', () => {
      // Times on a grid of twelfths, each spelled at its own rate, so equal values often differ in rate.
      const time = fc
        .tuple(fc.integer({ min: 0, max: 48 }), fc.integer({ min: 1, max: 4 }))
        .map(([twelfths, k]) => new RationalTime(twelfths * k, 12 * k));
      const interval = fc.tuple(time, time, fc.boolean()).map(([a, b, asPoint]) => {
        if (asPoint) return new TimeInterval(a, a);
        return a.le(b) ? new TimeInterval(a, b) : new TimeInterval(b, a);
      });
      const relations = fc.subarray([...ALLEN_RELATIONS], { minLength: 0, maxLength: 4 });
      const query = fc.record({ q: interval, relations });

      const byStartEndId = (a: Annotation, b: Annotation): number => {
        const x = annotationInterval(a) as TimeInterval;
        const y = annotationInterval(b) as TimeInterval;
        return x.start.compare(y.start) || x.end.compare(y.end) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
      };
      const expected = (all: readonly Annotation[], keep: (x: TimeInterval) => boolean): string[] =>
        ids(all.filter((a) => {
          const x = annotationInterval(a);
          return x !== null && keep(x);
        }).sort(byStartEndId));

      it('answers relate, intersects, during, contains and atTier like a filter over holds() and intersects()', async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.array(fc.tuple(interval, fc.boolean(), fc.boolean()), { maxLength: 40 }),
            fc.array(query, { minLength: 1, maxLength: 6 }),
            async (specs, queries) => {
              const annotations = specs.map(([x, onNotes, isRef], i) =>
                isRef ? refAnn(idFor(1), { id: 1000 + i, tier: 'words' }) : ann(x, { id: (i * 7919) % 1000, tier: onNotes ? 'notes' : 'words' }),
              );
              const subject = await open();
              try {
                await subject.addTier(tier('words'));
                await subject.addTier(tier('notes'));
                await subject.addMany(annotations);
                for (const { q, relations: rels } of queries) {
                  expect(ids(await subject.relate(q, rels))).toEqual(expected(annotations, (x) => rels.some((r) => holds(r, x, q))));
                  expect(ids(await subject.intersects(q))).toEqual(expected(annotations, (x) => intersects(x, q)));
                  expect(ids(await subject.during(q))).toEqual(expected(annotations, (x) => holds('during', x, q)));
                  expect(ids(await subject.contains(q))).toEqual(expected(annotations, (x) => holds('contains', x, q)));
                  expect(ids(await subject.atTier('notes', q))).toEqual(
                    expected(annotations.filter((a) => a.tier === 'notes'), (x) => intersects(x, q)),
                  );
                  expect(ids(await subject.getAt(q))).toEqual(expected(annotations, (x) => x.equals(q)));
                }
              } finally {
                await dispose(subject);
              }
            },
          ),
          { numRuns: 40 },
        );
      });
    });
  });
}

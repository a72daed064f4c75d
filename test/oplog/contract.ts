import fc from 'fast-check';
import { annotationEtag } from '../../src/digest/etag.js';
import { makeAnnotation } from '../../src/model/annotation.js';
import { annotationToWire, tierToWire } from '../../src/model/wire.js';
import type { Mutation } from '../../src/oplog/mutation.js';
import type { OpLoggedStore } from '../../src/oplog/op-logged-store.js';
import { stateAt } from '../../src/store/replay.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { ann, collect, idFor, iv, tier } from '../store/fixtures.js';

const context = (actor = 'user:test') => ({ actor, receivedAt: new RationalTime(1_700_000_000_000, 1000) });

async function currentState(store: OpLoggedStore) {
  const annotations = (await collect(store.all())).map(annotationToWire);
  return { tiers: (await store.listTiers()).map(tierToWire), annotations };
}

/**
 * The op-log half of the store contract: every OpLoggedStore (memory, mapping, sqlite, postgres)
 * runs it. `open` must return an empty store.
 */
export function describeOpLogContract(name: string, open: () => Promise<OpLoggedStore>, cleanup?: (store: OpLoggedStore) => Promise<void>): void {
  describe(`${name} op-log`, () => {
    let store: OpLoggedStore;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      if (cleanup) await cleanup(store);
      else await store.close();
    });

    it('starts empty with latest clock 0', async () => {
      expect(await store.latestClock()).toBe(0);
      expect(await store.readOpLog()).toEqual([]);
    });

    it('gives the first entry clock 1 and every later entry a strictly greater clock', async () => {
      const [first] = await store.applyLogged([{ kind: 'add_tier', tier: tier('words') }], context());
      expect(first.clock).toBe(1);
      const batch = await store.applyLogged(
        [
          { kind: 'add_annotation', annotation: ann(iv(0, 1), { id: 1 }) },
          { kind: 'add_annotation', annotation: ann(iv(1, 2), { id: 2 }) },
        ],
        context(),
      );
      expect(batch.map((e) => e.clock)).toEqual([2, 3]);
      expect(await store.latestClock()).toBe(3);
    });

    it('records kind, target, a replayable payload, the actor and the receipt time', async () => {
      const annotation = ann(iv(0, 1), { id: 7 });
      await store.applyLogged([{ kind: 'add_tier', tier: tier('words') }], context('user:alice'));
      await store.applyLogged([{ kind: 'add_annotation', annotation }], context('agent:bot'));
      await store.applyLogged([{ kind: 'set_meta', key: 'title', value: 'Talk' }], context());
      await store.applyLogged([{ kind: 'delete_annotation', id: annotation.id }], context());
      const log = await store.readOpLog();
      expect(log.map((e) => [e.clock, e.kind, e.target_id, e.actor])).toEqual([
        [1, 'add_tier', 'words', 'user:alice'],
        [2, 'add_annotation', idFor(7), 'agent:bot'],
        [3, 'set_meta', 'title', 'user:test'],
        [4, 'delete_annotation', idFor(7), 'user:test'],
      ]);
      expect(log[1].payload).toEqual({ annotation: JSON.parse(JSON.stringify(annotationToWire(annotation))) });
      expect(log[2].payload).toEqual({ value: 'Talk' });
      expect(log[0].received_at).toEqual({ v: 1_700_000_000_000, r: 1000 });
    });

    it('reads the log between inclusive clock bounds, with a limit', async () => {
      await store.applyLogged([{ kind: 'add_tier', tier: tier('words') }], context());
      for (let i = 1; i <= 5; i++) await store.applyLogged([{ kind: 'add_annotation', annotation: ann(iv(i, i + 1), { id: i }) }], context());
      expect((await store.readOpLog({ fromClock: 2, untilClock: 4 })).map((e) => e.clock)).toEqual([2, 3, 4]);
      expect((await store.readOpLog({ fromClock: 3, limit: 2 })).map((e) => e.clock)).toEqual([3, 4]);
      expect((await store.readOpLog({ untilClock: 1 })).map((e) => e.clock)).toEqual([1]);
    });

    it('applies a batch all or nothing: a refused mutation leaves the data and the log as they were', async () => {
      await store.applyLogged([{ kind: 'add_tier', tier: tier('words') }], context());
      const before = await currentState(store);
      await expect(
        store.applyLogged(
          [
            { kind: 'add_annotation', annotation: ann(iv(0, 1), { id: 1 }) },
            { kind: 'add_annotation', annotation: ann(iv(0, 1), { id: 2, tier: 'nowhere' }) },
          ],
          context(),
        ),
      ).rejects.toMatchObject({ code: 'ANNOT_UNKNOWN_TIER' });
      expect(await currentState(store)).toEqual(before);
      expect(await store.latestClock()).toBe(1);
    });

    it('checks If-Match inside the write: a stale ETag is refused and changes nothing', async () => {
      const original = ann(iv(0, 1), { id: 1, label: 'a' });
      await store.applyLogged([{ kind: 'add_tier', tier: tier('words') }, { kind: 'add_annotation', annotation: original }], context());
      const etag = annotationEtag(original);
      const first = makeAnnotation({ ...original, body: { text: 'b' } });
      const second = makeAnnotation({ ...original, body: { text: 'c' } });
      await store.applyLogged([{ kind: 'update_annotation', annotation: first, ifMatch: etag }], context());
      await expect(store.applyLogged([{ kind: 'update_annotation', annotation: second, ifMatch: etag }], context())).rejects.toMatchObject({
        code: 'ANNOT_PRECONDITION_FAILED',
      });
      expect((await store.get(original.id))?.body).toEqual({ text: 'b' });
      expect(await store.latestClock()).toBe(3);
    });

    it('replays the log into exactly the current state, and into any earlier state', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 20 })), { maxLength: 25 }), async (steps) => {
          const fresh = await open();
          try {
            await fresh.applyLogged([{ kind: 'add_tier', tier: tier('words') }, { kind: 'add_tier', tier: tier('lines') }], context());
            const snapshots: Array<{ clock: number; state: Awaited<ReturnType<typeof currentState>> }> = [];
            for (const [op, id, at] of steps) {
              const existing = await fresh.get(idFor(id));
              let mutation: Mutation;
              if (op === 0 || !existing) mutation = existing ? { kind: 'delete_annotation', id: idFor(id) } : { kind: 'add_annotation', annotation: ann(iv(at, at + id), { id }) };
              else if (op === 1) mutation = { kind: 'update_annotation', annotation: makeAnnotation({ ...existing, tier: existing.tier === 'words' ? 'lines' : 'words' }) };
              else if (op === 2) mutation = { kind: 'delete_annotation', id: idFor(id) };
              else mutation = { kind: 'set_meta', key: `k${id}`, value: String(at) };
              const [entry] = await fresh.applyLogged([mutation], context());
              snapshots.push({ clock: entry.clock, state: await currentState(fresh) });
            }
            const latest = await fresh.latestClock();
            const replayed = await stateAt(fresh, latest);
            expect({ tiers: replayed.tiers, annotations: replayed.annotations }).toEqual(await currentState(fresh));
            for (const snapshot of snapshots.slice(0, 3)) {
              const past = await stateAt(fresh, snapshot.clock);
              expect({ tiers: past.tiers, annotations: past.annotations }).toEqual(snapshot.state);
            }
          } finally {
            if (cleanup) await cleanup(fresh);
            else await fresh.close();
          }
        }),
        { numRuns: 15 },
      );
    });

    it('refuses state at a clock beyond the latest', async () => {
      await expect(stateAt(store, 1)).rejects.toMatchObject({ code: 'ANNOT_CLOCK_OUT_OF_RANGE' });
      expect(await stateAt(store, 0)).toEqual({ at_clock: 0, tiers: [], annotations: [] });
    });
  });
}

import { join } from 'node:path';
import { makeAnnotation, mediaRef, type Annotation } from '../../src/model/annotation.js';
import { makeTier } from '../../src/model/tier.js';
import type { OpLoggedStore } from '../../src/oplog/op-logged-store.js';
import { AnnotationService } from '../../src/service/annotation-service.js';
import { PostgresStore } from '../../src/store/postgres.js';
import { retimeStore } from '../../src/service/retime-store.js';
import { flagSpelling } from '../../src/time/retime.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { describeWithPostgres, POSTGRES_URL, postgresUnreachable } from '../support/postgres.js';
import { tempDir } from '../support/sample-annot.js';
import { ASSET, openTieredSample, symbolic, timed } from './tiered-sample.js';

// retimeStore on a real .annot file and on the memory store a served file lives in:
//
//   utt (NONE)                          u1 [6, 9)                u2 [20, 22)
//   parts (TIME_SUBDIVISION of utt)     p1 [6, 7.5)  p2 [7.5, 9)  p3 [20, 22)
//   glosses (SYMBOLIC_ASSOCIATION)      g1 -> p1     g2 -> p2

const ids = {
  u1: '00000000-0000-4000-8000-0000000000a1',
  u2: '00000000-0000-4000-8000-0000000000a2',
  p1: '00000000-0000-4000-8000-0000000000c1',
  p2: '00000000-0000-4000-8000-0000000000c2',
  p3: '00000000-0000-4000-8000-0000000000c3',
  g1: '00000000-0000-4000-8000-0000000000d1',
  g2: '00000000-0000-4000-8000-0000000000d2',
};

const TIERS = [
  makeTier({ name: 'utt' }),
  makeTier({ name: 'parts', stereotype: 'TIME_SUBDIVISION', parent: 'utt' }),
  makeTier({ name: 'glosses', stereotype: 'SYMBOLIC_ASSOCIATION', parent: 'parts' }),
];

const SAMPLE = [
  timed(ids.u1, 'utt', '6', '9'),
  timed(ids.u2, 'utt', '20', '22'),
  timed(ids.p1, 'parts', '6', '7.5'),
  timed(ids.p2, 'parts', '7.5', '9'),
  timed(ids.p3, 'parts', '20', '22'),
  symbolic(ids.g1, 'glosses', ids.p1),
  symbolic(ids.g2, 'glosses', ids.p2),
];
const openSample = (path: string | null) => openTieredSample(path, TIERS, SAMPLE);

const at = (annotation: Annotation | null): string | null => (annotation === null ? null : annotation.reference.kind === 'media' ? annotation.reference.interval.toString() : 'symbolic');

const { dir, cleanup } = tempDir();
afterAll(cleanup);
let n = 0;

/** The sample in a fresh store of each kind: an .annot file, the memory store, a PostgreSQL project. */
const OPENERS: Record<string, () => Promise<{ store: OpLoggedStore; service: AnnotationService }>> = {
  sqlite: () => openSample(join(dir, `retime-${n++}.annot`)),
  memory: () => openSample(null),
  postgres: async () => {
    const store = await PostgresStore.open(`${POSTGRES_URL}?project=jest-retime-store-${process.pid}-${n++}`, { create: true });
    const service = new AnnotationService(store);
    await service.apply([...TIERS.map((tier) => ({ kind: 'add_tier' as const, tier })), ...SAMPLE.map((annotation) => ({ kind: 'add_annotation' as const, annotation }))], 'test');
    return { store, service };
  },
};

describe.each(['sqlite', 'memory'])('retimeStore (%s store)', (kind) => retimeCases(kind));
describeWithPostgres('retimeStore (postgres store)', await postgresUnreachable(), () => retimeCases('postgres'));

function retimeCases(kind: string): void {
  let store: OpLoggedStore;
  let service: AnnotationService;
  beforeEach(async () => {
    ({ store, service } = await OPENERS[kind]());
  });
  afterEach(() => (store instanceof PostgresStore ? store.dropProject() : store.close()));

  const snapshot = async () => Object.fromEntries(await Promise.all(Object.entries(ids).map(async ([name, id]) => [name, at(await store.get(id))])));

  it('shifts every tier in one op-log batch, children with their parents', async () => {
    const clock = await store.latestClock();
    const result = await retimeStore(service, { shift: '2.5' }, { actor: 'user:test' });
    expect(result.description).toBe('+2.5 s');
    expect(result.counts).toEqual({ moved: 5, rounded: 0, cut: 0, dropped: 0, dependents: 0 });
    expect(result.tiers).toEqual(['utt', 'parts', 'glosses']);
    expect(await snapshot()).toEqual({ u1: '[8.5, 11.5)', u2: '[22.5, 24.5)', p1: '[8.5, 10)', p2: '[10, 11.5)', p3: '[22.5, 24.5)', g1: 'symbolic', g2: 'symbolic' });
    // One batch: five entries by one actor, received together, the last one's clock returned.
    const entries = await store.readOpLog({ fromClock: clock + 1 });
    expect(entries.map((entry) => entry.kind)).toEqual(Array(5).fill('update_annotation'));
    expect(new Set(entries.map((entry) => entry.actor))).toEqual(new Set(['user:test']));
    expect(result.clock).toBe(entries[entries.length - 1].clock);
  });

  it('cuts at 0 s, drops what ends before it, and drops the symbolic annotations referring to a dropped one', async () => {
    const result = await retimeStore(service, { shift: '-7.5' }, { actor: 'test' });
    expect(result.counts).toEqual({ moved: 5, rounded: 0, cut: 1, dropped: 1, dependents: 1 });
    expect(result.droppedReferring).toBe(1);
    expect(await snapshot()).toEqual({ u1: '[0, 1.5)', u2: '[12.5, 14.5)', p1: null, p2: '[0, 1.5)', p3: '[12.5, 14.5)', g1: null, g2: 'symbolic' });
    expect(result.findings).toEqual([
      '1 annotation moved to start before 0 s and was cut to start at 0 s',
      '1 annotation moved wholly before 0 s and was dropped',
      '1 annotation without a time, referring to one dropped, was dropped with it',
    ]);
  });

  it('refuses under strict, and under strict-time, leaving the store as it was', async () => {
    const clock = await store.latestClock();
    const before = await snapshot();
    await expect(retimeStore(service, { shift: '-7.5' }, { actor: 'test', strict: true })).rejects.toMatchObject({ code: 'ANNOT_RETIME_BEFORE_ZERO' });
    await expect(retimeStore(service, { scale: '1/11' }, { actor: 'test', strictTime: true })).rejects.toMatchObject({ code: 'ANNOT_LOSSY_TIME' });
    expect(await snapshot()).toEqual(before);
    expect(await store.latestClock()).toBe(clock);
  });

  it('moves a child with the parent that holds it when only a window is retimed', async () => {
    // p2 starts at 7.5, outside [6, 7): it follows u1, which starts inside.
    const result = await retimeStore(service, { shift: 1, within: ['6', '7'] }, { actor: 'test' });
    expect(result.counts.moved).toBe(3);
    expect(result.description).toBe('+1 s, within [6 s, 7 s)');
    expect(await snapshot()).toMatchObject({ u1: '[7, 10)', p1: '[7, 8.5)', p2: '[8.5, 10)', u2: '[20, 22)', p3: '[20, 22)' });
  });

  it('retimes a tier with the tiers below it, and refuses to tear a child tier from its parent', async () => {
    const only = await retimeStore(service, { shift: 1 }, { actor: 'test', tier: 'utt' });
    expect(only.tiers).toEqual(['utt', 'parts', 'glosses']);
    const clock = await store.latestClock();
    const before = await snapshot();
    await expect(retimeStore(service, { shift: 1 }, { actor: 'test', tier: 'parts' })).rejects.toMatchObject({ code: 'ANNOT_TIER_CONSTRAINT' });
    expect(await snapshot()).toEqual(before);
    expect(await store.latestClock()).toBe(clock);
    await expect(retimeStore(service, { shift: 1 }, { actor: 'test', tier: 'part' })).rejects.toThrow(/has no tier "part"; did you mean "parts"\?/);
  });

  it('rescales by a frame-rate ratio, rounding at the annotations\' rate and counting it', async () => {
    const before = await snapshot();
    const there = await retimeStore(service, { fps_from: '24000/1001', fps_to: 25 }, { actor: 'test' });
    expect(there.description).toBe('×960/1001');
    const back = await retimeStore(service, { fps_from: 25, fps_to: '24000/1001' }, { actor: 'test' });
    // Times at 1 kHz cannot hold ×24000/25025 exactly: rounded, and counted, both ways.
    expect(there.counts.rounded + back.counts.rounded).toBeGreaterThan(0);
    expect(Object.keys(await snapshot())).toEqual(Object.keys(before));
  });

  it('rounds parent and child alike where they share a rate, so the tiling holds', async () => {
    const result = await retimeStore(service, { scale: '1/11' }, { actor: 'test' });
    expect(result.counts.rounded).toBeGreaterThan(0);
    const interval = async (id: string) => {
      const annotation = (await store.get(id))!;
      return annotation.reference.kind === 'media' ? annotation.reference.interval : null;
    };
    const [u1, p1, p2] = await Promise.all([ids.u1, ids.p1, ids.p2].map(interval));
    expect([u1!.start.equals(p1!.start), p1!.end.equals(p2!.start), p2!.end.equals(u1!.end)]).toEqual([true, true, true]);
    expect(Math.abs(u1!.start.toSeconds() - 6 / 11)).toBeLessThan(0.001);
  });

  it('changes nothing, and writes no entry, for an empty request', async () => {
    const clock = await store.latestClock();
    const result = await retimeStore(service, {}, { actor: 'test' });
    expect(result).toMatchObject({ description: 'no change', clock: null });
    expect(await store.latestClock()).toBe(clock);
  });

  it('names the part of the request that is wrong in the caller\'s spelling', async () => {
    await expect(retimeStore(service, { fps_from: 'fast', fps_to: 25 }, { actor: 'test' })).rejects.toThrow(/^fps_from: /);
    await expect(retimeStore(service, { fps_from: 'fast', fps_to: 25 }, { actor: 'test', spell: flagSpelling })).rejects.toThrow(/^--fps-from: /);
    await expect(retimeStore(service, { scale: 25 }, { actor: 'test', spell: flagSpelling })).resolves.toMatchObject({ description: '×25' });
  });
}

describe('retimeStore: rounding at two rates on a constrained tier', () => {

  it('is refused by the tier-constraint guard when a child at a coarser rate would round out of its parent', async () => {
    // The parent [0, 1) at 1 kHz; its child [0, 1) at 3 ticks a second. ×1.2: the parent ends at
    // 1.2 exactly, the child's end (3.6 ticks) rounds to 4/3 s, past it.
    const child = makeAnnotation({
      ...timed(ids.p1, 'parts', '0', '1'),
      reference: mediaRef(ASSET, new TimeInterval(new RationalTime(0, 3), new RationalTime(3, 3))),
    });
    const { store, service } = await openTieredSample(join(dir, 'rates.annot'), TIERS.slice(0, 2), [timed(ids.u1, 'utt', '0', '1'), child]);
    try {
      const clock = await store.latestClock();
      await expect(retimeStore(service, { scale: '1.2' }, { actor: 'test' })).rejects.toMatchObject({ code: 'ANNOT_TIER_CONSTRAINT' });
      expect(await store.latestClock()).toBe(clock);
    } finally {
      await store.close();
    }
  });
});

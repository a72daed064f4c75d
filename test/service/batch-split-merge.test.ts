import { join } from 'node:path';
import { annotationEtag } from '../../src/digest/etag.js';
import type { Annotation } from '../../src/model/annotation.js';
import { annotationToWire } from '../../src/model/wire.js';
import { makeTier } from '../../src/model/tier.js';
import type { OpLoggedStore } from '../../src/oplog/op-logged-store.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import type { AnnotationService } from '../../src/service/annotation-service.js';
import { validateAnnotations } from '../../src/service/validate-annotations.js';
import { tempDir } from '../support/sample-annot.js';
import { ASSET, openTieredSample, retime, symbolic, timed } from './tiered-sample.js';

// A split (an update and a creation) and a merge (an update and a deletion) on a TIME_SUBDIVISION
// tier, as the timeline page sends them: either half alone breaks the tiling, the two together keep
// the parent covered; on a real .annot file and on the memory store a served file lives in.
//
//   utt (NONE)                          u1 [6, 9)
//   parts (TIME_SUBDIVISION of utt)     p1 [6, 7.5)  p2 [7.5, 9)
//   glosses (SYMBOLIC_ASSOCIATION)      g2 -> p2

const ids = {
  u1: '00000000-0000-4000-8000-0000000000a1',
  p1: '00000000-0000-4000-8000-0000000000c1',
  p2: '00000000-0000-4000-8000-0000000000c2',
  g2: '00000000-0000-4000-8000-0000000000d2',
};
const NEW_ID = '00000000-0000-4000-8000-0000000000c3';

const openSample = (path: string | null) =>
  openTieredSample(
    path,
    [makeTier({ name: 'utt' }), makeTier({ name: 'parts', stereotype: 'TIME_SUBDIVISION', parent: 'utt' }), makeTier({ name: 'glosses', stereotype: 'SYMBOLIC_ASSOCIATION', parent: 'parts' })],
    [timed(ids.u1, 'utt', '6', '9'), timed(ids.p1, 'parts', '6', '7.5'), timed(ids.p2, 'parts', '7.5', '9'), symbolic(ids.g2, 'glosses', ids.p2)],
  );

const interval = (annotation: Annotation | null | undefined): string => (annotation!.reference.kind === 'media' ? annotation!.reference.interval.toString() : 'symbolic');
const part = (id: string | undefined, start: number, end: number) => ({
  ...(id ? { id } : {}),
  tier: 'parts',
  reference: retime(start, end).reference,
  body: { text: '' },
  body_schema_uri: 'annot://schema/label/v1',
});

describe.each(['sqlite', 'memory'])('AnnotationService.applyBatch: split and merge (%s store)', (kind) => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);
  let n = 0;
  let store: OpLoggedStore;
  let service: AnnotationService;
  beforeEach(async () => {
    ({ store, service } = await openSample(kind === 'sqlite' ? join(dir, `split-${n++}.annot`) : null));
  });
  afterEach(() => store.close());

  const etag = async (id: string) => annotationEtag((await store.get(id))!);
  /** Runs a batch that must fail with `code`; checks that nothing was written. */
  const unchanged = async (batch: () => Promise<unknown>, code: string): Promise<Error> => {
    const clock = await store.latestClock();
    const before = await Promise.all([...Object.values(ids), NEW_ID].map((id) => store.get(id)));
    const error = await batch().then(
      () => new Error('the batch was not refused'),
      (failure: unknown) => failure as Error,
    );
    expect(error).toMatchObject({ code });
    expect(await store.latestClock()).toBe(clock);
    expect(await Promise.all([...Object.values(ids), NEW_ID].map((id) => store.get(id)))).toEqual(before);
    return error;
  };

  it('splits a block in one transaction (its update and the new block), the parent still covered; either half alone is refused', async () => {
    await unchanged(async () => service.updateAnnotation(ids.p1, retime(6000, 6750), await etag(ids.p1), 'user:test'), 'ANNOT_TIER_CONSTRAINT');
    await unchanged(async () => service.createAnnotation(part(NEW_ID, 6750, 7500), 'user:test'), 'ANNOT_TIER_CONSTRAINT');

    const clock = await store.latestClock();
    const { value, clock: after } = await service.applyBatch({ updates: [{ id: ids.p1, ifMatch: await etag(ids.p1), patch: retime(6000, 6750) }], creates: [part(NEW_ID, 6750, 7500)] }, 'user:test');
    expect(value.updated.map(({ id }) => id)).toEqual([ids.p1]);
    expect(value.created.map(({ id }) => id)).toEqual([NEW_ID]);
    expect(value.deleted).toEqual([]);
    expect(interval(await store.get(ids.p1))).toBe(interval(timed(ids.p1, 'parts', '6', '6.75')));
    expect(interval(await store.get(NEW_ID))).toBe(interval(timed(NEW_ID, 'parts', '6.75', '7.5')));
    // The new block's provenance is the service's, attributed to the actor, as for POST /annotations.
    expect((await store.get(NEW_ID))!.provenance).toMatchObject({ was_generated_by: 'server:annot', was_attributed_to: 'user:test' });
    expect((await validateAnnotations(store)).violations).toEqual([]);
    const entries = await store.readOpLog({ fromClock: clock + 1 });
    expect(entries.map((entry) => [entry.kind, entry.target_id])).toEqual([
      ['update_annotation', ids.p1],
      ['add_annotation', NEW_ID],
    ]);
    expect(after).toBe(entries[1].clock);
  });

  it('merges two blocks in one transaction (the first grows, the second goes), the parent still covered', async () => {
    await service.applyBatch({ deletes: [{ id: ids.g2, ifMatch: await etag(ids.g2) }] }, 'user:test');
    await unchanged(async () => service.updateAnnotation(ids.p1, retime(6000, 9000), await etag(ids.p1), 'user:test'), 'ANNOT_TIER_CONSTRAINT');
    await unchanged(async () => service.deleteAnnotation(ids.p2, 'user:test', await etag(ids.p2)), 'ANNOT_TIER_CONSTRAINT');

    const clock = await store.latestClock();
    const p2 = (await store.get(ids.p2))!;
    const { value } = await service.applyBatch({ updates: [{ id: ids.p1, ifMatch: await etag(ids.p1), patch: { ...retime(6000, 9000), body: { text: 'parts parts' } } }], deletes: [{ id: ids.p2, ifMatch: await etag(ids.p2) }] }, 'user:test');
    expect(value.deleted).toEqual([p2]);
    expect(await store.get(ids.p2)).toBeNull();
    expect(interval(await store.get(ids.p1))).toBe(interval(timed(ids.p1, 'parts', '6', '9')));
    expect((await store.get(ids.p1))!.body).toEqual({ text: 'parts parts' });
    expect((await validateAnnotations(store)).violations).toEqual([]);
    // Deletions first in the transaction, then updates.
    expect((await store.readOpLog({ fromClock: clock + 1 })).map((entry) => [entry.kind, entry.target_id])).toEqual([
      ['delete_annotation', ids.p2],
      ['update_annotation', ids.p1],
    ]);
  });

  it('undoes a merge: the deleted block comes back with its id, body and provenance beside the first cut back', async () => {
    await service.applyBatch({ deletes: [{ id: ids.g2, ifMatch: await etag(ids.g2) }] }, 'user:test');
    const p2 = (await store.get(ids.p2))!;
    await service.applyBatch({ updates: [{ id: ids.p1, ifMatch: await etag(ids.p1), patch: retime(6000, 9000) }], deletes: [{ id: ids.p2, ifMatch: await etag(ids.p2) }] }, 'user:test');
    const restored = { ...annotationToWire(p2), provenance: { ...annotationToWire(p2).provenance, was_generated_by: `${p2.provenance.was_generated_by};restored` } };
    await service.applyBatch({ updates: [{ id: ids.p1, ifMatch: await etag(ids.p1), patch: retime(6000, 7500) }], creates: [restored as unknown as Record<string, unknown>] }, 'user:test');
    const back = (await store.get(ids.p2))!;
    expect([back.body, back.tier, interval(back)]).toEqual([p2.body, p2.tier, interval(p2)]);
    expect(back.provenance.was_generated_by).toBe('user:test;restored');
    expect(back.provenance.generated_at_time.equals(p2.provenance.generated_at_time)).toBe(true);
    expect((await validateAnnotations(store)).violations).toEqual([]);
  });

  it('refuses a merge whose second block has a child, naming it, with nothing changed', async () => {
    const error = await unchanged(
      async () => service.applyBatch({ updates: [{ id: ids.p1, ifMatch: await etag(ids.p1), patch: retime(6000, 9000) }], deletes: [{ id: ids.p2, ifMatch: await etag(ids.p2) }] }, 'user:test'),
      'ANNOT_TIER_CONSTRAINT',
    );
    expect(error.message).toContain(ids.g2);
  });

  it('is all or nothing: a stale ETag (412), a missing one (428), an id in use (409), an annotation twice (400)', async () => {
    const stale = await etag(ids.p2);
    await service.updateAnnotation(ids.p2, { body: { text: 'meanwhile' } }, stale, 'user:test');
    await unchanged(async () => service.applyBatch({ updates: [{ id: ids.p1, ifMatch: await etag(ids.p1), patch: retime(6000, 9000) }], deletes: [{ id: ids.p2, ifMatch: stale }] }, 'user:test'), 'ANNOT_PRECONDITION_FAILED');
    await unchanged(async () => service.applyBatch({ updates: [{ id: ids.p1, ifMatch: await etag(ids.p1), patch: retime(6000, 9000) }], deletes: [{ id: ids.p2, ifMatch: undefined }] }, 'user:test'), 'ANNOT_PRECONDITION_REQUIRED');
    await unchanged(async () => service.applyBatch({ updates: [{ id: ids.p1, ifMatch: await etag(ids.p1), patch: retime(6000, 6750) }], creates: [part(ids.p1, 6750, 7500)] }, 'user:test'), 'ANNOT_INVALID_INPUT');
    await unchanged(async () => service.applyBatch({ updates: [{ id: ids.p1, ifMatch: await etag(ids.p1), patch: retime(6000, 6750) }], creates: [part(ids.u1, 6750, 7500)] }, 'user:test'), 'ANNOT_DUPLICATE_ID');
    await unchanged(async () => service.applyBatch({}, 'user:test'), 'ANNOT_INVALID_INPUT');
  });
});

describe('PATCH /annotations with creates and deletes over HTTP', () => {
  const { dir, cleanup } = tempDir();
  let store: OpLoggedStore;
  let server: RunningServer;
  beforeAll(async () => {
    ({ store } = await openSample(join(dir, 'served.annot')));
    server = await startServer({ store, log: () => {} });
  });
  afterAll(async () => {
    await server.close();
    cleanup();
  });

  const etagOf = async (id: string) => (await fetch(`${server.url}/annotations/${id}`)).headers.get('etag')!;
  const batch = (body: unknown) => fetch(`${server.url}/annotations`, { method: 'PATCH', headers: { 'content-type': 'application/json', 'x-actor': 'tester' }, body: JSON.stringify(body) });
  const errorOf = async (answer: Response) => ((await answer.json()) as { error: { code: string; message: string } }).error;
  type Saved = { etag: string; annotation: { id: string; reference: { interval: { start: { s: string }; end: { s: string } } } } };

  it('splits: answers the updated and the created annotations with their ETags, in seconds', async () => {
    const answer = await batch({
      updates: [{ id: ids.p1, if_match: await etagOf(ids.p1), patch: { reference: { kind: 'media', asset_id: ASSET, interval: { start: '6', end: '7' } } } }],
      creates: [{ tier: 'parts', reference: { kind: 'media', asset_id: ASSET, interval: { start: '7', end: '7.5' } }, body: { text: '' }, body_schema_uri: 'annot://schema/label/v1' }],
    });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { updated: Saved[]; created: Saved[]; deleted: string[] };
    const span = ({ annotation }: Saved) => [annotation.reference.interval.start.s, annotation.reference.interval.end.s];
    expect([body.updated.map(span), body.created.map(span), body.deleted]).toEqual([[['6', '7']], [['7', '7.5']], []]);
    expect(body.created[0].etag).toBe(await etagOf(body.created[0].annotation.id));
    expect(Number(answer.headers.get('x-service-clock'))).toBe(await store.latestClock());
  });

  it('deletes in a batch, needing if_match (428 without, 412 stale), and names a wrong field', async () => {
    const clock = await store.latestClock();
    const missing = await batch({ deletes: [{ id: ids.g2 }] });
    expect([missing.status, (await errorOf(missing)).code]).toEqual([428, 'ANNOT_PRECONDITION_REQUIRED']);
    const stale = await batch({ deletes: [{ id: ids.g2, if_match: '"stale"' }] });
    expect([stale.status, (await errorOf(stale)).code]).toEqual([412, 'ANNOT_PRECONDITION_FAILED']);
    const wrong = await batch({ deletes: [{ id: ids.g2, if_match: 'x', patch: {} }] });
    expect([wrong.status, (await errorOf(wrong)).message]).toEqual([400, expect.stringContaining('body.deletes[0].patch: unknown field')]);
    const empty = await batch({ creates: [] });
    expect([empty.status, (await errorOf(empty)).message]).toEqual([400, expect.stringContaining('body.creates: expected a non-empty array')]);
    const other = await batch({ updates: [], removes: [] });
    expect([other.status, (await errorOf(other)).message]).toEqual([400, expect.stringContaining('body.removes: unknown field')]);
    expect(await store.latestClock()).toBe(clock);
    const done = await batch({ deletes: [{ id: ids.g2, if_match: await etagOf(ids.g2) }] });
    expect(done.status).toBe(200);
    expect(((await done.json()) as { deleted: string[] }).deleted).toEqual([ids.g2]);
    expect((await fetch(`${server.url}/annotations/${ids.g2}`)).status).toBe(404);
  });
});

import { join } from 'node:path';
import { annotationEtag } from '../../src/digest/etag.js';
import type { Annotation } from '../../src/model/annotation.js';
import { makeTier } from '../../src/model/tier.js';
import type { OpLoggedStore } from '../../src/oplog/op-logged-store.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { AnnotationService } from '../../src/service/annotation-service.js';
import { validateAnnotations } from '../../src/service/validate-annotations.js';
import { tempDir } from '../support/sample-annot.js';
import { ASSET, openTieredSample, retime, timed } from './tiered-sample.js';

// Several annotations changed at once, on a real .annot file and on the memory store a served file
// in another format lives in (no transaction there: the batch is checked whole first): the shared boundary of two
// TIME_SUBDIVISION children moves (each alone would open a gap or an overlap), all or nothing.
//
//   utt (NONE)                       u1 [6, 9)
//   parts (TIME_SUBDIVISION of utt)  p1 [6, 7.5)  p2 [7.5, 9)
//   words (INCLUDED_IN utt)          w1 [6.5, 7)

const ids = {
  u1: '00000000-0000-4000-8000-0000000000a1',
  p1: '00000000-0000-4000-8000-0000000000c1',
  p2: '00000000-0000-4000-8000-0000000000c2',
  w1: '00000000-0000-4000-8000-0000000000b1',
};

const openSample = (path: string | null) =>
  openTieredSample(
    path,
    [makeTier({ name: 'utt' }), makeTier({ name: 'parts', stereotype: 'TIME_SUBDIVISION', parent: 'utt' }), makeTier({ name: 'words', stereotype: 'INCLUDED_IN', parent: 'utt' })],
    [timed(ids.u1, 'utt', '6', '9'), timed(ids.p1, 'parts', '6', '7.5'), timed(ids.p2, 'parts', '7.5', '9'), timed(ids.w1, 'words', '6.5', '7')],
  );

const interval = (annotation: Annotation | null | undefined): string => (annotation!.reference.kind === 'media' ? annotation!.reference.interval.toString() : 'symbolic');

describe.each(['sqlite', 'memory'])('AnnotationService.updateAnnotations (%s store)', (kind) => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);
  let n = 0;
  let store: OpLoggedStore;
  let service: AnnotationService;
  beforeEach(async () => {
    ({ store, service } = await openSample(kind === 'sqlite' ? join(dir, `batch-${n++}.annot`) : null));
  });
  afterEach(() => store.close());

  const etag = async (id: string) => annotationEtag((await store.get(id))!);
  /** Runs a batch that must fail with `code`; checks that nothing was written and returns the error. */
  const unchanged = async (batch: () => Promise<unknown>, code: string): Promise<Error> => {
    const clock = await store.latestClock();
    const before = await Promise.all(Object.values(ids).map((id) => store.get(id)));
    const error = await batch().then(
      () => new Error('the batch was not refused'),
      (failure: unknown) => failure as Error,
    );
    expect(error).toMatchObject({ code });
    expect(await store.latestClock()).toBe(clock);
    expect(await Promise.all(Object.values(ids).map((id) => store.get(id)))).toEqual(before);
    return error;
  };

  it('moves the shared boundary of two TIME_SUBDIVISION children in one transaction, the tiling kept', async () => {
    // Either edit alone is refused: a gap or an overlap between the parts.
    await unchanged(async () => service.updateAnnotation(ids.p1, retime(6000, 8000), await etag(ids.p1), 'user:test'), 'ANNOT_TIER_CONSTRAINT');
    await unchanged(async () => service.updateAnnotation(ids.p2, retime(8000, 9000), await etag(ids.p2), 'user:test'), 'ANNOT_TIER_CONSTRAINT');

    const clock = await store.latestClock();
    const { value, clock: after } = await service.updateAnnotations(
      [
        { id: ids.p1, ifMatch: await etag(ids.p1), patch: retime(6000, 8000) },
        { id: ids.p2, ifMatch: await etag(ids.p2), patch: retime(8000, 9000) },
      ],
      'user:test',
    );
    expect(value.map((annotation) => annotation.id)).toEqual([ids.p1, ids.p2]);
    expect(interval(await store.get(ids.p1))).toBe(interval(timed(ids.p1, 'parts', '6', '8')));
    expect(interval(await store.get(ids.p2))).toBe(interval(timed(ids.p2, 'parts', '8', '9')));
    expect((await validateAnnotations(store)).violations).toEqual([]);
    // One transaction: two op-log entries, appended together after the clock we read.
    const entries = await store.readOpLog({ fromClock: clock + 1 });
    expect(entries.map((entry) => [entry.kind, entry.target_id])).toEqual([
      ['update_annotation', ids.p1],
      ['update_annotation', ids.p2],
    ]);
    expect(after).toBe(entries[1].clock);
  });

  it('refuses a batch that breaks the tiling, naming the rule, with nothing changed', async () => {
    const error = await unchanged(
      async () =>
        service.updateAnnotations(
          [
            { id: ids.p1, ifMatch: await etag(ids.p1), patch: retime(6000, 7000) },
            { id: ids.p2, ifMatch: await etag(ids.p2), patch: retime(8000, 9000) },
          ],
          'user:test',
        ),
      'ANNOT_TIER_CONSTRAINT',
    );
    expect(error.message).toContain('TIME_SUBDIVISION children stay inside their parent and tile it');
    expect(error.message).toContain(ids.p1);
  });

  it('a stale If-Match on one item: 412 for the batch, nothing changed, even where the other item is fine', async () => {
    const stale = await etag(ids.p2);
    await service.updateAnnotation(ids.p2, { body: { text: 'meanwhile' } }, stale, 'user:test');
    await unchanged(
      async () =>
        service.updateAnnotations(
          [
            { id: ids.p1, ifMatch: await etag(ids.p1), patch: retime(6000, 8000) },
            { id: ids.p2, ifMatch: stale, patch: retime(8000, 9000) },
          ],
          'user:test',
        ),
      'ANNOT_PRECONDITION_FAILED',
    );
    // A text edit and a stale one: the text edit is not written either.
    await unchanged(
      async () =>
        service.updateAnnotations(
          [
            { id: ids.w1, ifMatch: await etag(ids.w1), patch: { body: { text: 'kept back' } } },
            { id: ids.p2, ifMatch: stale, patch: { body: { text: 'late' } } },
          ],
          'user:test',
        ),
      'ANNOT_PRECONDITION_FAILED',
    );
  });

  it('needs an If-Match on every item (428), each annotation once, and a patch that changes only what may change', async () => {
    await unchanged(async () => service.updateAnnotations([{ id: ids.p1, ifMatch: await etag(ids.p1), patch: retime(6000, 8000) }, { id: ids.p2, ifMatch: undefined, patch: retime(8000, 9000) }], 'user:test'), 'ANNOT_PRECONDITION_REQUIRED');
    await unchanged(async () => service.updateAnnotations([{ id: ids.p1, ifMatch: await etag(ids.p1), patch: retime(6000, 8000) }, { id: ids.p1, ifMatch: await etag(ids.p1), patch: retime(6000, 7000) }], 'user:test'), 'ANNOT_INVALID_INPUT');
    await unchanged(async () => service.updateAnnotations([{ id: ids.p1, ifMatch: await etag(ids.p1), patch: { id: ids.p2 } as never }], 'user:test'), 'ANNOT_INVALID_WIRE');
    await unchanged(async () => service.updateAnnotations([], 'user:test'), 'ANNOT_INVALID_INPUT');
  });
});

describe('PATCH /annotations over HTTP', () => {
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

  it('answers 200 with the updated annotations in seconds and their ETags, and the clock', async () => {
    const answer = await batch({
      updates: [
        { id: ids.p1, if_match: await etagOf(ids.p1), patch: { reference: { kind: 'media', asset_id: ASSET, interval: { start: '6', end: '7.25' } } } },
        { id: ids.p2, if_match: await etagOf(ids.p2), patch: { reference: { kind: 'media', asset_id: ASSET, interval: { start: '7.25', end: '9' } } } },
      ],
    });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { updated: Array<{ etag: string; annotation: { id: string; reference: { interval: { start: { s: string }; end: { s: string } } } } }> };
    expect(body.updated.map(({ annotation }) => [annotation.id, annotation.reference.interval.start.s, annotation.reference.interval.end.s])).toEqual([
      [ids.p1, '6', '7.25'],
      [ids.p2, '7.25', '9'],
    ]);
    expect(body.updated.map(({ etag }) => etag)).toEqual([await etagOf(ids.p1), await etagOf(ids.p2)]);
    expect(Number(answer.headers.get('x-service-clock'))).toBe(await store.latestClock());
    const entries = await store.readOpLog({ fromClock: (await store.latestClock()) - 1 });
    expect(entries.map((entry) => entry.actor)).toEqual(['tester', 'tester']);
  });

  it('answers 409, 412, 428, 404 and 400 as PATCH /annotations/:id does, changing nothing', async () => {
    const clock = await store.latestClock();
    const p1 = await etagOf(ids.p1);
    const p2 = await etagOf(ids.p2);
    const gap = await batch({ updates: [{ id: ids.p1, if_match: p1, patch: { reference: { kind: 'media', asset_id: ASSET, interval: { start: '6', end: '7' } } } }, { id: ids.p2, if_match: p2, patch: { body: { text: 'x' } } }] });
    expect([gap.status, (await errorOf(gap)).code]).toEqual([409, 'ANNOT_TIER_CONSTRAINT']);
    const stale = await batch({ updates: [{ id: ids.p1, if_match: p1, patch: { body: { text: 'x' } } }, { id: ids.p2, if_match: '"stale"', patch: { body: { text: 'y' } } }] });
    expect([stale.status, (await errorOf(stale)).code]).toEqual([412, 'ANNOT_PRECONDITION_FAILED']);
    const missing = await batch({ updates: [{ id: ids.p1, patch: { body: { text: 'x' } } }] });
    expect([missing.status, (await errorOf(missing)).code]).toEqual([428, 'ANNOT_PRECONDITION_REQUIRED']);
    const unknown = await batch({ updates: [{ id: '00000000-0000-4000-8000-000000000000', if_match: p1, patch: { body: { text: 'x' } } }] });
    expect(unknown.status).toBe(404);
    const notArray = await batch({ updates: { id: ids.p1 } });
    expect([notArray.status, (await errorOf(notArray)).message]).toEqual([400, expect.stringContaining('body.updates: expected a non-empty array')]);
    const badItem = await batch({ updates: [{ id: ids.p1, if_match: p1, patch: {}, extra: 1 }] });
    expect([badItem.status, (await errorOf(badItem)).message]).toEqual([400, expect.stringContaining('body.updates[0].extra: unknown field')]);
    expect(await store.latestClock()).toBe(clock);
  });
});

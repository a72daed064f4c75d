import { join } from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { annotationEtag } from '../../src/digest/etag.js';
import { buildMcpServer } from '../../src/mcp/server.js';
import { makeTier } from '../../src/model/tier.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { AnnotationService } from '../../src/service/annotation-service.js';
import { TierConstraintError } from '../../src/service/errors.js';
import { validateAnnotations } from '../../src/service/validate-annotations.js';
import type { OpLoggedStore } from '../../src/oplog/op-logged-store.js';
import { connectTools } from '../mcp/mcp-client.js';
import { tempDir } from '../support/sample-annot.js';
import { ASSET, openTieredSample, retime, symbolic, timed } from './tiered-sample.js';

// Edits through the service that would break a tier's stereotype are refused, on a real .annot file
// and on the memory store a served file in another format lives in.
//
//   utt (NONE)          u1 [0, 4.8)                      u2 [6, 9)
//   words (INCLUDED_IN)   w1 [1, 2)   w2 [3, 4)              w3 [6.5, 7)
//   parts (TIME_SUBDIVISION of utt)                       p1 [6, 7.5) p2 [7.5, 9)
//   trans (SYMBOLIC_ASSOCIATION of utt)  t1 → u1
//   gloss (SYMBOLIC_SUBDIVISION of utt)                    g1 → u2

const ids = {
  u1: '00000000-0000-4000-8000-0000000000a1',
  u2: '00000000-0000-4000-8000-0000000000a2',
  w1: '00000000-0000-4000-8000-0000000000b1',
  w2: '00000000-0000-4000-8000-0000000000b2',
  w3: '00000000-0000-4000-8000-0000000000b3',
  p1: '00000000-0000-4000-8000-0000000000c1',
  p2: '00000000-0000-4000-8000-0000000000c2',
  t1: '00000000-0000-4000-8000-0000000000d1',
  g1: '00000000-0000-4000-8000-0000000000e1',
};
const RULE_INCLUDED = 'INCLUDED_IN children stay inside their parent and do not overlap each other';

const input = (tier: string, start: number, end: number, extra: Record<string, unknown> = {}) => ({
  tier,
  reference: { kind: 'media', asset_id: ASSET, interval: { start: { v: start, r: 1000 }, end: { v: end, r: 1000 } } },
  body: { text: 'new' },
  body_schema_uri: 'annot://schema/label/v1',
  ...extra,
});

const openSample = (path: string | null) =>
  openTieredSample(
    path,
    [
      makeTier({ name: 'utt' }),
      makeTier({ name: 'words', stereotype: 'INCLUDED_IN', parent: 'utt' }),
      makeTier({ name: 'parts', stereotype: 'TIME_SUBDIVISION', parent: 'utt' }),
      makeTier({ name: 'trans', stereotype: 'SYMBOLIC_ASSOCIATION', parent: 'utt' }),
      makeTier({ name: 'gloss', stereotype: 'SYMBOLIC_SUBDIVISION', parent: 'utt' }),
    ],
    [
      timed(ids.u1, 'utt', '0', '4.8'),
      timed(ids.u2, 'utt', '6', '9'),
      timed(ids.w1, 'words', '1', '2'),
      timed(ids.w2, 'words', '3', '4'),
      timed(ids.w3, 'words', '6.5', '7'),
      timed(ids.p1, 'parts', '6', '7.5'),
      timed(ids.p2, 'parts', '7.5', '9'),
      symbolic(ids.t1, 'trans', ids.u1),
      symbolic(ids.g1, 'gloss', ids.u2),
    ],
  );

describe.each(['sqlite', 'memory'])('the service refuses edits that break a tier constraint (%s store)', (kind) => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);
  let n = 0;
  let store: OpLoggedStore;
  let service: AnnotationService;
  beforeEach(async () => {
    ({ store, service } = await openSample(kind === 'sqlite' ? join(dir, `sample-${n++}.annot`) : null));
  });
  afterEach(() => store.close());

  const etag = async (id: string) => annotationEtag((await store.get(id))!);
  const update = async (id: string, patch: Record<string, unknown>) => service.updateAnnotation(id, patch, await etag(id), 'user:test');
  /** Runs an edit that must be refused; checks nothing was written and returns the error. */
  const refused = async (edit: () => Promise<unknown>): Promise<TierConstraintError> => {
    const clock = await store.latestClock();
    const count = await store.count();
    const error = await edit().then(
      () => {
        throw new Error('the edit was not refused');
      },
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(TierConstraintError);
    expect((error as TierConstraintError).code).toBe('ANNOT_TIER_CONSTRAINT');
    expect(await store.latestClock()).toBe(clock);
    expect(await store.count()).toBe(count);
    return error as TierConstraintError;
  };

  it('INCLUDED_IN: refuses a child moved past its parent\'s end, naming both and the rule', async () => {
    const error = await refused(() => update(ids.w2, retime(4000, 5200)));
    expect(error.message).toBe(`annotation ${ids.w2} on tier "words" would end at 5.2 s, after its parent ${ids.u1} on "utt" (ends 4.8 s): ${RULE_INCLUDED}`);
    expect(error.violations.map((v) => [v.code, v.annotation_id])).toEqual([['outside_parent', ids.w2]]);
    expect((await store.get(ids.w2))!.reference).toEqual(timed(ids.w2, 'words', '3', '4').reference);
  });

  it('INCLUDED_IN: refuses a child moved before its parent\'s start', async () => {
    const error = await refused(() => update(ids.w3, retime(5500, 6200)));
    expect(error.message).toBe(`annotation ${ids.w3} on tier "words" would start at 5.5 s, before its parent ${ids.u2} on "utt" (starts 6 s): ${RULE_INCLUDED}`);
  });

  it('INCLUDED_IN: refuses a parent moved away from its child', async () => {
    const shrunk = await refused(() => update(ids.u1, retime(0, 3500)));
    expect(shrunk.message).toBe(`annotation ${ids.u1} on tier "utt" would end at 3.5 s, before the end of its child ${ids.w2} on "words" (ends 4 s): ${RULE_INCLUDED}`);
    const moved = await refused(() => update(ids.u1, retime(1500, 6000)));
    expect(moved.message).toBe(`annotation ${ids.u1} on tier "utt" would start at 1.5 s, after the start of its child ${ids.w1} on "words" (starts 1 s): ${RULE_INCLUDED}`);
  });

  it('INCLUDED_IN: refuses a new child inside no parent, and overlapping children', async () => {
    const outside = await refused(() => service.createAnnotation(input('words', 5000, 5500), 'user:test'));
    expect(outside.message).toMatch(/^annotation \S+ on tier "words" \(\[5, 5\.5\) s\) would lie inside no annotation of its parent tier "utt": INCLUDED_IN/);
    const overlap = await refused(() => update(ids.w1, retime(1000, 3500)));
    expect(overlap.message).toBe(`annotation ${ids.w1} on tier "words" ([1, 3.5) s) would overlap ${ids.w2} ([3, 4) s) on the same tier: ${RULE_INCLUDED}`);
    await refused(() => service.createAnnotation(input('words', 1500, 2500), 'user:test'));
  });

  it('lets edits that keep the constraints through: a child moved inside its parent, a parent grown, text, a new child', async () => {
    await update(ids.w1, retime(500, 1500));
    await update(ids.u1, retime(0, 5000));
    await update(ids.w2, retime(4000, 5000));
    await update(ids.w2, { body: { text: 'edited' } });
    await service.createAnnotation(input('words', 2000, 3000), 'user:test');
    await service.createAnnotation(input('utt', 10_000, 11_000), 'user:test');
    expect((await validateAnnotations(store)).violations).toEqual([]);
  });

  it('TIME_SUBDIVISION: refuses a gap or an overlap between the parts of a parent, and a first part that does not cover it', async () => {
    const gap = await refused(() => update(ids.p1, retime(6000, 7000)));
    expect(gap.message).toContain(`changing annotation ${ids.p1} on tier "parts" would break the constraint of tier "parts" on "utt": gap from 7 s to 7.5 s between ${ids.p1} and ${ids.p2} inside parent annotation ${ids.u2}`);
    expect(gap.message).toContain('TIME_SUBDIVISION children stay inside their parent and tile it, with no gap and no overlap');
    const overlap = await refused(() => update(ids.p2, retime(7000, 9000)));
    expect(overlap.violations.map((v) => v.code)).toEqual(['overlap']);
    const partial = await refused(() => service.createAnnotation(input('parts', 0, 2000), 'user:test'));
    expect(partial.violations.map((v) => v.code)).toEqual(['gap']);
    // A first part spanning its whole parent tiles it (as ELAN creates it).
    await service.createAnnotation(input('parts', 0, 4800), 'user:test');
  });

  it('SYMBOLIC_ASSOCIATION and SUBDIVISION: refuses a second association, a target off the parent tier, a time-aligned symbolic child', async () => {
    const second = await refused(() => service.createAnnotation({ tier: 'trans', reference: { kind: 'annotation', target_id: ids.u1 }, body: { text: 'again' }, body_schema_uri: 'annot://schema/label/v1' }, 'user:test'));
    expect(second.message).toContain(`is a second association of parent annotation ${ids.u1} (the first is ${ids.t1})`);
    const offTier = await refused(() => service.createAnnotation({ tier: 'gloss', reference: { kind: 'annotation', target_id: ids.w1 }, body: { text: 'x' }, body_schema_uri: 'annot://schema/label/v1' }, 'user:test'));
    expect(offTier.violations.map((v) => v.code)).toEqual(['unknown_target']);
    const timedChild = await refused(() => service.createAnnotation(input('gloss', 0, 1000), 'user:test'));
    expect(timedChild.violations.map((v) => v.code)).toEqual(['wrong_reference_kind']);
    // More than one subdivision of one parent is fine; an association of another parent too.
    await service.createAnnotation({ tier: 'gloss', reference: { kind: 'annotation', target_id: ids.u2 }, body: { text: 'y' }, body_schema_uri: 'annot://schema/label/v1' }, 'user:test');
    await service.createAnnotation({ tier: 'trans', reference: { kind: 'annotation', target_id: ids.u2 }, body: { text: 'z' }, body_schema_uri: 'annot://schema/label/v1' }, 'user:test');
  });

  it('refuses to delete a parent that has children (rather than deleting them too), naming them; a leaf deletes', async () => {
    const error = await refused(() => service.deleteAnnotation(ids.u1, 'user:test'));
    expect(error.message).toMatch(new RegExp(`^deleting annotation ${ids.u1} on tier "utt" would leave its child ${ids.w1} on "words" \\(\\[1, 2\\) s\\) without a parent: ${RULE_INCLUDED}; delete or move the child first \\(and 2 more: .*${ids.w2}.*${ids.t1}`));
    expect(error.violations.map((v) => [v.code, v.annotation_id])).toEqual([['outside_parent', ids.w1], ['outside_parent', ids.w2], ['unknown_target', ids.t1]]);
    // Moving it to another tier leaves them just as alone.
    await refused(() => update(ids.u2, { tier: 'words' }));
    await service.deleteAnnotation(ids.w1, 'user:test');
    await service.deleteAnnotation(ids.w2, 'user:test');
    await service.deleteAnnotation(ids.t1, 'user:test');
    await service.deleteAnnotation(ids.u1, 'user:test');
    expect(await store.get(ids.u1)).toBeNull();
  });

  it('a 412 comes before the constraint: a stale If-Match is told as such', async () => {
    const stale = await etag(ids.w2);
    await update(ids.w2, { body: { text: 'meanwhile' } });
    await expect(service.updateAnnotation(ids.w2, retime(4000, 5200), stale, 'user:test')).rejects.toMatchObject({ code: 'ANNOT_PRECONDITION_FAILED' });
  });

  it('still loads a store that already breaks a constraint; only violations an edit adds are refused', async () => {
    // An import writes what the file holds, through apply, without the guard.
    const stray = timed('00000000-0000-4000-8000-0000000000f1', 'words', '5', '5.5');
    await service.apply([{ kind: 'add_annotation', annotation: stray }], 'import');
    expect((await validateAnnotations(store)).violations.map((v) => v.code)).toEqual(['outside_parent']);
    // Still outside, but not newly: text and time edits of it go through, and moving it into a parent repairs it.
    await update(stray.id, { body: { text: 'still stray' } });
    await update(stray.id, retime(5100, 5600));
    await update(stray.id, retime(7000, 7500));
    expect((await validateAnnotations(store)).violations).toEqual([]);
  });
});

describe('a refused edit over HTTP and MCP', () => {
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

  it('answers 409 with ANNOT_TIER_CONSTRAINT, the message and the violations', async () => {
    const current = await fetch(`${server.url}/annotations/${ids.w2}`);
    const answer = await fetch(`${server.url}/annotations/${ids.w2}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'if-match': current.headers.get('etag')! },
      body: JSON.stringify(retime(4000, 5200)),
    });
    expect(answer.status).toBe(409);
    const body = (await answer.json()) as { error: { code: string; message: string; details: { violations: unknown[] } } };
    expect(body.error.code).toBe('ANNOT_TIER_CONSTRAINT');
    expect(body.error.message).toContain(`would end at 5.2 s, after its parent ${ids.u1} on "utt" (ends 4.8 s)`);
    expect(body.error.details.violations).toEqual([{ tier: 'words', code: 'outside_parent', annotation_id: ids.w2, related_ids: [], message: expect.stringContaining('is not inside any annotation of parent tier "utt"') }]);

    const parent = await fetch(`${server.url}/annotations/${ids.u2}`);
    const deleted = await fetch(`${server.url}/annotations/${ids.u2}`, { method: 'DELETE', headers: { 'if-match': parent.headers.get('etag')! } });
    expect(deleted.status).toBe(409);
    expect(((await deleted.json()) as { error: { code: string } }).error.code).toBe('ANNOT_TIER_CONSTRAINT');
  });

  it('fails the MCP tool with the code', async () => {
    const mcp = buildMcpServer(new AnnotationService(store), { version: '0.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverSide);
    const tools = await connectTools(clientSide);
    try {
      const added = await tools.fails('add_annotation', { tier: 'words', asset_id: ASSET, start_seconds: 5, end_seconds: 5.5, body: { text: 'outside' }, body_schema_uri: 'annot://schema/label/v1', actor: 'agent:test' });
      expect(added.code).toBe('ANNOT_TIER_CONSTRAINT');
      expect(added.message).toContain('would lie inside no annotation of its parent tier "utt"');
      const deleted = await tools.fails('delete_annotation', { annotation_id: ids.u2, actor: 'agent:test' });
      expect(deleted.code).toBe('ANNOT_TIER_CONSTRAINT');
      expect(deleted.message).toContain(`deleting annotation ${ids.u2} on tier "utt" would leave its child`);
    } finally {
      await tools.close();
    }
  });
});

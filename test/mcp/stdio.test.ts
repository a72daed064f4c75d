import { join } from 'node:path';
import { tempDir } from '../support/sample-annot.js';
import { annotMcpTransport, connectTools, type ToolClient } from './mcp-client.js';

type Wire = {
  id: string;
  tier: string;
  reference: Record<string, unknown>;
  body: Record<string, unknown>;
  provenance: { was_generated_by: string; was_attributed_to: string; was_derived_from: string[]; generated_at_time: { v: number; r: number } };
  confidence: number | null;
};

const TOOL_NAMES = [
  'accept_ai_suggestion', 'add_annotation', 'add_tier', 'delete_annotation', 'get_annotation',
  'latest_clock', 'list_formats', 'list_tiers', 'query_annotations', 'retime', 'state_at',
];

describe('annot mcp over stdio, driven by the MCP SDK client', () => {
  const { dir, cleanup } = tempDir('annot-mcp-');
  const file = join(dir, 'talk.annot');
  let tools: ToolClient;

  beforeAll(async () => {
    tools = await connectTools(annotMcpTransport(file));
  });
  afterAll(async () => {
    await tools?.close();
    cleanup();
  });

  const word = (text: string, start: number | string, end: number | string, extra: Record<string, unknown> = {}) =>
    tools.ok<Wire>('add_annotation', { tier: 'words', asset_id: 'talk.wav', start_seconds: start, end_seconds: end, body: { text }, ...extra });

  it('lists the eleven tools, each with a title, a description and an object input schema', async () => {
    const { tools: listed } = await tools.client.listTools();
    expect(listed.map((tool) => tool.name).sort()).toEqual(TOOL_NAMES);
    for (const tool of listed) {
      expect(tool.title).toEqual(expect.any(String));
      expect(tool.description!.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    const add = listed.find((tool) => tool.name === 'add_annotation')!;
    expect(add.inputSchema.required).toEqual(expect.arrayContaining(['tier', 'body']));
    expect(Object.keys(add.inputSchema.properties!)).toEqual(expect.arrayContaining(['start_seconds', 'end_seconds', 'rate', 'actor']));
  });

  it('starts with an empty op-log: latest_clock is 0', async () => {
    expect((await tools.ok('latest_clock')).result).toEqual({ clock: 0 });
  });

  it('adds tiers and lists them, each mutation reporting its clock', async () => {
    const added = await tools.ok('add_tier', { name: 'words', actor: 'user:alice' });
    expect(added.result).toEqual({ name: 'words', stereotype: 'NONE', parent: null, metadata: {} });
    expect(added.clock).toBe(1);
    const gloss = await tools.ok('add_tier', { name: 'gloss', stereotype: 'SYMBOLIC_ASSOCIATION', parent: 'words', metadata: { language: 'en' } });
    expect(gloss.clock).toBe(2);
    const { result } = await tools.ok<{ tiers: Array<{ name: string }> }>('list_tiers');
    expect(result.tiers.map((tier) => tier.name)).toEqual(['words', 'gloss']);
  });

  it('refuses a tier whose stereotype needs a parent it does not name', async () => {
    const { message } = await tools.fails('add_tier', { name: 'phones', stereotype: 'TIME_SUBDIVISION' });
    expect(message).toMatch(/parent/);
  });

  it('adds an annotation with its seconds stored exactly, as numbers or decimal strings', async () => {
    const { result, clock } = await word('hello', 0.1, '0.35', { actor: 'user:alice' });
    expect(clock).toBe(3);
    expect(result.reference).toEqual({ kind: 'media', asset_id: 'talk.wav', interval: { start: { v: 100, r: 1000, s: '0.1' }, end: { v: 350, r: 1000, s: '0.35' } } });
    expect(result.body).toEqual({ text: 'hello' });
    expect(result.provenance).toMatchObject({ was_generated_by: 'server:annot', was_attributed_to: 'user:alice', was_derived_from: [] });
    expect(result.confidence).toBeNull();
    const fine = await word('world', '0.4005', '0.9');
    expect(fine.result.reference).toMatchObject({ interval: { start: { v: 4005, r: 10000 }, end: { v: 9000, r: 10000 } } });
    const sampled = await word('again', '1', '1.5', { rate: 48000 });
    expect(sampled.result.reference).toMatchObject({ interval: { start: { v: 48000, r: 48000 }, end: { v: 72000, r: 48000 } } });
  });

  it('adds an annotation about another annotation, without a time', async () => {
    const hello = (await tools.ok<{ annotations: Wire[] }>('query_annotations', { tier: 'words', start: 0, end: 0.2 })).result.annotations[0];
    const { result } = await tools.ok<Wire>('add_annotation', { tier: 'gloss', target_annotation_id: hello.id, body: { text: 'greeting' } });
    expect(result.reference).toEqual({ kind: 'annotation', target_id: hello.id });
  });

  it('answers bad annotations with tool errors that say what is wrong', async () => {
    expect((await tools.fails('add_annotation', { tier: 'words', asset_id: 'talk.wav', start_seconds: 2, end_seconds: 1, body: { text: 'x' } })).message)
      .toMatch(/end_seconds \(1 s\) precedes start_seconds \(2 s\)/);
    const lossy = await tools.fails('add_annotation', { tier: 'words', asset_id: 'talk.wav', start_seconds: '0.0005', end_seconds: 1, rate: 1000, body: { text: 'x' } });
    expect(lossy.message).toMatch(/start_seconds: "0\.0005" \(0\.0005 s\) is not a whole number of ticks at rate 1000/);
    expect(lossy.code).toBe('ANNOT_LOSSY_TIME');
    expect((await tools.fails('add_annotation', { tier: 'nowhere', asset_id: 'talk.wav', start_seconds: 0, end_seconds: 1, body: { text: 'x' } })).message)
      .toMatch(/nowhere/);
    expect((await tools.fails('add_annotation', { tier: 'words', asset_id: 'talk.wav', start_seconds: 0, end_seconds: 1, body: { txt: 'x' } })).message)
      .toMatch(/body failed validation against annot:\/\/schema\/label\/v1/);
    expect((await tools.fails('add_annotation', { tier: 'words', start_seconds: 0, end_seconds: 1, body: { text: 'x' } })).message)
      .toMatch(/missing asset_id/);
    // The SDK checks arguments against the input schema before the tool runs.
    expect((await tools.fails('add_annotation', { asset_id: 'talk.wav', body: { text: 'x' } })).message).toMatch(/tier/);
  });

  it('queries by window and Allen relation, by tier, and with a limit', async () => {
    const during = await tools.ok<{ annotations: Wire[]; count: number; truncated: boolean }>('query_annotations', { start: 0, end: 1, relation: 'during' });
    expect(during.result.annotations.map((a) => a.body.text)).toEqual(['hello', 'world']);
    const overlapping = await tools.ok<{ annotations: Wire[] }>('query_annotations', { start: '0.3', end: '00:00:00.410' });
    expect(overlapping.result.annotations.map((a) => a.body.text)).toEqual(['hello', 'world']);
    // The former names still work (deprecated).
    const former = await tools.ok<{ annotations: Wire[] }>('query_annotations', { start_seconds: '0.3', end_seconds: 0.41 });
    expect(former.result.annotations).toEqual(overlapping.result.annotations);
    const limited = await tools.ok<{ annotations: Wire[]; count: number; truncated: boolean; next: string | null }>('query_annotations', { tier: 'words', limit: 2 });
    expect(limited.result).toMatchObject({ count: 2, truncated: true, next: expect.any(String) });
    const gloss = await tools.ok<{ annotations: Wire[]; truncated: boolean; next: string | null }>('query_annotations', { tier: 'gloss' });
    expect(gloss.result.annotations.map((a) => a.body.text)).toEqual(['greeting']);
    expect(gloss.result).toMatchObject({ truncated: false, next: null });
  });

  it('pages with next and after: every annotation once, in order, and a cursor is bound to its query', async () => {
    const all = (await tools.ok<{ annotations: Wire[] }>('query_annotations', { start: 0, end: 100, limit: 1000 })).result.annotations.map((a) => a.id);
    expect(all.length).toBeGreaterThan(2);
    const paged: string[] = [];
    let after: string | undefined;
    do {
      const { result } = await tools.ok<{ annotations: Wire[]; next: string | null }>('query_annotations', { start: '0', end: '100', limit: 1, ...(after ? { after } : {}) });
      paged.push(...result.annotations.map((a) => a.id));
      after = result.next ?? undefined;
    } while (after !== undefined);
    expect(paged).toEqual(all);
    const { result: first } = await tools.ok<{ next: string }>('query_annotations', { start: 0, end: 100, limit: 1 });
    const other = await tools.fails('query_annotations', { start: 0, end: 50, limit: 1, after: first.next });
    expect(other.code).toBe('ANNOT_INVALID_CURSOR');
    expect(other.message).toMatch(/after belongs to a listing with other filters/);
  });

  it('answers bad queries with tool errors that name the arguments', async () => {
    expect((await tools.fails('query_annotations', { start: 0, end: 1, relation: 'near' })).message)
      .toMatch(/unknown Allen relation "near": expected one of before, after, meets/);
    expect((await tools.fails('query_annotations', { start: 0 })).message).toMatch(/start and end must be given together/);
    expect((await tools.fails('query_annotations', { relation: 'during' })).message).toMatch(/give start and end too/);
    expect((await tools.fails('query_annotations', { start: '0.0001', end: 1, rate: 1000 })).message).toMatch(/start: "0\.0001" \(0\.0001 s\) is not a whole number of ticks/);
    expect((await tools.fails('query_annotations', { start: 0, start_seconds: 0, end: 1 })).message).toMatch(/give start or start_seconds \(its deprecated name\), not both/);
    const unknown = await tools.fails('query_annotations', { from: 0, to: 1 });
    expect(unknown.message).toMatch(/unknown arguments "from", "to"; query_annotations takes tier, start, end, .*after/);
    const typo = await tools.fails('query_annotations', { stat: 0, end: 1 });
    expect(typo.message).toMatch(/unknown argument "stat" \(did you mean "start"\?\)/);
  });

  it('answers a tier that does not exist with the tiers there are and the nearest name', async () => {
    for (const args of [{ tier: 'word' }, { tier: 'word', start: 0, end: 10 }]) {
      const failed = await tools.fails('query_annotations', args);
      expect(failed.code).toBe('ANNOT_TIER_NOT_FOUND');
      expect(failed.message).toMatch(/^the store has no tier "word"; did you mean "words"\? \(tiers: .*words/);
    }
  });

  it('gets an annotation by id, and says so when there is none', async () => {
    const { result: created } = await word('get me', 3, 4);
    expect((await tools.ok<Wire>('get_annotation', { annotation_id: created.id })).result).toEqual(created);
    const missing = await tools.fails('get_annotation', { annotation_id: '00000000-0000-4000-8000-000000000000' });
    expect(missing.message).toBe('annotation 00000000-0000-4000-8000-000000000000 not found');
    expect(missing.code).toBe('ANNOT_ANNOTATION_NOT_FOUND');
  });

  it('deletes an annotation and returns it; a second delete is an error', async () => {
    const { result: created } = await word('delete me', 5, 6);
    const deleted = await tools.ok<{ deleted: boolean; annotation: Wire }>('delete_annotation', { annotation_id: created.id, actor: 'user:bob' });
    expect(deleted.result).toEqual({ deleted: true, annotation: created });
    expect(deleted.clock).toEqual(expect.any(Number));
    expect((await tools.fails('get_annotation', { annotation_id: created.id })).message).toMatch(/not found/);
    expect((await tools.fails('delete_annotation', { annotation_id: created.id })).message).toMatch(/not found/);
  });

  describe('accept_ai_suggestion', () => {
    let suggestion: Wire;
    beforeAll(async () => {
      suggestion = (await word('maybe', 10, 11, { generated_by: 'agent:flux@9f2c1d', actor: 'acme-labs', confidence: 0.62 })).result;
    });

    it('keeps the id and provenance of the suggestion and sets its confidence to 1.0', async () => {
      const { result } = await tools.ok<{ annotation: Wire; review: Wire }>('accept_ai_suggestion', { annotation_id: suggestion.id, actor: 'user:alice' });
      expect(Object.keys(result).sort()).toEqual(['annotation', 'review']);
      expect(result.annotation).toEqual({ ...suggestion, confidence: 1 });
      expect(result.annotation.provenance).toEqual(suggestion.provenance);
      expect(result.annotation.provenance).toMatchObject({ was_generated_by: 'agent:flux@9f2c1d', was_attributed_to: 'acme-labs' });
      expect((await tools.ok<Wire>('get_annotation', { annotation_id: suggestion.id })).result.confidence).toBe(1);
    });

    it('records the decision as a review on tier review, referring to the suggestion, by the reviewer, stamped with the time', async () => {
      const before = Date.now();
      const { result } = await tools.ok<{ annotation: Wire; review: Wire }>('accept_ai_suggestion', { annotation_id: suggestion.id, actor: 'user:carol' });
      const { review } = result;
      expect(review.id).not.toBe(suggestion.id);
      expect(review.tier).toBe('review');
      expect(review.reference).toEqual({ kind: 'annotation', target_id: suggestion.id });
      expect(review.body).toMatchObject({ kind: 'approval', accepted: true });
      expect(review.provenance).toMatchObject({ was_attributed_to: 'user:carol', was_derived_from: [suggestion.id] });
      const stamped = (review.provenance.generated_at_time.v / review.provenance.generated_at_time.r) * 1000;
      expect(stamped).toBeGreaterThanOrEqual(before - 1000);
      const tiers = (await tools.ok<{ tiers: Array<{ name: string }> }>('list_tiers')).result.tiers.map((tier) => tier.name);
      expect(tiers).toContain('review');
    });

    it('keeps reviews out of untiered interval queries and tier queries of the content', async () => {
      const window = await tools.ok<{ annotations: Wire[] }>('query_annotations', { start: 9, end: 12 });
      expect(window.result.annotations.map((a) => a.id)).toEqual([suggestion.id]);
      const words = await tools.ok<{ annotations: Wire[] }>('query_annotations', { tier: 'words', start: 9, end: 12 });
      expect(words.result.annotations.map((a) => a.id)).toEqual([suggestion.id]);
      const reviews = await tools.ok<{ annotations: Wire[] }>('query_annotations', { tier: 'review' });
      expect(reviews.result.annotations).toHaveLength(2);
    });

    it('rejecting sets the confidence to 0.0 and records a rejecting review', async () => {
      const { result } = await tools.ok<{ annotation: Wire; review: Wire }>('accept_ai_suggestion', { annotation_id: suggestion.id, accept: false, actor: 'user:dave' });
      expect(result.annotation.confidence).toBe(0);
      expect(result.annotation.provenance).toEqual(suggestion.provenance);
      expect(result.review.body).toMatchObject({ kind: 'approval', accepted: false });
    });

    it('is a tool error for an unknown id, and writes nothing', async () => {
      const clock = (await tools.ok<{ clock: number }>('latest_clock')).result.clock;
      expect((await tools.fails('accept_ai_suggestion', { annotation_id: '00000000-0000-4000-8000-000000000000' })).message).toMatch(/not found/);
      expect((await tools.ok<{ clock: number }>('latest_clock')).result.clock).toBe(clock);
    });
  });

  it('lists the file formats', async () => {
    const { result } = await tools.ok<{ formats: Array<{ name: string; extensions: string[] }> }>('list_formats');
    expect(result.formats.map((format) => format.name)).toEqual(expect.arrayContaining(['webvtt', 'textgrid', 'annot', 'jams', 'web_annotation', 'ass', 'ttml', 'sbv']));
  });

  it('replays the op-log: state_at the latest clock equals the current state, earlier clocks show earlier states', async () => {
    const latest = (await tools.ok<{ clock: number }>('latest_clock')).result.clock;
    const { result: now } = await tools.ok<{ at_clock: number; tiers: unknown[]; annotations: Wire[] }>('state_at', { clock: latest });
    const tiers = (await tools.ok<{ tiers: unknown[] }>('list_tiers')).result.tiers;
    const current = (await tools.ok<{ annotations: Wire[] }>('query_annotations', { limit: 10000 })).result.annotations;
    const byId = (a: Wire, b: Wire) => a.id.localeCompare(b.id);
    expect(now.at_clock).toBe(latest);
    expect(now.tiers).toEqual(tiers);
    expect([...now.annotations].sort(byId)).toEqual([...current].sort(byId));

    const early = (await tools.ok<{ tiers: Array<{ name: string }>; annotations: Wire[] }>('state_at', { clock: 3 })).result;
    expect(early.tiers.map((tier) => tier.name)).toEqual(['words', 'gloss']);
    expect(early.annotations.map((a) => a.body.text)).toEqual(['hello']);
    expect((await tools.ok('state_at', { clock: 0 })).result).toEqual({ at_clock: 0, tiers: [], annotations: [] });
    expect((await tools.fails('state_at', { clock: latest + 1 })).message).toMatch(/beyond the latest clock/);
  });
});

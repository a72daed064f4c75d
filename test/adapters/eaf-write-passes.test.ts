import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EAF_ANNOTATION_SCHEMA, EAF_DOCUMENT_META } from '../../src/adapters/eaf/eaf-model.js';
import { allocate } from '../../src/adapters/eaf/eaf-write-allocate.js';
import { collectStore } from '../../src/adapters/eaf/eaf-write-collect.js';
import { emitDocument, parentRefOf } from '../../src/adapters/eaf/eaf-write-emit.js';
import { EafWriteState } from '../../src/adapters/eaf/eaf-write-state.js';
import { ChunkedWriter } from '../../src/adapters/eaf/xml-write.js';
import { annotationRef, makeAnnotation, mediaRef, type Annotation } from '../../src/model/annotation.js';
import { makeTier, type Tier } from '../../src/model/tier.js';
import { MemoryStore } from '../../src/store/memory.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';

/** The EAF writer's passes, each on its own: collect (the store) → allocate (ids, slots, types) → emit (the document). */

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'annot-eaf-write-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const PROVENANCE = { was_generated_by: 'user:test', generated_at_time: new RationalTime(0, 1000) };

function timed(tier: string, start: string, end: string, body: Record<string, unknown>, extra: { confidence?: number; asset?: string } = {}): Annotation {
  return makeAnnotation({ tier, reference: mediaRef(extra.asset ?? 'a.wav', TimeInterval.fromSeconds(start, end, 1000)), body, body_schema_uri: EAF_ANNOTATION_SCHEMA, provenance: PROVENANCE, confidence: extra.confidence ?? null });
}

function symbolic(tier: string, target: Annotation, body: Record<string, unknown>): Annotation {
  return makeAnnotation({ tier, reference: annotationRef(target.id), body, body_schema_uri: EAF_ANNOTATION_SCHEMA, provenance: PROVENANCE });
}

async function storeWith(tiers: Tier[], annotations: Annotation[], meta: Record<string, string> = {}): Promise<MemoryStore> {
  const store = new MemoryStore();
  for (const tier of tiers) await store.addTier(tier);
  for (const [key, value] of Object.entries(meta)) await store.setMeta(key, value);
  await store.addMany(annotations);
  return store;
}

async function collected(store: MemoryStore): Promise<EafWriteState> {
  const state = new EafWriteState();
  await collectStore(state, store);
  return state;
}

describe('EAF write pass 1: collect', () => {
  it('takes the tiers, the annotations by tier, the ids and slots bodies ask for, and counts what EAF drops (a damaged kept document is ignored)', async () => {
    const words = makeTier({ name: 'words' });
    const a = timed('words', '0', '1', { text: 'a', annotation_id: 'a7', time_slots: ['ts3', 'ts4'], note: 'x' }, { confidence: 0.5 });
    const b = timed('words', '1', '2', { text: 'b' });
    const store = await storeWith([words], [a, b], { [EAF_DOCUMENT_META]: '{not json' });
    const state = await collected(store);
    expect(state.tiers.map((tier) => tier.name)).toEqual(['words']);
    expect(state.byTier.get('words')?.map((annotation) => annotation.body.text)).toEqual(['a', 'b']);
    expect([...state.reservedIds]).toEqual(['a7']);
    expect([...state.reservedSlots]).toEqual(['ts3', 'ts4']);
    expect(state.parts).toBeNull();
    expect([...state.dropped]).toEqual([
      ['confidence', 1],
      ['body fields other than the text (text, label or value) and ELAN attributes', 1],
      ['provenance', 2],
      ['annotation ids (UUIDs; ELAN ANNOTATION_IDs are kept)', 2],
    ]);
  });
});

describe('EAF write pass 2: allocate', () => {
  it('keeps the ELAN ids bodies ask for when free, gives fresh a<n> past them otherwise, and REF_ANNOTATIONs their targets and predecessors', async () => {
    const words = makeTier({ name: 'words' });
    const morph = makeTier({ name: 'morph', stereotype: 'SYMBOLIC_SUBDIVISION', parent: 'words' });
    const w1 = timed('words', '0', '1', { text: 'w1', annotation_id: 'a5' });
    const w2 = timed('words', '1', '2', { text: 'w2', annotation_id: 'a5' });
    const m1 = symbolic('morph', w1, { text: 'm1' });
    const m2 = symbolic('morph', w1, { text: 'm2' });
    const state = await collected(await storeWith([words, morph], [w1, w2, m1, m2]));
    allocate(state);
    const view = (tier: string) => state.written.get(tier)?.map((item) => [item.eafId, item.slot1 ?? null, item.slot2 ?? null, item.ref ?? null, item.previous ?? null]);
    // Slots are shared only where bodies name them: each of these gets fresh ones.
    expect(view('words')).toEqual([['a5', 'ts1', 'ts2', null, null], ['a6', 'ts3', 'ts4', null, null]]);
    expect(view('morph')).toEqual([['a7', null, null, 'a5', null], ['a8', null, null, 'a5', 'a7']]);
    expect(state.lastNumber).toBe(8);
    expect(state.orderedSlots.map((slot) => [slot.name, slot.ms])).toEqual([['ts1', 0], ['ts2', 1000], ['ts3', 1000], ['ts4', 2000]]);
    expect(state.generatedTypes.map((type) => type.attributes)).toEqual([
      { GRAPHIC_REFERENCES: 'false', LINGUISTIC_TYPE_ID: 'lt_none', TIME_ALIGNABLE: 'true' },
      { CONSTRAINTS: 'Symbolic_Subdivision', GRAPHIC_REFERENCES: 'false', LINGUISTIC_TYPE_ID: 'lt_symbolic_subdivision', TIME_ALIGNABLE: 'false' },
    ]);
  });

  it('keeps a slot two bodies share, gives a fresh one to a name asked for at another time, and counts what it cannot write', async () => {
    const words = makeTier({ name: 'words' });
    const a = timed('words', '0', '1', { text: 'a', time_slots: ['s1', 'shared'] });
    const b = timed('words', '1', '2', { text: 'b', time_slots: ['shared', 's1'] }, { asset: 'other.wav' });
    const state = await collected(await storeWith([words], [a, b]));
    allocate(state);
    expect(state.written.get('words')?.map((item) => [item.slot1, item.slot2])).toEqual([['s1', 'shared'], ['shared', 'ts1']]);
    expect(state.mainAsset).toBe('a.wav');
    expect(state.dropped.get('asset ids other than the main media (EAF has one timeline)')).toBe(1);
  });

  it('moves the annotations of other speakers of an independent tier to a tier per speaker', async () => {
    const utt = makeTier({ name: 'utt', metadata: { participant: 'Ann' } });
    const state = await collected(await storeWith([utt], [timed('utt', '0', '1', { text: 'x', speaker: 'Ann' }), timed('utt', '1', '2', { text: 'y', speaker: 'Bob' })]));
    allocate(state);
    expect(state.tiers.map((tier) => [tier.name, tier.metadata.participant])).toEqual([['utt', 'Ann'], ['utt (Bob)', 'Bob']]);
    expect(state.written.get('utt (Bob)')?.map((item) => item.annotation.body.text)).toEqual(['y']);
  });
});

describe('EAF write pass 3: emit', () => {
  it('writes PARENT_REF as the file had it for a tier read under the tier its references point into, while it still hangs there', () => {
    const remembered = { parent_ref: 'speech', parent_from_references: 'morphemes' };
    const gloss = (parent: string) => makeTier({ name: 'gloss', stereotype: 'SYMBOLIC_ASSOCIATION', parent, metadata: remembered });
    const tiers = new Map(['speech', 'morphemes', 'other'].map((name) => [name, makeTier({ name })]));
    expect(parentRefOf(gloss('morphemes'), tiers)).toBe('speech');
    // moved since (an edit), or the tier PARENT_REF named is gone: the parent it has now
    expect(parentRefOf(gloss('other'), tiers)).toBe('other');
    expect(parentRefOf(gloss('morphemes'), new Map([...tiers].filter(([name]) => name !== 'speech')))).toBe('morphemes');
    // a tier the reader made independent gets back the PARENT_REF it had
    expect(parentRefOf(makeTier({ name: 'lost', metadata: { stereotype_coerced: true, parent_ref: 'nowhere' } }), tiers)).toBe('nowhere');
  });

  it('writes the allocated document in the schema order: header, time order, tiers, types, constraints', async () => {
    const words = makeTier({ name: 'words' });
    const gloss = makeTier({ name: 'gloss', stereotype: 'SYMBOLIC_ASSOCIATION', parent: 'words' });
    const w = timed('words', '0.5', '1.25', { text: 'hi & bye' });
    const state = await collected(await storeWith([words, gloss], [w, symbolic('gloss', w, { text: 'salut' })]));
    allocate(state);
    const path = join(work, 'emitted.eaf');
    const writer = new ChunkedWriter(path);
    await emitDocument(state, writer, new Date(Date.UTC(2026, 0, 2, 3, 4, 5)));
    await writer.close();
    const text = readFileSync(path, 'utf8');
    expect(text.split('\n').map((line) => line.trim().replace(/ .*/, ''))).toEqual([
      '<?xml', '<ANNOTATION_DOCUMENT', '<HEADER', '<MEDIA_DESCRIPTOR', '<PROPERTY', '</HEADER>',
      '<TIME_ORDER>', '<TIME_SLOT', '<TIME_SLOT', '</TIME_ORDER>',
      '<TIER', '<ANNOTATION>', '<ALIGNABLE_ANNOTATION', '<ANNOTATION_VALUE>hi', '</ALIGNABLE_ANNOTATION>', '</ANNOTATION>', '</TIER>',
      '<TIER', '<ANNOTATION>', '<REF_ANNOTATION', '<ANNOTATION_VALUE>salut</ANNOTATION_VALUE>', '</REF_ANNOTATION>', '</ANNOTATION>', '</TIER>',
      '<LINGUISTIC_TYPE', '<LINGUISTIC_TYPE', '<CONSTRAINT', '<CONSTRAINT', '<CONSTRAINT', '<CONSTRAINT', '</ANNOTATION_DOCUMENT>', '',
    ]);
    expect(text).toContain('DATE="2026-01-02T03:04:05+00:00"');
    expect(text).toContain('<ANNOTATION_VALUE>hi &amp; bye</ANNOTATION_VALUE>');
    expect(text).toContain('<PROPERTY NAME="lastUsedAnnotationId">2</PROPERTY>');
    expect(text).toContain('<TIER TIER_ID="gloss" LINGUISTIC_TYPE_REF="lt_symbolic_association" PARENT_REF="words">');
  });
});

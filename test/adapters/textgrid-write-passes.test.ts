import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEXTGRID_XMAX_META, TEXTGRID_XMIN_META } from '../../src/adapters/textgrid/meta-keys.js';
import { dump } from '../../src/adapters/textgrid/textgrid-dump.js';
import { collectStore, placeSymbolic } from '../../src/adapters/textgrid/textgrid-write-collect.js';
import { layOut } from '../../src/adapters/textgrid/textgrid-write-layout.js';
import { TextGridWriteState } from '../../src/adapters/textgrid/textgrid-write-state.js';
import { annotationRef, makeAnnotation, mediaRef, type Annotation } from '../../src/model/annotation.js';
import { makeTier, type Tier } from '../../src/model/tier.js';
import { MemoryStore } from '../../src/store/memory.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { fractionToDecimal, type Fraction } from '../../src/time/decimal.js';
import { TimeInterval } from '../../src/time/time-interval.js';

/** The TextGrid dump's passes, each on its own: collect (with symbolic annotations placed) → lay out → emit. */

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'annot-textgrid-write-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const PROVENANCE = { was_generated_by: 'user:test', generated_at_time: new RationalTime(0, 1000) };
const SCHEMA = 'annot://schema/label/v1';

const timed = (tier: string, start: string, end: string, text: string): Annotation =>
  makeAnnotation({ tier, reference: mediaRef('a.wav', TimeInterval.fromSeconds(start, end, 1000)), body: { text }, body_schema_uri: SCHEMA, provenance: PROVENANCE });
const symbolic = (tier: string, target: Annotation | string, text: string): Annotation =>
  makeAnnotation({ tier, reference: annotationRef(typeof target === 'string' ? target : target.id), body: { text }, body_schema_uri: SCHEMA, provenance: PROVENANCE });

async function storeWith(tiers: Tier[], annotations: Annotation[], meta: Record<string, string> = {}): Promise<MemoryStore> {
  const store = new MemoryStore();
  for (const tier of tiers) await store.addTier(tier);
  for (const [key, value] of Object.entries(meta)) await store.setMeta(key, value);
  await store.addMany(annotations);
  return store;
}

const seconds = (value: Fraction) => fractionToDecimal(value.num, value.den);
const items = (list: ReadonlyArray<{ start: Fraction; end: Fraction; text: string }>) => list.map((item) => [seconds(item.start), seconds(item.end), item.text]);

describe('TextGrid write pass 1: collect', () => {
  it('places timed annotations as intervals or points of their tier, and symbolic ones at their parents\' times', async () => {
    const words = makeTier({ name: 'words' });
    const morph = makeTier({ name: 'morph', stereotype: 'SYMBOLIC_SUBDIVISION', parent: 'words' });
    const gloss = makeTier({ name: 'gloss', stereotype: 'SYMBOLIC_ASSOCIATION', parent: 'morph' });
    const word = timed('words', '1', '2', 'cats');
    const cat = symbolic('morph', word, 'cat');
    const plural = symbolic('morph', word, 's');
    const store = await storeWith([words, morph, gloss], [word, timed('words', '3', '3', 'beep'), cat, plural, symbolic('gloss', plural, 'PL')]);
    const state = new TextGridWriteState();
    await collectStore(state, store);
    expect(items(state.byTier.get('words')?.intervals ?? [])).toEqual([['1', '2', 'cats']]);
    expect(items(state.byTier.get('words')?.points ?? [])).toEqual([['3', '3', 'beep']]);
    expect(state.pending.map((annotation) => annotation.body.text)).toEqual(['cat', 's', 'PL']);
    placeSymbolic(state);
    expect(items(state.byTier.get('morph')?.intervals ?? [])).toEqual([['1', '1.5', 'cat'], ['1.5', '2', 's']]);
    expect(items(state.byTier.get('gloss')?.intervals ?? [])).toEqual([['1.5', '2', 'PL']]);
    expect(state.counts).toEqual(expect.objectContaining({ annotations: 5, symbolic: 0 }));
  });

  it('counts a symbolic annotation whose parent is not in the store as lost', async () => {
    const notes = makeTier({ name: 'notes' });
    const store = await storeWith([notes], [symbolic('notes', '00000000-0000-4000-8000-000000000001', 'orphan')]);
    const state = new TextGridWriteState();
    await collectStore(state, store);
    placeSymbolic(state);
    expect(state.counts.symbolic).toBe(1);
    expect(state.byTier.get('notes')).toEqual({ intervals: [], points: [] });
  });
});

describe('TextGrid write pass 2: lay out', () => {
  it('tiles each interval tier from the grid bounds, moves points and overlaps to tiers of their own, keeps the file\'s bounds when they cover the data', async () => {
    const words = makeTier({ name: 'words', metadata: { textgrid_name: 'w' } });
    const store = await storeWith([words], [timed('words', '1', '2', 'a'), timed('words', '1.5', '3', 'b'), timed('words', '4', '4', 'p')], { [TEXTGRID_XMIN_META]: '0', [TEXTGRID_XMAX_META]: '5' });
    const state = new TextGridWriteState();
    await collectStore(state, store);
    placeSymbolic(state);
    layOut(state);
    expect([seconds(state.gridMin), seconds(state.gridMax)]).toEqual(['0', '5']);
    expect(state.written.map((tier) => [tier.kind, tier.name, tier.xmin, tier.xmax, tier.items.map((item) => `${item.start}-${item.end}:${item.text}`)])).toEqual([
      ['IntervalTier', 'w', '0', '5', ['0-1:', '1-2:a', '2-5:']],
      ['IntervalTier', 'w', '0', '5', ['0-1.5:', '1.5-3:b', '3-5:']],
      ['TextTier', 'w', '0', '5', ['4-4:p']],
    ]);
    expect(state.counts).toEqual(expect.objectContaining({ splitIntervals: 1, movedPoints: 1 }));
  });

  it('widens bounds that no longer cover the data, and starts a grid without stored bounds at 0', async () => {
    const store = await storeWith([makeTier({ name: 't' })], [timed('t', '2', '7', 'x')], { [TEXTGRID_XMAX_META]: '5' });
    const state = new TextGridWriteState();
    await collectStore(state, store);
    layOut(state);
    expect([seconds(state.gridMin), seconds(state.gridMax)]).toEqual(['0', '7']);
  });
});

describe('TextGrid write pass 3: emit', () => {
  it('writes the laid-out tiers and reports what TextGrid drops', async () => {
    const words = makeTier({ name: 'words' });
    const gloss = makeTier({ name: 'gloss', stereotype: 'SYMBOLIC_ASSOCIATION', parent: 'words' });
    const word = timed('words', '0', '1', 'hi');
    const store = await storeWith([words, gloss], [word, symbolic('gloss', word, 'salut')]);
    const path = join(work, 'out.TextGrid');
    const report = await dump(store, path, { targetName: path, warn: () => undefined, variant: 'short' });
    expect(readFileSync(path, 'utf8')).toBe('File type = "ooTextFile"\nObject class = "TextGrid"\n\n0\n1\n<exists>\n2\n"IntervalTier"\n"words"\n0\n1\n1\n0\n1\n"hi"\n"IntervalTier"\n"gloss"\n0\n1\n1\n0\n1\n"salut"\n');
    expect(report.dropped).toEqual([
      { what: 'provenance', count: 2 },
      { what: 'annotation ids', count: 2 },
      { what: 'tier stereotypes and parents', count: 1 },
    ]);
  });
});

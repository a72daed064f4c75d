import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { LoadOptions } from '../../src/adapters/adapter.js';
import { FormatParseError } from '../../src/adapters/errors.js';
import { loadIntoStore } from '../../src/adapters/load-into-store.js';
import { dump, load } from '../../src/adapters/textgrid/codec.js';
import { textgridFormat } from '../../src/adapters/textgrid/format.js';
import { makeAnnotation, mediaRef, type Annotation } from '../../src/model/annotation.js';
import { makeTier, type Tier } from '../../src/model/tier.js';
import { validateBody } from '../../src/schemas/registry.js';
import { MemoryStore } from '../../src/store/memory.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';

const corpus = join(process.cwd(), 'fixtures', 'corpus', 'textgrid');
const fixtures = join(process.cwd(), 'fixtures', 'textgrid');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'annot-textgrid-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const options = (extra: Partial<LoadOptions> = {}): LoadOptions => ({ sourceName: 'in.TextGrid', now: RationalTime.now(1000), report: () => undefined, ...extra });

async function loadAll(path: string, extra: Partial<LoadOptions> = {}): Promise<{ tiers: Tier[]; annotations: Annotation[]; meta: Record<string, string>; quantized: number }> {
  const document = await load(path, options(extra));
  const annotations: Annotation[] = [];
  for await (const annotation of document.annotations) annotations.push(annotation);
  return { tiers: [...document.tiers], annotations, meta: { ...document.meta }, quantized: document.quantization().count };
}

const write = (name: string, content: string | Buffer): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const seconds = (a: Annotation): [string, string] => {
  const { start, end } = (a.reference as { interval: TimeInterval }).interval;
  return [start.toSecondsString(), end.toSecondsString()];
};
/** What TextGrid keeps of an annotation: its tier (by the name written in the file), times and label. */
const kept = (tiers: Tier[]) => (a: Annotation): unknown => {
  const tier = tiers.find((t) => t.name === a.tier);
  return { tier: tier?.metadata.textgrid_name ?? a.tier, class: tier?.metadata.textgrid_class, times: seconds(a), text: a.body.text };
};

async function roundTrip(path: string, variant?: string): Promise<{ first: Annotation[]; second: Annotation[]; firstTiers: Tier[]; secondTiers: Tier[]; written: string }> {
  const store = new MemoryStore();
  await loadIntoStore(await load(path, options()), store);
  const first: Annotation[] = [];
  for await (const a of store.all()) first.push(a);
  const out = join(dir, `round-${Math.random().toString(36).slice(2)}.TextGrid`);
  await dump(store, out, { targetName: out, variant, warn: () => undefined });
  const again = await loadAll(out);
  return { first, second: again.annotations, firstTiers: await store.listTiers(), secondTiers: again.tiers, written: readFileSync(out, 'utf8') };
}

describe('the textgrid adapter', () => {
  it('reads a short-format UTF-16 CRLF file with escapes, multi-line labels, -0, a point tier, duplicate and empty tier names', async () => {
    const { tiers, annotations, meta } = await loadAll(join(fixtures, 'short-utf16le-crlf.TextGrid'));
    expect(tiers.map((t) => [t.name, t.metadata])).toEqual([
      ['words', { textgrid_name: 'words', textgrid_class: 'IntervalTier', textgrid_xmin: '-0', textgrid_xmax: '2' }],
      ['words (2)', { textgrid_name: 'words', textgrid_class: 'TextTier', textgrid_xmin: '0.5', textgrid_xmax: '2.5' }],
      ['(unnamed 3)', { textgrid_name: '', textgrid_class: 'IntervalTier', textgrid_xmin: '0', textgrid_xmax: '2.5' }],
    ]);
    expect(meta).toEqual({ 'textgrid.xmin': '-0', 'textgrid.xmax': '2.5', 'text.layout': expect.any(String) });
    // How the file is laid out, to write it back so: short, ending in CRLF; one label holds a bare LF, so its line breaks mix and are written LF.
    expect(JSON.parse(meta['text.layout'])).toMatchObject({ format: 'textgrid', variant: 'short', line_break: 'lf', bom: false, ending: '\r\n' });
    expect(annotations.map((a) => [a.tier, seconds(a), a.body.text])).toEqual([
      ['words', ['0', '1.25'], 'say "hi"'],
      ['words', ['1.25', '2'], 'two\nlines'],
      ['words (2)', ['0.75', '0.75'], 'H*'],
    ]);
    expect(annotations[0].reference).toMatchObject({ interval: { start: { v: 0, r: 100 } } });
    for (const a of annotations) expect(validateBody(a.body_schema_uri, a.body).errors).toEqual([]);
  });

  it('writes long and short formats that load back the same, duplicate names and tier bounds included', async () => {
    for (const variant of ['long', 'short']) {
      const { first, second, firstTiers, secondTiers, written } = await roundTrip(join(fixtures, 'short-utf16le-crlf.TextGrid'), variant);
      expect(second.map(kept(secondTiers))).toEqual(first.map(kept(firstTiers)));
      expect(secondTiers.map((t) => t.metadata)).toEqual(firstTiers.map((t) => ({ ...t.metadata, textgrid_xmin: t.metadata.textgrid_xmin === '-0' ? '0' : t.metadata.textgrid_xmin })));
      expect(written).toContain(variant === 'long' ? 'text = "say ""hi""" ' : '"say ""hi"""');
    }
  });

  it('fills gaps with empty intervals, moves points off interval tiers and splits overlaps, reporting each', async () => {
    const store = new MemoryStore();
    await store.addTier(makeTier({ name: 'w' }));
    const now = RationalTime.now(1000);
    const add = (start: number, end: number, text: string): Annotation =>
      makeAnnotation({ tier: 'w', reference: mediaRef('x', TimeInterval.fromSeconds(start, end, 1000)), body: { text }, body_schema_uri: 'annot://schema/label/v1', provenance: { was_generated_by: 'user:t', generated_at_time: now } });
    await store.addMany([add(1, 2, 'a'), add(1.5, 3, 'overlap'), add(4, 4, 'point')]);
    const out = join(dir, 'mixed.TextGrid');
    const report = await dump(store, out, { targetName: out, variant: 'short', warn: () => undefined });
    const { annotations, tiers } = await loadAll(out);
    expect(tiers.map((t) => [t.name, t.metadata.textgrid_class])).toEqual([['w', 'IntervalTier'], ['w (2)', 'IntervalTier'], ['w (3)', 'TextTier']]);
    expect(annotations.map((a) => [a.tier, seconds(a), a.body.text])).toEqual([
      ['w', ['0', '1'], ''],
      ['w', ['1', '2'], 'a'],
      ['w', ['2', '4'], ''],
      ['w (2)', ['0', '1.5'], ''],
      ['w (2)', ['1.5', '3'], 'overlap'],
      ['w (2)', ['3', '4'], ''],
      ['w (3)', ['4', '4'], 'point'],
    ]);
    expect(report.dropped).toEqual(expect.arrayContaining([
      { what: 'points on interval tiers (written to a point tier of the same name)', count: 1 },
      { what: 'overlapping intervals (written to extra tiers of the same name)', count: 1 },
      { what: 'provenance', count: 3 },
    ]));
  });

  it('picks the finest decimal rate the times need, and quantizes longer floats with a count', async () => {
    const grid = (xmax: string): string => `File type = "ooTextFile"\nObject class = "TextGrid"\n\n0\n${xmax}\n<exists>\n1\n"IntervalTier"\n"t"\n0\n${xmax}\n1\n0\n${xmax}\n"x"\n`;
    expect((await loadAll(write('ms.TextGrid', grid('1.234')))).annotations[0].reference).toMatchObject({ interval: { end: { v: 1234, r: 1000 } } });
    const long = await loadAll(write('float.TextGrid', grid('0.06469123242311078')));
    // The interval's end, and the grid's and the tier's xmax, which are the same time and are rounded alike.
    expect(long.quantized).toBe(3);
    expect(long.annotations[0].reference).toMatchObject({ interval: { end: { v: 64691232, r: 1_000_000_000 } } });
    await expect(loadAll(write('strict.TextGrid', grid('0.06469123242311078')), { strictTime: true })).rejects.toThrow(/--strict-time/);
  });

  it('rejects malformed files with a FormatParseError naming the file, line and column', async () => {
    const truncated = write('trunc.TextGrid', 'File type = "ooTextFile"\nObject class = "TextGrid"\n\nxmin = 0\nxmax = 1\ntiers? <exists>\nsize = 1\nitem []:\n    item [1]:\n        class = "IntervalTier"\n        name = "a"\n        xmin = 0\n        xmax = 1\n        intervals: size = 1\n        intervals [1]:\n            xmin = 0\n            xmax = 1\n');
    await expect(load(truncated, options())).rejects.toThrow(/^in\.TextGrid:17:\d+: expected the text of interval 1 of tier 1, found the end of the file/);
    const unterminated = write('quote.TextGrid', 'File type = "ooTextFile"\nObject class = "TextGrid"\n0\n1\n<exists>\n1\n"IntervalTier"\n"a\n');
    await expect(load(unterminated, options())).rejects.toThrow(/in\.TextGrid:8:1: expected a closing quote/);
    await expect(load(write('binary.TextGrid', 'File type = "ooBinaryFile"\n'), options())).rejects.toBeInstanceOf(FormatParseError);
    await expect(dump(new MemoryStore(), join(dir, 'x.TextGrid'), { targetName: 'x', variant: 'medium', warn: () => undefined })).rejects.toThrow(/unknown variant "medium"/);
  });

  it('sniffs TextGrid files in UTF-8 and UTF-16', () => {
    expect(textgridFormat.sniff(Buffer.from('File type = "ooTextFile"\n'))).toBe(true);
    expect(textgridFormat.sniff(readFileSync(join(fixtures, 'short-utf16le-crlf.TextGrid')))).toBe(true);
    expect(textgridFormat.sniff(Buffer.from('WEBVTT\n'))).toBe(false);
  });

  it('round-trips tiers, times and labels of random tiled stores exactly, long and short (property)', async () => {
    const label = fc.string({ maxLength: 8 });
    const tierArb = fc.record({
      points: fc.boolean(),
      steps: fc.array(fc.tuple(fc.integer({ min: 1, max: 5000 }), label), { minLength: 1, maxLength: 6 }),
    });
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(tierArb, { minLength: 1, maxLength: 3 }), fc.constantFrom('long', 'short'), async (tiers, variant) => {
        const store = new MemoryStore();
        const now = RationalTime.now(1000);
        const expected: unknown[] = [];
        const all: Annotation[] = [];
        const total = Math.max(...tiers.map((t) => t.steps.reduce((sum, [step]) => sum + step, 0)));
        for (const [index, tier] of tiers.entries()) {
          const name = `t${index}`;
          await store.addTier(makeTier({ name }));
          let cursor = 0;
          for (const [step, text] of tier.steps) {
            const start = tier.points ? cursor + step : cursor;
            const end = tier.points ? start : cursor + step;
            cursor += step;
            all.push(makeAnnotation({ tier: name, reference: mediaRef('x', new TimeInterval(new RationalTime(start, 1000), new RationalTime(end, 1000))), body: { text }, body_schema_uri: 'annot://schema/textgrid-label/v1', provenance: { was_generated_by: 'user:t', generated_at_time: now } }));
            expected.push({ tier: name, times: [start / 1000, end / 1000], text });
          }
          if (!tier.points && cursor < total) expected.push({ tier: name, times: [cursor / 1000, total / 1000], text: '' });
        }
        await store.addMany(all);
        const out = join(dir, `prop-${round++}.TextGrid`);
        await dump(store, out, { targetName: out, variant, warn: () => undefined });
        const back = await loadAll(out);
        const actual = back.annotations.map((a) => ({ tier: a.tier, times: seconds(a).map(Number), text: a.body.text }));
        expect(actual).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });
});

/** Corpus files rejected, and why. None: every TextGrid there is a valid text TextGrid. */
const REJECTED: Record<string, RegExp> = {};

describe('the textgrid adapter on the other tools\' files (fixtures/corpus)', () => {
  const files = readdirSync(corpus).filter((name) => name.toLowerCase().endsWith('.textgrid'));
  it.each(files)('loads %s (or rejects it for the reason in the table), and long and short dumps load back the same', async (name) => {
    const path = join(corpus, name);
    if (REJECTED[name]) {
      await expect(loadAll(path)).rejects.toThrow(REJECTED[name]);
      return;
    }
    // Gaps in interval tiers come back as empty intervals (Praat tiles every interval tier), so
    // labelled entries are compared exactly and the empty ones only have to cover at least as much.
    for (const variant of ['long', 'short']) {
      const { first, second, firstTiers, secondTiers } = await roundTrip(path, variant);
      // Overlapping intervals (the Praat-written kylebgorman file has one) go to an extra tier of the same name: compare as sets.
      const labelled = (tiers: Tier[], annotations: Annotation[]): string[] => annotations.filter((a) => a.body.text !== '').map((a) => JSON.stringify(kept(tiers)(a))).sort();
      expect(labelled(secondTiers, second)).toEqual(labelled(firstTiers, first));
      expect(second.length).toBeGreaterThanOrEqual(first.length);
      expect(new Set(secondTiers.map((t) => `${t.metadata.textgrid_name}/${t.metadata.textgrid_class}`))).toEqual(new Set(firstTiers.map((t) => `${t.metadata.textgrid_name}/${t.metadata.textgrid_class}`)));
    }
  });

  it('reads the ELAN-flavoured long format (item[1]:, intervals [1] without colon) like Praat\'s own', async () => {
    const labels = async (name: string): Promise<unknown[]> => (await loadAll(join(corpus, name))).annotations.map((a) => [seconds(a), a.body.text]);
    expect(await labels('praatio_bobby_words_with_newlines_longfile_elan.TextGrid')).toEqual(await labels('praatio_bobby_words_with_newlines_longfile.TextGrid'));
  });
});

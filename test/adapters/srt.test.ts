import { formatFinding } from '../../src/adapters/finding.js';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { LoadOptions } from '../../src/adapters/adapter.js';
import { loadIntoStore } from '../../src/adapters/load-into-store.js';
import { dump, load } from '../../src/adapters/srt/codec.js';
import { srtFormat } from '../../src/adapters/srt/format.js';
import { makeAnnotation, mediaRef, type Annotation } from '../../src/model/annotation.js';
import { makeTier } from '../../src/model/tier.js';
import { validateBody } from '../../src/schemas/registry.js';
import { MemoryStore } from '../../src/store/memory.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';

const corpus = join(process.cwd(), 'fixtures', 'corpus', 'srt');
const fixtures = join(process.cwd(), 'fixtures', 'srt');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'annot-srt-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const warnings: string[] = [];
const options = (extra: Partial<LoadOptions> = {}): LoadOptions => ({ sourceName: 'in.srt', now: RationalTime.now(1000), report: (finding) => warnings.push(formatFinding(finding)), ...extra });

async function loadAll(path: string, extra: Partial<LoadOptions> = {}): Promise<Annotation[]> {
  const document = await load(path, options(extra));
  const out: Annotation[] = [];
  for await (const annotation of document.annotations) out.push(annotation);
  return out;
}

const write = (name: string, content: string | Buffer): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const ms = (a: Annotation): [number, number] => {
  const { start, end } = (a.reference as { interval: TimeInterval }).interval;
  return [(start.v * 1000) / start.r, (end.v * 1000) / end.r];
};
const kept = (a: Annotation): unknown => ({ times: ms(a), text: a.body.text, coordinates: a.body.coordinates, written_end: a.body.written_end });

async function roundTrip(path: string): Promise<{ first: Annotation[]; second: Annotation[]; written: string }> {
  const store = new MemoryStore();
  await loadIntoStore(await load(path, options()), store);
  const first: Annotation[] = [];
  for await (const a of store.all()) first.push(a);
  const out = join(dir, `round-${Math.random().toString(36).slice(2)}.srt`);
  await dump(store, out, { targetName: out, warn: () => undefined });
  return { first, second: await loadAll(out), written: readFileSync(out, 'utf8') };
}

describe('the srt adapter', () => {
  it('reads a BOM, CRLF, missing numbers, "." and two-digit fractions, coordinates, tags and no final newline', async () => {
    const annotations = await loadAll(join(fixtures, 'tolerant.srt'));
    expect(annotations.map(ms)).toEqual([[1000, 2500], [3000, 4040], [5000, 6000]]);
    expect(annotations.map((a) => a.body)).toEqual([
      { text: 'Hello &amp; welcome', raw: '<i>Hello</i> &amp; welcome', sequence: 1 },
      { text: 'no number, dot, two digits', sequence: null, coordinates: 'X1:40 X2:600 Y1:20 Y2:50' },
      { text: 'two\nlines', raw: '<font color="#00ff00">two</font>\nlines', sequence: 3 },
    ]);
    expect(annotations[0].tier).toBe('subtitles');
    expect(annotations[0].provenance.was_generated_by).toBe('adapter:srt');
    for (const a of annotations) expect(validateBody(a.body_schema_uri, a.body).errors).toEqual([]);
  });

  it('reads UTF-16 in either byte order and bare CR line breaks', async () => {
    const text = '1\r00:00:01,000 --> 00:00:02,000\rone\r\r2\r00:00:02,000 --> 00:00:03,000\rtwo\r';
    const le = write('le.srt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const be = write('be.srt', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]));
    for (const path of [le, be]) expect((await loadAll(path)).map((a) => a.body.text)).toEqual(['one', 'two']);
  });

  it('starts a new cue at a timing line even without a blank line before it', async () => {
    const annotations = await loadAll(write('run-on.srt', '1\n00:00:01,000 --> 00:00:02,000\none\n2\n00:00:02,000 --> 00:00:03,000\ntwo\n'));
    // The second cue keeps that it had no blank line before it, so the file is written back as it was.
    expect(annotations.map((a) => a.body)).toEqual([{ text: 'one', sequence: 1 }, { text: 'two', sequence: 2, blank_lines_before: 0 }]);
  });

  it('skips a block without a timing line with a warning, and rejects a file with no cue at all', async () => {
    warnings.length = 0;
    const annotations = await loadAll(write('gap.srt', '1\nno timing here\n\n2\n00:00:02,000 --> 00:00:03,000\ntwo\n'));
    expect(annotations.map((a) => a.body.text)).toEqual(['two']);
    expect(warnings.join("\n")).toMatch(/in\.srt:1:1: warning: block dropped: it has no timing line like "00:00:01,000 --> 00:00:02,000" \(it starts "1"\) \[block_dropped\]/);
    await expect(loadAll(write('junk.srt', 'hello\nworld\n'))).rejects.toThrow(/^in\.srt:1:1: expected a sequence number or a timing line/);
  });

  it('keeps a cue that ends before it starts as a point with the written end, and writes it back', async () => {
    const path = write('negative.srt', '1\n00:00:05,000 --> 00:00:04,000\nbackwards\n');
    const [annotation] = await loadAll(path);
    expect(ms(annotation)).toEqual([5000, 5000]);
    expect(annotation.body.written_end).toBe('00:00:04,000');
    expect((await roundTrip(path)).written).toBe('1\n00:00:05,000 --> 00:00:04,000\nbackwards\n');
  });

  it('writes numbered cues in time order with comma milliseconds, laid out as the source was (its BOM, CRLF, no final newline)', async () => {
    const { written } = await roundTrip(join(fixtures, 'tolerant.srt'));
    const cues = '1\n00:00:01,000 --> 00:00:02,500\n<i>Hello</i> &amp; welcome\n\n2\n00:00:03,000 --> 00:00:04,040 X1:40 X2:600 Y1:20 Y2:50\nno number, dot, two digits\n\n3\n00:00:05,000 --> 00:00:06,000\n<font color="#00ff00">two</font>\nlines';
    expect(written).toBe(`\ufeff${cues.replaceAll('\n', '\r\n')}`);
  });

  it('sniffs SRT by its first timing line', () => {
    expect(srtFormat.sniff(Buffer.from('1\n00:00:01,000 --> 00:00:02,000\nx\n'))).toBe(true);
    expect(srtFormat.sniff(Buffer.from('WEBVTT\n'))).toBe(false);
  });

  it('round-trips times, text and coordinates of random stores exactly (property)', async () => {
    const line = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim().length > 0 && !/[\r\n]/.test(s) && !/^\s*\d+\s*$/.test(s) && !s.includes('>') && !s.startsWith('\ufeff'));
    const cue = fc.record({
      start: fc.integer({ min: 0, max: 10_000_000 }),
      length: fc.integer({ min: 0, max: 100_000 }),
      text: fc.array(line, { maxLength: 3 }).map((lines) => lines.join('\n')),
      coordinates: fc.option(fc.constantFrom('X1:1 X2:2 Y1:3 Y2:4', 'X1:40'), { nil: undefined }),
    });
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(cue, { maxLength: 8 }), async (cues) => {
        const store = new MemoryStore();
        await store.addTier(makeTier({ name: 'subtitles' }));
        const now = RationalTime.now(1000);
        const sorted = [...cues].sort((a, b) => a.start - b.start);
        await store.addMany(sorted.map((c) => makeAnnotation({ tier: 'subtitles', reference: mediaRef('x', new TimeInterval(new RationalTime(c.start, 1000), new RationalTime(c.start + c.length, 1000))), body: { text: c.text, sequence: null, ...(c.coordinates ? { coordinates: c.coordinates } : {}) }, body_schema_uri: 'annot://schema/srt-cue/v1', provenance: { was_generated_by: 'user:t', generated_at_time: now } })));
        const out = join(dir, `prop-${round++}.srt`);
        await dump(store, out, { targetName: out, warn: () => undefined });
        const back = await loadAll(out);
        expect(back.map((a) => ({ times: ms(a), text: a.body.text, coordinates: a.body.coordinates }))).toEqual(sorted.map((c) => ({ times: [c.start, c.start + c.length], text: c.text, coordinates: c.coordinates })));
      }),
      { numRuns: 60 },
    );
  });
});

/** Corpus files that are rejected, and why. None: every file there has at least one readable cue. */
const REJECTED: Record<string, RegExp> = {};

describe('the srt adapter on the other tools\' files (fixtures/corpus)', () => {
  const files = readdirSync(corpus).filter((name) => name.endsWith('.srt'));
  it.each(files)('loads %s (or rejects it for the reason in the table), and a dump of it loads back the same', async (name) => {
    const path = join(corpus, name);
    if (REJECTED[name]) {
      await expect(loadAll(path)).rejects.toThrow(REJECTED[name]);
      return;
    }
    const { first, second } = await roundTrip(path);
    expect(first.length).toBeGreaterThan(0);
    expect(second.map(kept)).toEqual(first.map(kept));
  });

  it('reads the UTF-16 copy of a file as the UTF-8 original', async () => {
    expect((await loadAll(join(corpus, 'astisub_example-in_utf16le.srt'))).map(kept)).toEqual((await loadAll(join(corpus, 'astisub_example-in_lenient.srt'))).map(kept));
  });
});

import { formatFinding } from '../../src/adapters/finding.js';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { LoadOptions } from '../../src/adapters/adapter.js';
import { FormatParseError } from '../../src/adapters/errors.js';
import { loadIntoStore } from '../../src/adapters/load-into-store.js';
import { dump, load } from '../../src/adapters/webvtt/codec.js';
import { webvttFormat } from '../../src/adapters/webvtt/format.js';
import { putSettings, type WebVttCueBody } from '../../src/adapters/webvtt/cue-body.js';
import { webVttPayloadOf, webVttPlainText, webVttVoice } from '../../src/adapters/webvtt/cue-text.js';
import { formatCueSettings, parseCueSettings } from '../../src/adapters/webvtt/cue-settings.js';
import { WebVttParser, type WebVttCue } from '../../src/adapters/webvtt/parser.js';
import { LineBreakNormalizer } from '../../src/adapters/text-lines.js';
import { formatTimestamp, parseTimestamp } from '../../src/adapters/webvtt/timestamp.js';
import { makeAnnotation, mediaRef, reviseAnnotation, type Annotation } from '../../src/model/annotation.js';
import { makeTier } from '../../src/model/tier.js';
import { validateBody } from '../../src/schemas/registry.js';
import { MemoryStore } from '../../src/store/memory.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';

const corpus = join(process.cwd(), 'fixtures', 'corpus', 'webvtt');
// The WPT file-parsing inputs live in fixtures/webvtt (their own test reads them there).
const wptFileParsing = join(process.cwd(), 'fixtures', 'webvtt', 'wpt-file-parsing');
const fixtures = join(process.cwd(), 'fixtures', 'webvtt');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'annot-webvtt-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const warnings: string[] = [];
const options = (extra: Partial<LoadOptions> = {}): LoadOptions => ({ sourceName: 'in.vtt', now: RationalTime.now(1000), report: (finding) => warnings.push(formatFinding(finding)), ...extra });

async function loadAll(path: string, extra: Partial<LoadOptions> = {}): Promise<{ annotations: Annotation[]; meta: Record<string, string>; tiers: string[] }> {
  const document = await load(path, options(extra));
  const annotations: Annotation[] = [];
  for await (const annotation of document.annotations) annotations.push(annotation);
  return { annotations, meta: { ...document.meta }, tiers: document.tiers.map((tier) => tier.name) };
}

function write(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const ms = (annotation: Annotation): [number, number] => {
  const { start, end } = (annotation.reference as { interval: TimeInterval }).interval;
  return [(start.v * 1000) / start.r, (end.v * 1000) / end.r];
};

async function roundTrip(path: string): Promise<{ first: Annotation[]; second: Annotation[]; written: string }> {
  const store = new MemoryStore();
  await loadIntoStore(await load(path, options()), store);
  const first = [];
  for await (const a of store.all()) first.push(a);
  const out = join(dir, `round-${Math.random().toString(36).slice(2)}.vtt`);
  await dump(store, out, { targetName: out, warn: () => undefined });
  const second = (await loadAll(out)).annotations;
  return { first, second, written: readFileSync(out, 'utf8') };
}

const kept = (a: Annotation): unknown => ({ times: ms(a), body: a.body });

describe('the webvtt adapter', () => {
  it('loads cues with ids, settings, tags, exact millisecond times and a tier named cues', async () => {
    const { annotations, tiers, meta } = await loadAll(join(fixtures, 'features.vtt'));
    expect(tiers).toEqual(['cues']);
    expect(annotations.map(ms)).toEqual([[0, 1500], [1500, 3000], [5000, 5000]]);
    // Its timestamps are written without hours, unlike the file's others: kept so it is written back so.
    expect(annotations[0].body).toEqual({ text: 'We are in New York City', id: 'intro', speaker: 'Roger Bingham', align: 'start', region: 'top', written_hours: 'none' });
    expect(annotations[1].body).toEqual({ text: 'two lines\nof text', raw: '<c.yellow>two</c> lines\nof text', id: '' });
    expect(JSON.parse(meta['webvtt.regions'])).toEqual([{ id: 'top', width: 40, lines: 3, region_anchor: [0, 100], viewport_anchor: [0, 100], scroll: '' }]);
    expect(annotations[0].provenance.was_generated_by).toBe('adapter:webvtt');
    expect(annotations[0].reference).toMatchObject({ asset_id: 'webvtt:unspecified' });
    const preamble = JSON.parse(meta['webvtt.preamble']);
    expect(preamble).toEqual({
      signature_text: '- a fixture',
      header: ['Kind: captions'],
      blocks: [
        { kind: 'STYLE', text: '::cue(.yellow) { color: yellow; }' },
        { kind: 'REGION', text: 'id:top\nwidth:40%' },
        { kind: 'NOTE', text: 'NOTE written by hand for the annot tests' },
      ],
    });
    for (const annotation of annotations) expect(validateBody(annotation.body_schema_uri, annotation.body).errors).toEqual([]);
  });

  it('keeps a cue whose end precedes its start as a point at its start, with the written end in the body', async () => {
    const { annotations } = await loadAll(join(fixtures, 'features.vtt'));
    expect(annotations[2].body).toEqual({ text: 'ends before it starts', id: '2', line: 90, snap_to_lines: false, written_end: '00:00:04.000', notes_before: ['NOTE between cues'] });
    const { second, written } = await roundTrip(join(fixtures, 'features.vtt'));
    expect(written).toContain('2\n00:00:05.000 --> 00:00:04.000 line:90%\nends before it starts');
    expect(second.map(kept)).toEqual(annotations.map(kept));
  });

  it('writes the header, styles, regions and notes back before the first cue', async () => {
    const { written } = await roundTrip(join(fixtures, 'features.vtt'));
    expect(written.startsWith('WEBVTT - a fixture\nKind: captions\n\nSTYLE\n::cue(.yellow) { color: yellow; }\n\nREGION\nid:top\nwidth:40%\n\nNOTE written by hand for the annot tests\n\nintro\n00:00.000 --> 00:01.500 align:start region:top\n')).toBe(true);
  });

  it('honours --tier, --asset-id and --rate (exact when the rate allows, quantized and counted when not)', async () => {
    const path = join(fixtures, 'features.vtt');
    const at48k = await loadAll(path, { tier: 'captions', assetId: 'sha256:abc', rate: 48000 });
    expect(at48k.tiers).toEqual(['captions']);
    expect(at48k.annotations[0].reference).toMatchObject({ asset_id: 'sha256:abc', interval: { end: { v: 72000, r: 48000 } } });
    const document = await load(path, options({ rate: 3 }));
    for await (const annotation of document.annotations) void annotation;
    expect(document.quantization().count).toBe(2); // 1.5 s (an end and a start) would be 4.5 ticks at rate 3
    await expect(async () => {
      const strict = await load(path, options({ rate: 3, strictTime: true }));
      for await (const annotation of strict.annotations) void annotation;
    }).rejects.toThrow(/not a whole number of ticks at rate 3/);
  });

  it('reads UTF-16 with a byte-order mark, CR and CRLF line breaks, NUL and a missing final newline', async () => {
    const text = 'WEBVTT\r\n\r\nid\u0000\r00:01.000 --> 00:02.000\r\nline one\rline two';
    const le = write('le.vtt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const be = write('be.vtt', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]));
    for (const path of [le, be]) {
      const { annotations } = await loadAll(path);
      expect(annotations.map((a) => a.body)).toEqual([{ text: 'line one\nline two', id: 'id\ufffd' }]);
    }
  });

  it('reads the plain text, and keeps voice and class spans, karaoke timestamps and entities beside it as written', async () => {
    const path = write('spans.vtt', 'WEBVTT\n\n00:00.000 --> 00:05.000\n<v.loud Joe>Hi &amp; <00:00:01.000><c.red>bye</c></v>\n');
    expect((await loadAll(path)).annotations[0].body).toEqual({ text: 'Hi & bye', raw: '<v.loud Joe>Hi &amp; <00:00:01.000><c.red>bye</c></v>', id: '', speaker: 'Joe' });
  });

  it('rejects a file without the WEBVTT signature with a FormatParseError naming file, line and column', async () => {
    await expect(load(write('bad.vtt', 'WEBVTTX\n\n00:00.000 --> 00:01.000\nx\n'), options())).rejects.toThrow(/^in\.vtt:1:7: expected a space, a tab or a line break after "WEBVTT"/);
    await expect(load(write('srt.vtt', '1\n00:00:01,000 --> 00:00:02,000\nx\n'), options())).rejects.toBeInstanceOf(FormatParseError);
    await expect(load(write('empty.vtt', ''), options())).rejects.toThrow(/in\.vtt:1:1: expected the WebVTT signature "WEBVTT" on the first line, found an empty file/);
  });

  it('warns about blocks with a malformed timing line, which it skips as players do', async () => {
    warnings.length = 0;
    const { annotations } = await loadAll(write('skip.vtt', 'WEBVTT\n\n00:00.000 --> 00:01\nlost\n\n00:01.000 --> 00:02.000\nkept\n'));
    expect(annotations.map((a) => a.body.text)).toEqual(['kept']);
    expect(warnings.join('\n')).toMatch(/in\.vtt:3:1: warning: block dropped: its "-->" line is not a valid cue timing.*\[block_dropped\]/);
  });

  it('writes one tier when asked, else merges every tier in time order and reports what it drops', async () => {
    const store = new MemoryStore();
    await store.addTier(makeTier({ name: 'a' }));
    await store.addTier(makeTier({ name: 'b' }));
    const now = RationalTime.now(1000);
    const add = (tier: string, start: number, end: number, text: string, confidence: number | null = null): Annotation =>
      makeAnnotation({ tier, reference: mediaRef('x', TimeInterval.fromSeconds(start, end, 1000)), body: { text, speaker: 'S' }, body_schema_uri: 'annot://schema/label/v1', provenance: { was_generated_by: 'user:t', generated_at_time: now }, confidence });
    await store.addMany([add('b', 2, 3, 'late'), add('a', 0, 1, 'early', 0.5), add('a', 1, 2, 'blank\n\nline --> here')]);
    const all = join(dir, 'merged.vtt');
    const report = await dump(store, all, { targetName: all, warn: () => undefined });
    // The speaker of a body without a voice span becomes one (as an EAF participant comes back).
    expect(readFileSync(all, 'utf8')).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n<v S>early\n\n00:00:01.000 --> 00:00:02.000\n<v S>blank\nline --&gt; here\n\n00:00:02.000 --> 00:00:03.000\n<v S>late\n\n');
    expect(report.dropped).toEqual(expect.arrayContaining([
      { what: 'provenance', count: 3 },
      { what: 'confidence', count: 1 },
      { what: 'tier names (tiers merged into one track)', count: 2 },
      { what: 'cue text changed to stay valid WebVTT (blank lines removed, "-->" escaped)', count: 1 },
    ]));
    const one = join(dir, 'one.vtt');
    const oneReport = await dump(store, one, { targetName: one, tier: 'b', warn: () => undefined });
    expect((await loadAll(one)).annotations.map((a) => [a.body.text, a.body.speaker])).toEqual([['late', 'S']]);
    expect(oneReport.dropped).toEqual(expect.arrayContaining([{ what: 'annotations on other tiers', count: 2 }]));
    await expect(dump(store, one, { targetName: one, tier: 'nope', warn: () => undefined })).rejects.toThrow(/tier "nope" is not in the store; known tiers: a, b/);
  });

  it('writes typed settings: the text as written while it says the same, the typed fields once they were changed', async () => {
    const path = write('typed.vtt', 'WEBVTT\n\nREGION\nid:r1\nwidth:50%\n\n00:00.000 --> 00:01.000 align:start position:10%,line-left align:end region:r1\none\n\n00:01.000 --> 00:02.000 region:nope line:-1 size:40%\ntwo\n');
    const store = new MemoryStore();
    await loadIntoStore(await load(path, options()), store);
    const [first, second] = await (async () => {
      const all: Annotation[] = [];
      for await (const a of store.all()) all.push(a);
      return all;
    })();
    // Later duplicates win; a region the file does not define is dropped; a line setting clears the region.
    expect(first.body).toEqual({ text: 'one', id: '', align: 'end', position: 10, position_align: 'line-left', region: 'r1', settings: 'align:start position:10%,line-left align:end region:r1' });
    expect(second.body).toEqual({ text: 'two', id: '', line: -1, snap_to_lines: true, size: 40, settings: 'region:nope line:-1 size:40%' });
    const out = join(dir, 'typed-out.vtt');
    await dump(store, out, { targetName: out, warn: () => undefined });
    // The file writes its timestamps without hours: so are they written back.
    expect(readFileSync(out, 'utf8')).toContain('00:00.000 --> 00:01.000 align:start position:10%,line-left align:end region:r1\n');
    await store.update(reviseAnnotation(first, { body: { ...first.body, align: 'start', size: 50 } }));
    await dump(store, out, { targetName: out, warn: () => undefined });
    expect(readFileSync(out, 'utf8')).toContain('00:00.000 --> 00:01.000 position:10%,line-left size:50% align:start region:r1\n');
  });

  it('writes the regions kept in metadata as REGION blocks, also for a store that has no WebVTT preamble', async () => {
    const store = new MemoryStore();
    await store.addTier(makeTier({ name: 'cues' }));
    await store.setMeta('webvtt.regions', JSON.stringify([{ id: 'left', width: 30, lines: 2, region_anchor: [0, 100], viewport_anchor: [5, 95], scroll: 'up' }]));
    const now = RationalTime.now(1000);
    await store.addMany([makeAnnotation({ tier: 'cues', reference: mediaRef('x', TimeInterval.fromSeconds(0, 1, 1000)), body: { text: 'hi', id: '', region: 'left' }, body_schema_uri: 'annot://schema/webvtt-cue/v1', provenance: { was_generated_by: 'user:t', generated_at_time: now } })]);
    const out = join(dir, 'regions-out.vtt');
    await dump(store, out, { targetName: out, warn: () => undefined });
    expect(readFileSync(out, 'utf8')).toBe('WEBVTT\n\nREGION\nid:left\nwidth:30%\nlines:2\nregionanchor:0%,100%\nviewportanchor:5%,95%\nscroll:up\n\n00:00:00.000 --> 00:00:01.000 region:left\nhi\n\n');
    const back = await loadAll(out);
    expect(back.annotations[0].body).toEqual({ text: 'hi', id: '', region: 'left' });
    expect(JSON.parse(back.meta['webvtt.regions'])).toEqual([{ id: 'left', width: 30, lines: 2, region_anchor: [0, 100], viewport_anchor: [5, 95], scroll: 'up' }]);
  });

  it('sniffs WebVTT by its signature, also behind a byte-order mark', () => {
    expect(webvttFormat.sniff(Buffer.from('WEBVTT\n\n'))).toBe(true);
    expect(webvttFormat.sniff(Buffer.from('\ufeffWEBVTT - x\n'))).toBe(true);
    expect(webvttFormat.sniff(Buffer.from('1\n00:00:01,000 --> 00:00:02,000\n'))).toBe(false);
  });

  it('gives the same cues however the file is cut into chunks, CRLF pairs split between chunks included (property)', () => {
    const text = readFileSync(join(fixtures, 'features.vtt'), 'utf8').replaceAll('\n', '\r\n') + 'x\r\n\r\n00:09.000 --> 00:10.000\r\nlast\u0000';
    const parse = (chunks: string[]): WebVttCue[] => {
      const cues: WebVttCue[] = [];
      const parser = new WebVttParser({ cue: (cue) => cues.push(cue), block: () => undefined, skipped: () => undefined });
      const breaks = new LineBreakNormalizer();
      for (const chunk of chunks) parser.pushText(breaks.push(chunk));
      parser.end();
      return cues;
    };
    const whole = parse([text]);
    expect(whole.map((cue) => cue.text)).toEqual(['<v Roger Bingham>We are in New York City', '<c.yellow>two</c> lines\nof text', 'ends before it starts\nx', 'last\ufffd']);
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: text.length - 1 }), { maxLength: 12 }), (cuts) => {
        const points = [0, ...[...cuts].sort((a, b) => a - b), text.length];
        const chunks = points.slice(1).map((end, i) => text.slice(points[i], end));
        expect(parse(chunks)).toEqual(whole);
      }),
      { numRuns: 200 },
    );
  });

  it('prints and parses timestamps as inverses, hours optional on input', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 400 * 3600 * 1000 }), (value) => parseTimestamp(formatTimestamp(value)) === value));
    expect(parseTimestamp('01:02.003')).toBe(62003);
    expect(parseTimestamp('1:02.003')).toBeNull();
  });

  it('round-trips ids, settings, text and times of random stores exactly, settings typed by the W3C rules (property)', async () => {
    const line = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !/[\r\n\0]|-->/.test(s) && s !== '\ufeff');
    const cue = fc.record({
      start: fc.integer({ min: 0, max: 10_000_000 }),
      length: fc.integer({ min: 0, max: 100_000 }),
      id: fc.oneof(fc.constant(''), line),
      settings: fc.array(fc.tuple(fc.constantFrom('align', 'line', 'position', 'size', 'region', 'vertical'), fc.stringMatching(/^[a-z0-9%.,-]{1,6}$/)), { maxLength: 3 }).map((pairs) => pairs.map(([k, v]) => `${k}:${v}`).join(' ')),
      text: fc.array(line, { maxLength: 3 }).map((lines) => lines.join('\n')),
    });
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(cue, { maxLength: 8 }), async (cues) => {
        const store = new MemoryStore();
        await store.addTier(makeTier({ name: 'cues' }));
        const now = RationalTime.now(1000);
        const sorted = [...cues].sort((a, b) => a.start - b.start || a.length - b.length);
        await store.addMany(sorted.map((c) => makeAnnotation({ tier: 'cues', reference: mediaRef('x', new TimeInterval(new RationalTime(c.start, 1000), new RationalTime(c.start + c.length, 1000))), body: { text: c.text, id: c.id, settings: c.settings }, body_schema_uri: 'annot://schema/webvtt-cue/v1', provenance: { was_generated_by: 'user:t', generated_at_time: now } })));
        const out = join(dir, `prop-${round++}.vtt`);
        await dump(store, out, { targetName: out, warn: () => undefined });
        const back = (await loadAll(out)).annotations;
        expect(back.map((a) => ({ times: ms(a), body: a.body }))).toEqual(sorted.map((c) => ({ times: [c.start, c.start + c.length], body: readBody(c) })));
        // Written again from the typed bodies, the file reads back the same.
        const store2 = new MemoryStore();
        await loadIntoStore(await load(out, options()), store2);
        const again = join(dir, `prop-${round++}.vtt`);
        await dump(store2, again, { targetName: again, warn: () => undefined });
        expect(readFileSync(again, 'utf8')).toBe(readFileSync(out, 'utf8'));
      }),
      { numRuns: 60 },
    );
  });
});

/** The body the reader gives a cue written with these settings (no regions defined): typed fields, the text as written only when needed. */
function readBody(c: { text: string; id: string; settings: string }): Record<string, unknown> {
  const text = webVttPlainText(c.text);
  const speaker = webVttVoice(c.text);
  const body: WebVttCueBody = webVttPayloadOf(text, speaker) === c.text ? { text, id: c.id } : { text, raw: c.text, id: c.id };
  if (speaker !== null) body.speaker = speaker;
  const typed = parseCueSettings(c.settings, () => false);
  putSettings(body, typed);
  if (c.settings.length > 0 && formatCueSettings(typed) !== c.settings) body.settings = c.settings;
  return body as unknown as Record<string, unknown>;
}

/** Corpus files that are rejected, and why: each is genuinely not WebVTT. */
const REJECTED: Record<string, RegExp> = {
  'webvttpy_empty_0_bytes.vtt': /expected the WebVTT signature "WEBVTT" on the first line, found an empty file/,
};

describe('the webvtt adapter on the other tools\' files (fixtures/corpus)', () => {
  const files = readdirSync(corpus).filter((name) => name.endsWith('.vtt'));
  const wpt = readdirSync(wptFileParsing).filter((name) => name.endsWith('.vtt')).map((name) => join('..', '..', 'webvtt', 'wpt-file-parsing', name));
  const cueText = readdirSync(join(corpus, 'wpt-cue-text-parsing')).filter((name) => name.endsWith('.vtt')).map((name) => join('wpt-cue-text-parsing', name));

  it.each([...files, ...wpt, ...cueText])('loads %s (or rejects it for the reason in the table), and a dump of it loads back the same', async (name) => {
    const path = join(corpus, name);
    if (REJECTED[name]) {
      await expect(load(path, options({ sourceName: name }))).rejects.toThrow(REJECTED[name]);
      return;
    }
    const { first, second } = await roundTrip(path);
    expect(second.map(kept)).toEqual(first.map(kept));
  });

  it('reads the 1,346 cues of the acid test and the UTF-16 and CR-only files', async () => {
    expect((await loadAll(join(corpus, 'nodewebvtt_acid_large.vtt'))).annotations.length).toBeGreaterThan(1000);
    const utf16 = await loadAll(join(corpus, 'astisub_example-in_utf16le.vtt'));
    const utf8 = await loadAll(join(corpus, 'astisub_example-in_lenient.vtt'));
    expect(utf16.annotations.map(kept)).toEqual(utf8.annotations.map(kept));
    expect((await loadAll(join(corpus, 'astisub_example-in_cr_line_endings.vtt'))).annotations.length).toBeGreaterThan(0);
  });
});

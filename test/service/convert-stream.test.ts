import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/sample-annot.js';
import { convertOutcome, FIXTURES, fixturesMatching, itStreamsAsTheWholeDocument } from './streamed-vs-whole.js';

/**
 * A conversion that streams (SRT and WebVTT to one another, see convert-stream.ts) must write
 * exactly what the whole-document path writes, report the same losses and findings, and fail
 * the same way. Every SRT, WebVTT and TextGrid fixture is converted to every text format both
 * ways and the results compared byte for byte.
 */

const root = FIXTURES;
const convert = convertOutcome;

const SOURCES = [...fixturesMatching('srt', /\.srt$/i), ...fixturesMatching('webvtt', /\.vtt$/i), ...fixturesMatching('textgrid', /\.textgrid$/i)];
const TARGETS = ['srt', 'vtt', 'TextGrid'];

describe('conversion that streams', () => {
  const { dir, cleanup } = tempDir('annot-convert-stream-');
  afterAll(cleanup);

  it('has fixtures to compare', () => {
    expect(SOURCES.filter((path) => path.endsWith('.srt')).length).toBeGreaterThan(5);
    expect(SOURCES.filter((path) => path.endsWith('.vtt')).length).toBeGreaterThan(30);
    expect(SOURCES.filter((path) => path.toLowerCase().endsWith('.textgrid')).length).toBeGreaterThan(5);
  });

  itStreamsAsTheWholeDocument(SOURCES, TARGETS, () => dir);
  let case_ = 0;

  // `.annot` files made from the fixtures, read back to each text format in one pass (or two, for TextGrid).
  for (const source of SOURCES) {
    it(`${source.slice(root.length + 1)} → .annot → srt, vtt, TextGrid: the same bytes and report as the whole-document path`, async () => {
      const n = case_++;
      const annot = join(dir, `a${n}.annot`);
      const made = await convert(source, annot, false);
      if (made.error !== null) return; // a file no path reads
      for (const target of TARGETS) {
        const streamed = await convert(annot, join(dir, `as${n}.${target}`), true);
        const whole = await convert(annot, join(dir, `aw${n}.${target}`), false);
        expect(streamed.error).toEqual(whole.error);
        expect(streamed.warnings).toEqual(whole.warnings);
        expect(streamed.report).toEqual(whole.report);
        expect(streamed.bytes?.equals(whole.bytes as Buffer)).toBe(true);
      }
    });
  }

  it('writes cues that arrive out of time order sorted, as the whole-document path does, printing each finding once', async () => {
    const input = join(dir, 'shuffled.srt');
    writeFileSync(input, '1\n00:00:05,000 --> 00:00:06,000\nthird\n\n2\n00:00:01,000 --> 00:00:02,000\nfirst\n\n3\n00:00:03,000 --> 00:00:04,000\nsecond\n');
    const streamed = await convert(input, join(dir, 'shuffled-s.vtt'), true);
    const whole = await convert(input, join(dir, 'shuffled-w.vtt'), false);
    expect(streamed.findings.map((finding) => finding.code)).toEqual(['cues_out_of_order']);
    expect(streamed.findings).toEqual(whole.findings);
    expect(streamed.report).toEqual(whole.report);
    expect(streamed.bytes?.toString('utf8')).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nfirst\n\n00:00:03.000 --> 00:00:04.000\nsecond\n\n00:00:05.000 --> 00:00:06.000\nthird\n\n');
    expect(streamed.bytes?.equals(whole.bytes as Buffer)).toBe(true);
    // The same file kept in a .annot (in file order) and written back to text formats.
    const annot = join(dir, 'shuffled.annot');
    await convert(input, annot, false);
    for (const target of TARGETS) {
      const fromAnnot = await convert(annot, join(dir, `shuffled-as.${target}`), true);
      const fromAnnotWhole = await convert(annot, join(dir, `shuffled-aw.${target}`), false);
      expect(fromAnnot.report).toEqual(fromAnnotWhole.report);
      expect(fromAnnot.bytes?.equals(fromAnnotWhole.bytes as Buffer)).toBe(true);
    }
  });

  it('into TextGrid, cues that overlap, touch, leave gaps or are points come out as the whole-document path writes them', async () => {
    const input = join(dir, 'lanes.srt');
    writeFileSync(
      input,
      '1\n00:00:01,000 --> 00:00:03,000\nA\n\n2\n00:00:02,000 --> 00:00:04,000\nB overlaps A\n\n3\n00:00:04,000 --> 00:00:04,000\nC is a point\n\n4\n00:00:01,500 --> 00:00:02,000\nD is early\n',
    );
    for (const variant of ['long', 'short']) {
      const streamed = await convert(input, join(dir, `lanes-s-${variant}.TextGrid`), true, { variant });
      const whole = await convert(input, join(dir, `lanes-w-${variant}.TextGrid`), false, { variant });
      expect(streamed.findings).toEqual(whole.findings);
      expect(streamed.report).toEqual(whole.report);
      expect(streamed.bytes?.equals(whole.bytes as Buffer)).toBe(true);
    }
    const gaps = join(dir, 'gaps.vtt');
    writeFileSync(gaps, 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\none\n\n00:00:02.000 --> 00:00:03.000\ntouching\n\n00:00:05.000 --> 00:00:06.500 align:start\nafter a gap\n');
    const streamed = await convert(gaps, join(dir, 'gaps-s.TextGrid'), true);
    const whole = await convert(gaps, join(dir, 'gaps-w.TextGrid'), false);
    expect(streamed.report).toEqual(whole.report);
    expect(streamed.bytes?.toString('utf8')).toContain('intervals: size = 5 ');
    expect(streamed.bytes?.equals(whole.bytes as Buffer)).toBe(true);
  });

  it('a TextGrid of several tiers is written to subtitles with its tiers merged in time order, as the whole-document path sorts them', async () => {
    const grid = (points: string): string =>
      `File type = "ooTextFile"\nObject class = "TextGrid"\n0 4 <exists> 3\n"IntervalTier" "words" 0 4 3 0 1 "one" 1 2.5 "two" 2.5 4 "three"\n"TextTier" "marks" 0 4 3 ${points}\n"IntervalTier" "other" 0 4 2 0 2 "left" 2 4 "right"\n`;
    for (const [name, points] of [
      ['sorted.TextGrid', '0.5 "a" 1 "b" 3.25 "c"'],
      ['unsorted.TextGrid', '3.25 "c" 0.5 "a" 1 "b"'],
    ]) {
      const input = join(dir, name);
      writeFileSync(input, grid(points));
      for (const target of ['srt', 'vtt']) {
        const streamed = await convert(input, join(dir, `${name}-s.${target}`), true);
        const whole = await convert(input, join(dir, `${name}-w.${target}`), false);
        expect(streamed.error).toBeNull();
        expect(streamed.findings).toEqual(whole.findings);
        expect(streamed.report).toEqual(whole.report);
        expect(streamed.bytes?.equals(whole.bytes as Buffer)).toBe(true);
        const only = await convert(input, join(dir, `${name}-tier-s.${target}`), true, { tier: 'words' });
        const onlyWhole = await convert(input, join(dir, `${name}-tier-w.${target}`), false, { tier: 'words' });
        expect(only.report).toEqual(onlyWhole.report);
        expect(only.bytes?.equals(onlyWhole.bytes as Buffer)).toBe(true);
      }
    }
  });

  it('under --strict, fails after printing the findings and leaves no output file behind', async () => {
    const input = join(root, 'srt', 'other-tools', 'webvttpy_missing_timeframe.srt');
    const output = join(dir, 'strict.vtt');
    const streamed = await convert(input, output, true, { strict: true });
    expect(streamed.error).toMatch(/^ANNOT_STRICT_FINDINGS .*nothing was written/);
    expect(streamed.findings.length).toBeGreaterThan(0);
    expect(streamed.bytes).toBeNull();
    expect(readdirSync(dir).filter((name) => name.includes('strict.vtt'))).toEqual([]);
    expect(streamed).toEqual({ ...(await convert(input, output, false, { strict: true })) });
  });

  it('keeps --tier: the tier named on import is the tier written', async () => {
    const input = join(root, 'webvtt', 'features.vtt');
    const streamed = await convert(input, join(dir, 'tier-s.srt'), true, { tier: 'speech' });
    const whole = await convert(input, join(dir, 'tier-w.srt'), false, { tier: 'speech' });
    expect(streamed.error).toBeNull();
    expect(streamed.report).toEqual(whole.report);
    expect(streamed.bytes?.equals(whole.bytes as Buffer)).toBe(true);
  });

  it('a reader error names the file and line, and leaves no output', async () => {
    const input = join(dir, 'garbage.srt');
    writeFileSync(input, 'this is not\na subtitle file\n');
    const output = join(dir, 'garbage.vtt');
    const streamed = await convert(input, output, true);
    expect(streamed.error).toBe(`ANNOT_FORMAT_PARSE ${input}:1:1: expected a sequence number or a timing line like "00:00:01,000 --> 00:00:02,000", found "this is not"`);
    expect(streamed.bytes).toBeNull();
    expect(readdirSync(dir).filter((name) => name.includes('garbage.vtt'))).toEqual([]);
  });
});

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';
import { FIXTURES } from '../service/streamed-vs-whole.js';

/**
 * `annot convert --shift/--fps-from/--fps-to/--scale/--sync/--within` (issue 35) through the
 * built CLI, in real child processes: every format moves by exactly the shift, the rules at 0 s
 * and at the edges of --within, the refusals of --strict and --strict-time (exit non-zero, the
 * old output left as it was), one-line errors naming the flag, and the batch form.
 */

interface Interval {
  readonly start: { v: number; r: number };
  readonly end: { v: number; r: number };
}

/** The intervals of every media annotation in a file, in the order `annot query` lists them. */
async function intervalsOf(path: string, from?: string): Promise<Interval[]> {
  const result = await runCli(['query', path, ...(from ? ['--from', from] : [])]);
  expect(result.stderr).not.toMatch(/\[ANNOT_/);
  expect(result.code).toBe(0);
  return result.stdout
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { reference: { kind: string; interval?: Interval } })
    .filter((annotation) => annotation.reference.kind === 'media')
    .map((annotation) => annotation.reference.interval as Interval);
}

/** `a - b` in seconds equals `seconds` exactly (rational arithmetic on {v, r}). */
function differsBy(a: { v: number; r: number }, b: { v: number; r: number }, seconds: bigint): boolean {
  return BigInt(a.v) * BigInt(b.r) - BigInt(b.v) * BigInt(a.r) === seconds * BigInt(a.r) * BigInt(b.r);
}

const srt = (cues: Array<[string, string, string]>): string => cues.map(([start, end, text], i) => `${i + 1}\n${start} --> ${end}\n${text}\n`).join('\n');

describe('annot convert: retiming', () => {
  const { dir, cleanup } = tempDir('annot-convert-retime-');
  afterAll(cleanup);

  // [format, fixture, output name, --from/--to when the extension does not say]
  const FORMATS: Array<[string, string, string, string?]> = [
    ['SRT', join(FIXTURES, 'srt', 'escaping.srt'), 'out.srt'],
    ['WebVTT', join(FIXTURES, 'talk.vtt'), 'out.vtt'],
    ['ASS', join(FIXTURES, 'ass', 'features.ass'), 'out.ass'],
    ['TTML', join(FIXTURES, 'ttml', 'features.ttml'), 'out.ttml'],
    ['SBV', join(FIXTURES, 'sbv', 'webvtt-py', 'sample.sbv'), 'out.sbv'],
    ['TextGrid', join(FIXTURES, 'textgrid', 'praatio_mary.TextGrid'), 'out.TextGrid'],
    ['EAF', join(FIXTURES, 'eaf', 'all-stereotypes.eaf'), 'out.eaf'],
    ['JAMS', join(FIXTURES, 'jams', 'two-chords-nan.jams'), 'out.jams'],
    ['OTIO', join(FIXTURES, 'otio', 'hand-written.otio'), 'out.otio'],
    ['Label Studio', join(FIXTURES, 'label_studio', 'audio-regions-task.json'), 'out.json', 'label_studio'],
    ['Web Annotation', join(FIXTURES, 'web_annotation', 'single.json'), 'out.json', 'web_annotation'],
    ['.annot', 'talk.annot', 'out.annot'],
  ];

  beforeAll(async () => {
    const made = await runCli(['convert', join(FIXTURES, 'talk.vtt'), join(dir, 'talk.annot')]);
    expect(made.code).toBe(0);
  });

  let n = 0;
  for (const [format, fixture, name, format_] of FORMATS) {
    it(`${format}: --shift 2 moves every annotation by exactly 2 s, read and written in the format itself`, async () => {
      const k = n++;
      const input = fixture === 'talk.annot' ? join(dir, fixture) : fixture;
      const formatFlags = format_ === undefined ? [] : ['--from', format_, '--to', format_];
      const plain = join(dir, `plain-${k}-${name}`);
      const shifted = join(dir, `shifted-${k}-${name}`);
      expect((await runCli(['convert', input, plain, ...formatFlags])).code).toBe(0);
      const result = await runCli(['convert', input, shifted, '--shift', '2', ...formatFlags]);
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(/retimed [\d,]+ annotations? \(\+2 s\)/);
      const before = await intervalsOf(plain, format_);
      const after = await intervalsOf(shifted, format_);
      expect(after.length).toBe(before.length);
      expect(before.length).toBeGreaterThan(0);
      after.forEach((interval, i) => {
        expect(differsBy(interval.start, before[i].start, 2n)).toBe(true);
        expect(differsBy(interval.end, before[i].end, 2n)).toBe(true);
      });
    });
  }

  it('a millisecond shift of an SRT file is exact: no rounding, every time moved by 1 ms', async () => {
    const input = join(dir, 'ms.srt');
    writeFileSync(input, srt([['00:00:00,001', '00:00:01,999', 'a'], ['01:59:59,998', '01:59:59,999', 'b']]));
    const result = await runCli(['convert', input, join(dir, 'ms-out.srt'), '--shift', '0.001']);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(/rounded/);
    expect(readFileSync(join(dir, 'ms-out.srt'), 'utf8')).toBe(srt([['00:00:00,002', '00:00:02,000', 'a'], ['01:59:59,999', '02:00:00,000', 'b']]));
  });

  it('--within START,END moves the annotations that start inside, whole, and leaves those that straddle in from before', async () => {
    const input = join(dir, 'within.srt');
    writeFileSync(
      input,
      srt([
        ['00:00:05,000', '00:00:12,000', 'starts before, ends inside: stays'],
        ['00:00:10,000', '00:00:15,000', 'starts at START: moves'],
        ['00:00:19,000', '00:00:21,000', 'starts inside, ends after: moves whole'],
        ['00:00:20,000', '00:00:25,000', 'starts at END: stays'],
      ]),
    );
    const output = join(dir, 'within-out.srt');
    const result = await runCli(['convert', input, output, '--within', '10,20', '--shift', '100']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('retimed 2 annotations (+100 s, within [10 s, 20 s))');
    expect(readFileSync(output, 'utf8')).toBe(
      srt([
        ['00:00:05,000', '00:00:12,000', 'starts before, ends inside: stays'],
        ['00:00:20,000', '00:00:25,000', 'starts at END: stays'],
        ['00:01:50,000', '00:01:55,000', 'starts at START: moves'],
        ['00:01:59,000', '00:02:01,000', 'starts inside, ends after: moves whole'],
      ]),
    );
    // Timecodes with SRT's comma, and SMPTE with --fps, in the window too.
    const smpte = await runCli(['convert', input, join(dir, 'within-smpte.srt'), '--within', '00:00:10:00,00:00:20:00', '--fps', '25', '--shift', '100']);
    expect(smpte.stderr).toContain('retimed 2 annotations');
    const commas = await runCli(['convert', input, join(dir, 'within-commas.srt'), '--within', '00:00:10,000,00:00:20,000', '--shift', '100']);
    expect(commas.stderr).toContain('retimed 2 annotations');
  });

  describe('before 0 s', () => {
    const cues = srt([['00:00:01,000', '00:00:02,000', 'wholly before 0 after -3 s'], ['00:00:02,000', '00:00:04,000', 'straddles 0'], ['00:00:05,000', '00:00:06,000', 'after']]);

    it('cuts an annotation that straddles 0 s to start at 0, drops one wholly before it, and says both on stderr', async () => {
      const input = join(dir, 'zero.srt');
      writeFileSync(input, cues);
      const output = join(dir, 'zero-out.srt');
      for (const shift of [['--shift', '-3'], ['--shift=-3']]) {
        const result = await runCli(['convert', input, output, ...shift]);
        expect(result.code).toBe(0);
        expect(result.stderr).toContain('warning: retime: 1 annotation moved to start before 0 s and was cut to start at 0 s');
        expect(result.stderr).toContain('warning: retime: 1 annotation moved wholly before 0 s and was dropped');
        expect(result.stderr).toContain('wrote');
        expect(result.stderr).toMatch(/2 annotations in 1 tier/);
        expect(readFileSync(output, 'utf8')).toBe(srt([['00:00:00,000', '00:00:01,000', 'straddles 0'], ['00:00:02,000', '00:00:03,000', 'after']]));
      }
    });

    it('--strict refuses either, naming the cue, and writes nothing (an existing output stays as it was)', async () => {
      const input = join(dir, 'zero-strict.srt');
      writeFileSync(input, cues);
      for (const [target, from] of [['zero-strict.vtt', 'streamed'], ['zero-strict.eaf', 'whole document'], ['zero-strict.annot', 'bulk loaded']]) {
        const output = join(dir, target);
        writeFileSync(output, 'keep me');
        const result = await runCli(['convert', input, output, '--shift', '-1.5', '--strict']);
        expect([from, result.code]).toEqual([from, 1]);
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
        expect(result.stderr).toMatch(/zero-strict\.srt:\d+: the annotation at 1–2 s would start at -0\.5 s after the retime, before 0 s; --strict refuses to cut it .*\[ANNOT_RETIME_BEFORE_ZERO\]/);
        expect(readFileSync(output, 'utf8')).toBe('keep me');
      }
      const missing = join(dir, 'zero-strict-new.srt');
      expect((await runCli(['convert', input, missing, '--shift', '-10', '--strict'])).stderr).toContain('--strict refuses to drop it');
      expect(existsSync(missing)).toBe(false);
    });
  });

  it('a frame-rate change rounds to the input\'s ticks with a count on stderr, and --strict-time refuses it', async () => {
    const input = join(dir, 'rate.srt');
    writeFileSync(input, srt([['00:00:01,000', '00:00:02,000', 'one'], ['00:00:03,003', '00:00:04,004', 'two']]));
    const output = join(dir, 'rate-out.srt');
    const rounded = await runCli(['convert', input, output, '--fps-from', '25', '--fps-to', '23.976']);
    expect(rounded.code).toBe(0);
    expect(rounded.stderr).toContain('retimed 2 annotations (×1001/960)');
    expect(rounded.stderr).toContain('warning: retime: 4 times fell between ticks after the retime and were rounded to the nearest tick (--strict-time refuses)');
    // 1000 × 1001/960 = 1042.708..., 3003 × 1001/960 = 3131.253...
    expect(readFileSync(output, 'utf8')).toContain('00:00:01,043 --> 00:00:02,085');
    writeFileSync(output, 'keep me');
    const refused = await runCli(['convert', input, output, '--fps-from', '25', '--fps-to', '23.976', '--strict-time']);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toMatch(/^annot: .*rate\.srt:\d+: the annotation at 1–2 s: its start 1 s does not map to a whole tick at rate 1000; --strict-time refuses to round it \[ANNOT_LOSSY_TIME\]$/);
    expect(readFileSync(output, 'utf8')).toBe('keep me');
    // A frame-rate change the input's rate holds (×1/2 of whole even milliseconds) is exact, with no count.
    const exact = await runCli(['convert', input, join(dir, 'rate-exact.srt'), '--fps-from', '10', '--fps-to', '20', '--strict-time']);
    expect(exact.code).toBe(1); // 3003 / 2 is not whole
    const even = join(dir, 'even.srt');
    writeFileSync(even, srt([['00:00:00,000', '00:00:00,010', 'pysubs2 test_transform_framerate'], ['00:00:01,000', '00:00:01,010', 'second']]));
    const halved = await runCli(['convert', even, join(dir, 'even-out.srt'), '--fps-from', '10', '--fps-to', '20', '--strict-time']);
    expect(halved.code).toBe(0);
    // pysubs2's own test: transform_framerate(10, 20) makes (0, 10) and (1000, 1010) into (0, 5) and (500, 505).
    expect(readFileSync(join(dir, 'even-out.srt'), 'utf8')).toBe(srt([['00:00:00,000', '00:00:00,005', 'pysubs2 test_transform_framerate'], ['00:00:00,500', '00:00:00,505', 'second']]));
  });

  it('--sync maps two points linearly', async () => {
    const input = join(dir, 'sync.srt');
    writeFileSync(input, srt([['00:00:10,000', '00:00:11,000', 'first point'], ['00:00:55,000', '00:00:56,000', 'between'], ['00:01:40,000', '00:01:41,000', 'second point']]));
    const output = join(dir, 'sync-out.srt');
    // 10 s → 12 s and 100 s → 104 s: ×92/90, +2 - 10×92/90.
    const result = await runCli(['convert', input, output, '--sync', '00:00:10,000=00:00:12,000,00:01:40,000=00:01:44,000']);
    expect(result.code).toBe(0);
    expect(readFileSync(output, 'utf8')).toBe(srt([['00:00:12,000', '00:00:13,022', 'first point'], ['00:00:58,000', '00:00:59,022', 'between'], ['00:01:44,000', '00:01:45,022', 'second point']]));
  });

  it('refuses a value it cannot read in one line naming the flag, exit 2, before reading anything', async () => {
    const input = join(dir, 'missing-input.srt'); // never read: the flags are refused first
    const cases: Array<[string[], RegExp]> = [
      [['--shift', 'soon'], /^annot: --shift: seconds "soon" is not a number/],
      [['--fps-from', '25'], /^annot: --fps-to: missing; a frame-rate change needs both --fps-from and --fps-to/],
      [['--fps-from', 'fast', '--fps-to', '25'], /^annot: --fps-from: expected frames per second/],
      [['--scale', '0'], /^annot: --scale: expected a positive ratio/],
      [['--sync', '10=12'], /^annot: --sync: expected two points 'T1=U1,T2=U2'/],
      [['--sync', '10=12,20=30', '--scale', '2'], /^annot: --sync: a two-point sync sets the scale itself/],
      [['--sync', '10=20,20=10'], /^annot: --sync: the points must keep their order/],
      [['--within', '20,10', '--shift', '1'], /^annot: --within: END must be after START/],
      [['--within', '10', '--shift', '1'], /^annot: --within: expected START,END/],
      [['--shift', '00:00:01:05'], /^annot: --shift: .*fps/],
      [['--fps', '25'], /^annot: --fps: it gives the frame rate of SMPTE times/],
    ];
    for (const [flags, message] of cases) {
      const result = await runCli(['convert', input, join(dir, 'never.srt'), ...flags]);
      expect([flags, result.code]).toEqual([flags, 2]);
      expect([flags, result.stderr.trim().split('\n').length]).toEqual([flags, 1]);
      expect([flags, result.stderr]).toEqual([flags, expect.stringMatching(message)]);
      expect(result.stderr).toContain('[ANNOT_USAGE]');
    }
  });

  it('retimes every input of the batch form (--out-dir), and says what a retime lost per file', async () => {
    const inputs = join(dir, 'batch-in');
    mkdirSync(inputs, { recursive: true });
    writeFileSync(join(inputs, 'a.srt'), srt([['00:00:01,000', '00:00:02,000', 'a']]));
    writeFileSync(join(inputs, 'b.srt'), srt([['00:00:00,500', '00:00:03,000', 'b']]));
    const out = join(dir, 'batch-out');
    const result = await runCli(['convert', join(inputs, 'a.srt'), join(inputs, 'b.srt'), '--out-dir', out, '--to', 'vtt', '--shift', '-0.75', '--jobs', '1']);
    expect(result.code).toBe(0);
    expect(readFileSync(join(out, 'a.vtt'), 'utf8')).toBe('WEBVTT\n\n00:00:00.250 --> 00:00:01.250\na\n\n');
    expect(readFileSync(join(out, 'b.vtt'), 'utf8')).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:02.250\nb\n\n');
    expect(result.stderr).toContain(`warning: ${join(inputs, 'b.srt')}: retime: 1 annotation moved to start before 0 s and was cut to start at 0 s`);
    expect(result.stderr).not.toContain(`${join(inputs, 'a.srt')}: retime`);
  });
});

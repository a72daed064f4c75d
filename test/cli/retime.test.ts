import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';

// `annot retime FILE.annot` in real child processes, on a .annot file converted from the talk
// fixture (7 cues between 0 and 26.75 s, on tier "cues").

const TALK = fileURLToPath(new URL('../../fixtures/talk.vtt', import.meta.url));

describe('annot retime FILE.annot', () => {
  const { dir, cleanup } = tempDir('annot-retime-');
  afterAll(cleanup);
  const original = join(dir, 'talk.annot');
  let n = 0;

  beforeAll(async () => {
    const made = await runCli(['convert', TALK, original, '--tier', 'cues']);
    expect(made.code).toBe(0);
  }, 60_000);

  /** A fresh copy of the converted file. */
  const copy = () => {
    const path = join(dir, `copy-${n++}.annot`);
    copyFileSync(original, path);
    return path;
  };
  const starts = async (file: string): Promise<string[]> => {
    const query = await runCli(['query', file]);
    expect(query.code).toBe(0);
    return query.stdout.trim().split('\n').map((line) => JSON.parse(line).reference.interval.start.s);
  };

  it('shifts every annotation in place and says what it did on stderr', async () => {
    const file = copy();
    const result = await runCli(['retime', file, '--shift', '2.5']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`retimed 7 annotations in ${file}: +2.5 s\n`);
    expect(await starts(file)).toEqual(['2.5', '5.75', '10.3', '13.625', '17.5', '21.98', '24.5']);
  }, 60_000);

  it('cuts at 0 s and drops before it, counted; --json prints the result on stdout', async () => {
    const file = copy();
    const result = await runCli(['retime', file, '--shift', '-00:00:05', '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`retimed 7 annotations in ${file}: -5 s; 1 cut at 0 s; 1 dropped before 0 s\n`);
    expect(JSON.parse(result.stdout)).toEqual({
      file,
      description: '-5 s',
      map: { factor: '1', offset: '-5' },
      moved: 7,
      cut: 1,
      dropped: 1,
      dropped_referring: 0,
      rounded: 0,
      tiers: ['cues'],
      findings: ['1 annotation moved to start before 0 s and was cut to start at 0 s', '1 annotation moved wholly before 0 s and was dropped'],
      clock: expect.any(Number),
    });
    expect(await starts(file)).toEqual(['0', '2.8', '6.125', '10', '14.48', '17']);
  }, 60_000);

  it('refuses under --strict and --strict-time, leaving the file byte for byte as it was', async () => {
    const file = copy();
    const before = readFileSync(file);
    const strict = await runCli(['retime', file, '--shift=-5', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/^annot: annotation \S+ on tier "cues" \(\[0, 3\.25\) s\) would start at -5 s after the retime, before 0 s; --strict refuses to drop it .*\[ANNOT_RETIME_BEFORE_ZERO\]\n$/);
    const strictTime = await runCli(['retime', file, '--scale', '1/3', '--strict-time']);
    expect(strictTime.code).toBe(1);
    expect(strictTime.stderr).toMatch(/--strict-time refuses to round it \[ANNOT_LOSSY_TIME\]\n$/);
    expect(readFileSync(file).equals(before)).toBe(true);
  }, 60_000);

  it('rescales from 23.976 to 25 fps and back, rounding at the file\'s rate and counting it', async () => {
    const file = copy();
    const there = await runCli(['retime', file, '--fps-from', '23.976', '--fps-to', '25']);
    expect(there.code).toBe(0);
    expect(there.stderr).toMatch(/^retimed 7 annotations in \S+: ×960\/1001; \d+ times rounded to a tick \(--strict-time refuses\)\n$/);
    const back = await runCli(['retime', file, '--fps-from', '25', '--fps-to', '24000/1001']);
    expect(back.code).toBe(0);
    // At 1 kHz the round trip lands within a tick of where it started.
    const ms = (await starts(file)).map((s) => Number(s) * 1000);
    ['0', '3.25', '7.8', '11.125', '15', '19.48', '22'].forEach((s, i) => expect(Math.abs(ms[i] - Number(s) * 1000)).toBeLessThanOrEqual(1));
  }, 60_000);

  it('syncs two points and retimes a window only', async () => {
    const file = copy();
    const sync = await runCli(['retime', file, '--sync', '00:00:03.250=00:00:04,00:00:22=00:00:22.75']);
    expect(sync.code).toBe(0);
    expect(sync.stderr).toContain(': +0.75 s\n');
    const within = await runCli(['retime', file, '--shift', '1', '--within', '10,20']);
    expect(within.code).toBe(0);
    expect(within.stderr).toContain('retimed 2 annotations');
    expect(await starts(file)).toEqual(['0.75', '4', '8.55', '12.875', '16.75', '20.23', '22.75']);
  }, 60_000);

  it('refuses bad input in one line naming the flag or the file, changing nothing', async () => {
    const file = copy();
    const before = readFileSync(file);
    const cases: Array<[string[], RegExp, number]> = [
      [['--fps-from', 'fast', '--fps-to', '25'], /^annot: --fps-from: expected frames per second .* \[ANNOT_INVALID_TIME\]\n$/, 1],
      [['--fps-from', '25'], /^annot: --fps-to: missing; a frame-rate change needs both --fps-from and --fps-to .*\n$/, 1],
      [['--shift', 'soon'], /^annot: --shift: .*\n$/, 1],
      [['--scale', '-2'], /^annot: --scale: expected a positive ratio .*\n$/, 1],
      [['--sync', '1=2'], /^annot: --sync: expected two points 'T1=U1,T2=U2' .*\n$/, 1],
      [['--within', '20,10', '--shift', '1'], /^annot: --within: END must be after START .*\n$/, 1],
      [['--within', 'soon', '--shift', '1'], /^annot: --within: expected START,END .*\n$/, 1],
      [['--tier', 'cue', '--shift', '1'], /has no tier "cue"; did you mean "cues"\? .*\[ANNOT_TIER_NOT_FOUND\]\n$/, 1],
    ];
    for (const [flags, message, code] of cases) {
      const result = await runCli(['retime', file, ...flags]);
      expect([flags, result.code, result.stderr]).toEqual([flags, code, expect.stringMatching(message)]);
    }
    expect(readFileSync(file).equals(before)).toBe(true);
  }, 120_000);

  it('changes only .annot files and PostgreSQL projects, and needs one of them', async () => {
    const vtt = await runCli(['retime', TALK, '--shift', '1']);
    expect(vtt.code).toBe(1);
    expect(vtt.stderr).toContain(`annot: ${TALK}: not a .annot file; annot retime changes a .annot file or a PostgreSQL project in place (retime a file in another format while converting it: annot convert`);
    const missing = await runCli(['retime', join(dir, 'nope.annot'), '--shift', '1']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('nope.annot: no such .annot file');
    const none = await runCli(['retime', '--shift', '1']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('retime needs FILE.annot or --store');
    const both = await runCli(['retime', copy(), '--store', 'postgres://postgres@127.0.0.1/x', '--shift', '1']);
    expect(both.code).toBe(2);
    const project = await runCli(['retime', copy(), '--project', 'p', '--shift', '1']);
    expect(project.code).toBe(2);
    expect(project.stderr).toContain('--project names a project of a PostgreSQL --store');
  }, 60_000);
});

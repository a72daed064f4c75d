import { join } from 'node:path';
import { runCli } from '../support/run-cli.js';
import { tempDir, writeSampleAnnot } from '../support/sample-annot.js';

describe('annot query speaks the one time vocabulary', () => {
  const { dir, cleanup } = tempDir();
  const file = join(dir, 'talk.annot');
  beforeAll(() => writeSampleAnnot(file));
  afterAll(cleanup);

  const ids = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { id: string }).id.slice(-1));

  it.each([
    ['seconds', ['--start', '0.5', '--end', '10']],
    ['timecodes', ['--start', '00:00:00.500', '--end', '00:00:10.000']],
    ['short timecodes with a comma', ['--start', '00:00,5', '--end', '00:10']],
    ['SMPTE with --fps', ['--start', '00:00:00:12', '--end', '00:00:10:00', '--fps', '24']],
    ['a ratio', ['--start', '1/2', '--end', '10']],
  ])('takes a window in %s', async (_form, window) => {
    const result = await runCli(['query', file, ...window]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(['2', '3']);
  });

  it('prints exact seconds s beside {v, r} by default', async () => {
    const result = await runCli(['query', file]);
    const first = JSON.parse(result.stdout.split('\n')[0]);
    expect(first.reference.interval).toEqual({ start: { v: 0, r: 1000, s: '0' }, end: { v: 500, r: 1000, s: '0.5' } });
    expect(first.provenance.generated_at_time.s).toEqual(expect.any(String));
  });

  it('--time timecode adds tc, --time ticks prints only {v, r}', async () => {
    const timecode = JSON.parse((await runCli(['query', file, '--time', 'timecode'])).stdout.split('\n')[0]);
    expect(timecode.reference.interval.end).toEqual({ v: 500, r: 1000, s: '0.5', tc: '00:00:00.500' });
    const ticks = JSON.parse((await runCli(['query', file, '--time', 'ticks'])).stdout.split('\n')[0]);
    expect(ticks.reference.interval.end).toEqual({ v: 500, r: 1000 });
    const bad = await runCli(['query', file, '--time', 'frames']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/seconds, timecode, ticks/);
  });

  it('refuses a time not exact at --rate, naming the value, and SMPTE without --fps', async () => {
    const lossy = await runCli(['query', file, '--start', '0.1', '--end', '1', '--rate', '3']);
    expect(lossy.code).toBe(1);
    expect(lossy.stderr).toMatch(/start: "0\.1" \(0\.1 s\) is not a whole number of ticks at rate 3/);
    const smpte = await runCli(['query', file, '--start', '00:00:01:00', '--end', '00:00:02:00']);
    expect(smpte.code).toBe(1);
    expect(smpte.stderr).toMatch(/"00:00:01:00" is an SMPTE timecode HH:MM:SS:FF; give its frame rate \(--fps/);
  });
});

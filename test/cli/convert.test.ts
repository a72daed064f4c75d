import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../support/run-cli.js';
import { tempDir, writeSampleAnnot } from '../support/sample-annot.js';

const TALK = fileURLToPath(new URL('../../fixtures/talk.vtt', import.meta.url));

describe('annot convert', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it('converts WebVTT to .annot and back, keeping ids, settings, text and exact times', async () => {
    const annot = join(dir, 'talk.annot');
    const back = join(dir, 'talk-back.vtt');
    const toAnnot = await runCli(['convert', TALK, annot]);
    expect(toAnnot.code).toBe(0);
    expect(toAnnot.stderr).toContain('7 annotations');
    const query = await runCli(['query', annot, '--start', '11.125', '--end', '15']);
    const cues = query.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(cues).toHaveLength(1);
    expect(cues[0].reference.interval).toEqual({ start: { v: 11125, r: 1000, s: '11.125' }, end: { v: 15000, r: 1000, s: '15' } });
    expect(cues[0].body).toMatchObject({ text: 'The lamp turned once every twelve seconds.', speaker: 'Jonas' });

    const toVtt = await runCli(['convert', annot, back]);
    expect(toVtt.code).toBe(0);
    const written = readFileSync(back, 'utf8');
    expect(written).toContain('intro\n00:00:00.000 --> 00:00:03.250\n<v Mara>Good evening, and welcome to the harbour.');
    expect(written).toContain('00:00:07.800 --> 00:00:11.125 align:start position:10%');
    expect(written).toContain('<v Mara>And for sixty years someone climbed\nthose stairs every night.');
  });

  it('says on stderr what the target format cannot keep', async () => {
    const sample = join(dir, 'sample.annot');
    await writeSampleAnnot(sample);
    const result = await runCli(['convert', sample, join(dir, 'sample.vtt')]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/webvtt keeps no provenance: dropped for 5 annotations/);
  });

  it('reads standard input and writes standard output with --from and --to', async () => {
    const result = await runCli(['convert', '-', '-', '--from', 'webvtt', '--to', 'srt'], { input: readFileSync(TALK) });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^1\n00:00:00,000 --> 00:00:03,250\n/);
    expect(result.stdout).toContain('00:00:22,000 --> 00:00:26,750');
  });

  it('refuses writing to standard output without --to', async () => {
    const result = await runCli(['convert', TALK, '-']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--to');
  });

  it('rejects malformed input naming the file, the line and what was expected, and writes nothing', async () => {
    const broken = join(dir, 'broken.srt');
    writeFileSync(broken, 'this is not\na subtitle file\n');
    const output = join(dir, 'broken.vtt');
    writeFileSync(output, 'WEBVTT\n\nkeep me\n');
    const result = await runCli(['convert', broken, output, '--from', 'srt']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/broken\.srt:\d+(:\d+)?/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(output, 'utf8')).toBe('WEBVTT\n\nkeep me\n');
    expect(readdirSync(dir).filter((name) => name.includes('.tmp'))).toEqual([]);
  });

  it.each(['talk.annot', 'talk.vtt', 'talk.eaf'])('names a missing output folder (%s) in one line, exit 1, and creates nothing', async (name) => {
    const missing = join(dir, 'no-such-folder');
    const result = await runCli(['convert', TALK, join(missing, name)]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(`annot: cannot write ${join(missing, name)}: the folder ${missing} does not exist; create it first [ANNOT_NOT_FOUND]`);
    expect(existsSync(missing)).toBe(false);
  });

  it('refuses an output whose format it cannot tell, listing the known formats', async () => {
    const result = await runCli(['convert', TALK, join(dir, 'talk.xyz')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('webvtt');
    expect(result.stderr).toContain('textgrid');
    expect(existsSync(join(dir, 'talk.xyz'))).toBe(false);
  });

  it('refuses to round with --strict-time, and rounds with a count otherwise', async () => {
    const strict = await runCli(['convert', TALK, join(dir, 'coarse.annot'), '--rate', '10', '--strict-time']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/not a whole number of ticks at rate 10/);
    expect(existsSync(join(dir, 'coarse.annot'))).toBe(false);
    const lenient = await runCli(['convert', TALK, join(dir, 'coarse.annot'), '--rate', '10']);
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toMatch(/7 times rounded to the import rate, largest error/);
  });
});

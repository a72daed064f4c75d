import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../support/run-cli.js';
import { tempDir, writeSampleAnnot } from '../support/sample-annot.js';

const TALK = fileURLToPath(new URL('../../fixtures/talk.vtt', import.meta.url));

describe('CLI conventions', () => {
  const { dir, cleanup } = tempDir();
  const sample = join(dir, 'sample.annot');
  beforeAll(() => writeSampleAnnot(sample));
  afterAll(cleanup);

  describe('errors name their code', () => {
    it('prints annot: <message> [ANNOT_CODE] on stderr', async () => {
      const result = await runCli(['query', join(dir, 'nope.annot')]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^annot: .*nope\.annot: no such file \[ANNOT_INVALID_INPUT\]\n$/);
    });

    it('gives usage errors the code ANNOT_USAGE and exit 2', async () => {
      const result = await runCli(['query', sample, '--nope']);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe('annot: unknown flag --nope: `annot query --help` lists the flags [ANNOT_USAGE]\n');
    });

    it('adds a JSON error document with the code when JSON was asked for', async () => {
      const result = await runCli(['validate', join(dir, 'nope.srt'), '--format', 'json']);
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stdout)).toEqual({ error: { code: 'ANNOT_INVALID_INPUT', message: expect.stringContaining('nope.srt'), exit_code: 1 } });
      const listed = await runCli(['list-formats', '--json', '--nope']);
      expect(listed.code).toBe(2);
      expect(JSON.parse(listed.stdout).error.code).toBe('ANNOT_USAGE');
    });
  });

  describe('tier typos', () => {
    it('query --tier with a tier the store lacks is an error listing the tiers, with a did-you-mean', async () => {
      const result = await runCli(['query', sample, '--tier', 'word']);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`annot: ${sample} has no tier "word"; did you mean "words"? (tiers: words, notes) [ANNOT_TIER_NOT_FOUND]\n`);
    });

    it('without a near name, the tiers are listed', async () => {
      const result = await runCli(['query', sample, '--tier', 'nope']);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`annot: ${sample} has no tier "nope" (tiers: words, notes) [ANNOT_TIER_NOT_FOUND]\n`);
    });

    it('convert --tier too, and nothing is written', async () => {
      const out = join(dir, 'typo.srt');
      const result = await runCli(['convert', sample, out, '--tier', 'wrds']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('has no tier "wrds"; did you mean "words"?');
      expect(() => readFileSync(out)).toThrow();
    });
  });

  describe('query reads standard input', () => {
    it('sniffs the format of `-`', async () => {
      const result = await runCli(['query', '-', '--start', '11.125', '--end', '15'], { input: readFileSync(TALK) });
      expect(result.code).toBe(0);
      const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
      expect(lines).toHaveLength(1);
      expect(lines[0].body).toMatchObject({ text: 'The lamp turned once every twelve seconds.', speaker: 'Jonas' });
    });

    it('takes --from', async () => {
      const srt = join(dir, 'in.srt');
      writeFileSync(srt, '1\n00:00:01,000 --> 00:00:02,000\nhello\n');
      const result = await runCli(['query', '-', '--from', 'subrip'], { input: readFileSync(srt) });
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout).body.text).toBe('hello');
    });
  });
});

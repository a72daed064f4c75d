import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ANNOT_BIN, runCli } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';

/** `annot validate` as a CI job uses it: findings with positions, exit codes, --strict, --max-warnings, the output formats. */

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/validate/${name}`, import.meta.url));
const MISSING_SHOT = fixture('missing-shot.yaml');
const DROPPED_BLOCK = fixture('dropped-block.srt');
const TIER_TYPO = fixture('tier-typo.TextGrid');

describe('annot validate for CI', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  describe('scene references', () => {
    it('reports a beat naming a shot that does not exist, and a shot naming a missing environment or character, with file, line and column (exit 1)', async () => {
      const result = await runCli(['validate', MISSING_SHOT]);
      expect(result.code).toBe(1);
      expect(result.stdout.split('\n').slice(0, 4)).toEqual([
        `${MISSING_SHOT}:13:18: error: shots[1].environment: no environment named "attic" (known: "kitchen") [missing_reference]`,
        `${MISSING_SHOT}:14:23: error: shots[1].characters[1]: no character named "Bob" (known: "Ann") [missing_reference]`,
        `${MISSING_SHOT}:21:14: error: beats[1].shot_id: no shot with id "s9" (known: "s1", "s2") [missing_reference]`,
        `${MISSING_SHOT} (scene): INVALID, 3 errors, 0 warnings`,
      ]);
    });

    it('finds the line in a JSON scene too', async () => {
      const scene = join(dir, 'scene.json');
      writeFileSync(scene, JSON.stringify({ title: 't', characters: [{ name: 'A' }], shots: [{ id: 's1' }], beats: [{ id: 'b1', speaker: 'A', shot_id: 'nope' }] }, null, 2));
      const result = await runCli(['validate', scene, '--format', 'json']);
      expect(result.code).toBe(1);
      const report = JSON.parse(result.stdout);
      expect(report.findings).toEqual([
        { code: 'missing_reference', severity: 'error', message: 'beats[0].shot_id: no shot with id "nope" (known: "s1")', file: scene, line: 17, column: 18 },
      ]);
    });
  });

  describe('tier name typos', () => {
    const TYPOS = [
      { line: 71, message: 'tiers "words" and "Words" differ only by case, spaces or punctuation: a typo? (rename one if they are meant to be one tier)' },
      { line: 81, message: 'tiers "phones" and "phomes" differ by one letter: a typo? (rename one if they are meant to be one tier)' },
    ];

    it('warns about two tiers whose names differ only by case or by one letter, naming both and the file, at the line of the second (exit 0)', async () => {
      const result = await runCli(['validate', TIER_TYPO]);
      expect(result.code).toBe(0);
      expect(result.stdout.split('\n').slice(0, 3)).toEqual([
        ...TYPOS.map(({ line, message }) => `${TIER_TYPO}:${line}:16: warning: ${message} [tier_name_near_duplicate]`),
        `${TIER_TYPO} (textgrid): valid, 0 errors, 2 warnings`,
      ]);
      // S1/S2 (short, numbered) and speaker_a/speaker_b (a one-letter label) are series, not typos.
      expect(result.stdout).toContain('8 annotations in 8 tiers');
    });

    it('prints them in the json and github formats, and fails under --strict', async () => {
      const json = await runCli(['validate', TIER_TYPO, '--format', 'json']);
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout).findings).toEqual(
        TYPOS.map(({ line, message }) => ({ code: 'tier_name_near_duplicate', severity: 'warning', message, file: TIER_TYPO, line, column: 16 })),
      );
      const github = await runCli(['validate', TIER_TYPO, '--format', 'github']);
      expect(github.code).toBe(0);
      expect(github.stdout).toBe(TYPOS.map(({ line, message }) => `::warning file=${TIER_TYPO},line=${line},col=16,title=tier_name_near_duplicate::${message}\n`).join(''));
      const strict = await runCli(['validate', TIER_TYPO, '--strict']);
      expect(strict.code).toBe(1);
      expect(strict.stdout).toContain('valid, but failing on its warnings, 0 errors, 2 warnings');
    });
  });

  describe('the github format', () => {
    it('prints one workflow command per finding, and nothing else on stdout', async () => {
      const result = await runCli(['validate', MISSING_SHOT, '--format', 'github']);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe(
        [
          `::error file=${MISSING_SHOT},line=13,col=18,title=missing_reference::shots[1].environment: no environment named "attic" (known: "kitchen")`,
          `::error file=${MISSING_SHOT},line=14,col=23,title=missing_reference::shots[1].characters[1]: no character named "Bob" (known: "Ann")`,
          `::error file=${MISSING_SHOT},line=21,col=14,title=missing_reference::beats[1].shot_id: no shot with id "s9" (known: "s1", "s2")`,
          '',
        ].join('\n'),
      );
      expect(result.stderr).toContain('INVALID, 3 errors, 0 warnings');
    });

    it('prints warnings as ::warning', async () => {
      const result = await runCli(['validate', DROPPED_BLOCK, '--format', 'github']);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`::warning file=${DROPPED_BLOCK},line=5,col=1,title=block_dropped::block dropped: it has no timing line like "00:00:01,000 --> 00:00:02,000" (it starts "no timing line here")\n`);
    });

    it('escapes % CR LF in the message, and those plus , and : in properties', async () => {
      const scene = join(dir, 'a,b:c%.yaml');
      writeFileSync(scene, 'title: t\nshots:\n  - id: s1\nbeats:\n  - id: b1\n    shot_id: "50%\\r\\nx"\n');
      const result = await runCli(['validate', scene, '--format', 'github']);
      expect(result.code).toBe(1);
      const escapedFile = `${dir}/a%2Cb%3Ac%25.yaml`;
      expect(result.stdout.split('\n')).toContain(
        `::error file=${escapedFile},line=6,col=14,title=missing_reference::beats[0].shot_id: no shot with id "50%25%0D%0Ax" (known: "s1")`,
      );
    });
  });

  describe('exit codes', () => {
    it('0 when there are only warnings, and the text format prints file:line:col: severity: message [code]', async () => {
      const result = await runCli(['validate', DROPPED_BLOCK]);
      expect(result.code).toBe(0);
      expect(result.stdout.split('\n')[0]).toBe(`${DROPPED_BLOCK}:5:1: warning: block dropped: it has no timing line like "00:00:01,000 --> 00:00:02,000" (it starts "no timing line here") [block_dropped]`);
      expect(result.stdout).toContain('valid, 0 errors, 1 warning\n');
      expect(result.stdout).toContain('2 annotations in 1 tier, 1–4 s, 1 asset\n');
    });

    it('1 on warnings under --strict', async () => {
      const result = await runCli(['validate', DROPPED_BLOCK, '--strict']);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('valid, but failing on its warnings, 0 errors, 1 warning');
    });

    it('--max-warnings N fails only when there are more than N warnings, as in eslint', async () => {
      expect((await runCli(['validate', DROPPED_BLOCK, '--max-warnings', '1'])).code).toBe(0);
      expect((await runCli(['validate', DROPPED_BLOCK, '--max-warnings', '-1'])).code).toBe(0);
      const over = await runCli(['validate', DROPPED_BLOCK, '--max-warnings', '0']);
      expect(over.code).toBe(1);
      expect(over.stdout).toContain('1 warning (more than --max-warnings 0)');
    }, 90_000);

    it.each([
      ['a missing file argument', ['validate']],
      ['an unknown flag', ['validate', DROPPED_BLOCK, '--nope']],
      ['an unknown --format', ['validate', DROPPED_BLOCK, '--format', 'xml']],
      ['a --max-warnings that is not a number', ['validate', DROPPED_BLOCK, '--max-warnings', 'many']],
    ])('2 on a usage error: %s', async (_name, args) => {
      const result = await runCli(args);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^annot: /);
    });

    it('1 when the file cannot be read, in one line', async () => {
      const result = await runCli(['validate', join(dir, 'nope.srt')]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('nope.srt: no such file');
    });

    it('1 with a parse error as a finding with its position', async () => {
      const eaf = join(dir, 'broken.eaf');
      writeFileSync(eaf, '<?xml version="1.0"?>\n<ANNOTATION_DOCUMENT>\n  <TIER TIER_ID="a">\n</ANNOTATION_DOCUMENT>\n');
      const result = await runCli(['validate', eaf, '--format', 'json']);
      expect(result.code).toBe(1);
      const report = JSON.parse(result.stdout);
      expect(report).toMatchObject({ valid: false, passed: false, error_count: 1 });
      expect(report.findings[0]).toMatchObject({ code: 'parse_error', severity: 'error', file: eaf });
      expect(report.findings[0].line).toBeGreaterThan(0);
    });
  });

  describe('the json format', () => {
    it('is one document with the findings, the counts and the summary', async () => {
      for (const args of [['--format', 'json'], ['--json']]) {
        const result = await runCli(['validate', DROPPED_BLOCK, ...args]);
        expect(result.code).toBe(0);
        expect(JSON.parse(result.stdout)).toMatchObject({
          file: DROPPED_BLOCK,
          format: 'srt',
          valid: true,
          passed: true,
          error_count: 0,
          warning_count: 1,
          findings: [{ code: 'block_dropped', severity: 'warning', file: DROPPED_BLOCK, line: 5, column: 1, message: 'block dropped: it has no timing line like "00:00:01,000 --> 00:00:02,000" (it starts "no timing line here")' }],
          annotations: 2,
        });
      }
    }, 90_000);
  });

  describe('standard input', () => {
    it('reads `-`, sniffs the format and names it <stdin>', async () => {
      const result = await runCli(['validate', '-'], { input: readFileSync(DROPPED_BLOCK) });
      expect(result.code).toBe(0);
      expect(result.stdout.split('\n')[0]).toBe('<stdin>:5:1: warning: block dropped: it has no timing line like "00:00:01,000 --> 00:00:02,000" (it starts "no timing line here") [block_dropped]');
      expect(result.stdout).toContain('<stdin> (srt): valid');
    });

    it('takes the format from --from, a scene too', async () => {
      const srt = await runCli(['validate', '-', '--from', 'srt', '--strict'], { input: readFileSync(DROPPED_BLOCK) });
      expect(srt.code).toBe(1);
      const scene = await runCli(['validate', '-', '--from', 'scene', '--format', 'github'], { input: readFileSync(MISSING_SHOT) });
      expect(scene.code).toBe(1);
      expect(scene.stdout).toContain('::error file=<stdin>,line=21,col=14,title=missing_reference::beats[1].shot_id: no shot with id "s9"');
    }, 90_000);
  });

  describe('a closed pipe never changes the exit status', () => {
    /** Spawns `annot validate <file>`, reads stdout up to the first line, then closes the read end. */
    function firstLineThenClose(file: string): Promise<{ code: number | null; firstLine: string; stderr: string }> {
      return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [ANNOT_BIN, 'validate', file], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let firstLine = '';
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
          const end = out.indexOf('\n');
          if (end >= 0 && !firstLine) {
            firstLine = out.slice(0, end);
            child.stdout.destroy(); // like `| head -1`
          }
        });
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, firstLine, stderr }));
      });
    }

    it('a file with errors exits 1 after `| head -1`', async () => {
      const result = await firstLineThenClose(MISSING_SHOT);
      expect(result.firstLine).toContain('[missing_reference]');
      expect(result.code).toBe(1);
    });

    it('also when the output is far larger than the pipe buffer, so writes really fail with EPIPE', async () => {
      const scene = join(dir, 'many-missing.yaml');
      const beats = Array.from({ length: 4000 }, (_, i) => `  - id: b${i}\n    shot_id: s${i + 1000}\n    speaker: Ann\n`).join('');
      writeFileSync(scene, `title: many\ncharacters:\n  - name: Ann\nshots:\n  - id: s1\nbeats:\n${beats}`);
      const result = await firstLineThenClose(scene);
      expect(result.firstLine).toContain('[missing_reference]');
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('');
    }, 90_000);
  });
});

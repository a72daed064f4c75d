import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';
import { serveCli } from '../support/serve-cli.js';

/**
 * Legacy text encodings on every surface, with the files of issue 21: pysubs2's windows-1250 and
 * multi-encoding inputs (their exact bytes) and a windows-1252 SRT written for annot, through
 * real `annot convert`, `annot validate` and `annot serve` processes and POST /import on loopback.
 */

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'encodings');
const CZECH = 'Příliš žluťoučký kůň úpěl ďábelské ódy';

describe('text encodings through the CLI and HTTP', () => {
  const { dir, cleanup } = tempDir('annot-encodings-cli-');
  afterAll(cleanup);
  const win1250 = join(dir, 'win1250.srt');
  const multi = join(dir, 'multi.srt');
  const win1252 = join(dir, 'windows-1252.srt');
  beforeAll(() => {
    copyFileSync(join(FIXTURES, 'pysubs2_win1250.srt'), win1250);
    copyFileSync(join(FIXTURES, 'pysubs2_multiencoding.srt'), multi);
    copyFileSync(join(FIXTURES, 'windows-1252.srt'), win1252);
  });

  /** What every surface says of the multi-encoding file, after its name. */
  const MIXED = ':4:2: expected UTF-8 text; byte 0xF8 at byte offset 77 is not UTF-8, yet line 5 is UTF-8 text: the file mixes encodings (or is damaged), and no one encoding reads it right; name the one to read it all in with --encoding (?encoding= over HTTP)';

  describe('annot convert', () => {
    it('reads a windows-1250 file in the encoding it detects, says so, and writes UTF-8', async () => {
      const out = join(dir, 'win1250.vtt');
      const result = await runCli(['convert', win1250, out]);
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(new RegExp(`^${win1250}: warning: not UTF-8 and no byte-order mark: read as windows-1250, the encoding detected with confidence 0\\.\\d\\d .*\\[encoding_guessed\\]$`, 'm'));
      expect(readFileSync(out, 'utf8')).toBe(`WEBVTT\n\n00:00:00.000 --> 00:01:00.000\nThe quick brown fox jumps over the lazy dog\n${CZECH}\n\n`);
    });

    it('refuses the guess under --strict, writing nothing', async () => {
      const out = join(dir, 'strict.vtt');
      const result = await runCli(['convert', win1250, out, '--strict']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('[encoding_guessed]');
      expect(result.stderr).toContain('1 finding (above) under --strict; nothing was written [ANNOT_STRICT_FINDINGS]');
      expect(existsSync(out)).toBe(false);
    });

    it('reads with --encoding without a finding, the same through the fast path and oclif', async () => {
      const fast = await runCli(['convert', win1250, join(dir, 'fast.srt'), '--encoding', 'windows-1250']);
      const oclif = await runCli(['convert', '--encoding', 'windows-1250', '--', win1250, join(dir, 'oclif.srt')]);
      expect([fast.code, oclif.code]).toEqual([0, 0]);
      expect(fast.stderr).not.toContain('warning');
      expect(readFileSync(join(dir, 'fast.srt'), 'utf8')).toContain(CZECH);
      expect(readFileSync(join(dir, 'fast.srt')).equals(readFileSync(join(dir, 'oclif.srt')))).toBe(true);
    });

    it('gives back the windows-1252 file as the UTF-8 text it holds, laid out as it was (CRLF)', async () => {
      const out = join(dir, 'back.srt');
      expect((await runCli(['convert', win1252, out])).code).toBe(0);
      expect(readFileSync(out).equals(readFileSync(join(FIXTURES, 'windows-1252.utf8.srt')))).toBe(true);
    });

    it('refuses the multi-encoding file with the offset of its first byte that is not UTF-8, and writes nothing', async () => {
      const out = join(dir, 'multi.vtt');
      const result = await runCli(['convert', multi, out]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`annot: ${multi}${MIXED} [ANNOT_TEXT_ENCODING]\n`);
      expect(existsSync(out)).toBe(false);
    });

    it('reads the multi-encoding file in the one encoding named, as pysubs2 reads it with surrogateescape', async () => {
      const out = join(dir, 'multi-1250.srt');
      const result = await runCli(['convert', multi, out, '--encoding', 'windows-1250']);
      expect(result.code).toBe(0);
      const text = readFileSync(out, 'utf8').split('\n').slice(2).join('\n');
      // pysubs2's own assertions on the cue text, and the windows-1250 line read right.
      expect(text.startsWith('The quick brown fox jumps over the lazy dog')).toBe(true);
      expect(text).toContain('Felix bzw. Jody');
      expect(text).toContain(CZECH);
      expect(text).not.toContain('\ufffd');
    });

    it('an unknown --encoding is a usage error listing names', async () => {
      const result = await runCli(['convert', win1250, join(dir, 'x.vtt'), '--encoding', 'latin-2']);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^annot: unknown encoding "latin-2" \(did you mean "latin2"\?\); known encodings include utf-8, .*windows-1250.* \[ANNOT_UNKNOWN_ENCODING\]\n$/);
    });
  });

  describe('annot validate', () => {
    it('lists the guess as a warning: valid, but failing under --strict', async () => {
      const plain = await runCli(['validate', win1252]);
      expect(plain.code).toBe(0);
      expect(plain.stdout).toMatch(/warning: not UTF-8 and no byte-order mark: read as windows-1252, .*\[encoding_guessed\]/);
      const strict = await runCli(['validate', win1252, '--strict', '--format', 'json']);
      expect(strict.code).toBe(1);
      expect(JSON.parse(strict.stdout).findings.map((finding: { code: string }) => finding.code)).toEqual(['encoding_guessed']);
      expect((await runCli(['validate', win1252, '--strict', '--encoding', 'windows-1252'])).code).toBe(0);
    });

    it('reports the multi-encoding file with the same message, as a text_encoding error', async () => {
      const result = await runCli(['validate', multi, '--format', 'json']);
      expect(result.code).toBe(1);
      const [finding] = JSON.parse(result.stdout).findings;
      expect(finding).toMatchObject({ code: 'text_encoding', severity: 'error', line: 4, column: 2 });
      expect(`${multi}:${finding.line}:${finding.column}: ${finding.message}`).toBe(`${multi}${MIXED}`);
    });

    it('an unknown --encoding is a usage error', async () => {
      expect((await runCli(['validate', win1252, '--encoding', 'nope'])).code).toBe(2);
    });
  });

  describe('annot query, diff and agree', () => {
    it('query reads the multi-encoding file with --encoding, through the fast path and oclif alike, and refuses it without', async () => {
      const fast = await runCli(['query', multi, '--encoding', 'windows-1250']);
      const oclif = await runCli(['query', '--encoding', 'windows-1250', '--', multi]);
      expect([fast.code, oclif.code]).toEqual([0, 0]);
      expect(fast.stdout).toContain(CZECH);
      const bodies = (stdout: string) => stdout.trim().split('\n').map((line) => (JSON.parse(line) as { body: unknown }).body);
      expect(bodies(fast.stdout)).toEqual(bodies(oclif.stdout));
      const refused = await runCli(['query', multi]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('[ANNOT_TEXT_ENCODING]');
    });

    it('diff and agree read both files in the encoding named', async () => {
      const copy = join(dir, 'multi-copy.srt');
      copyFileSync(multi, copy);
      const diff = await runCli(['diff', multi, copy, '--encoding', 'windows-1250']);
      expect(diff.code).toBe(0);
      expect(diff.stderr).toBe('');
      const agree = await runCli(['agree', multi, copy, '--encoding', 'windows-1250', '--json']);
      expect(agree.code).toBe(0);
      expect((JSON.parse(agree.stdout) as { tiers: Array<{ matched: number; missing: number }> }).tiers[0]).toMatchObject({ missing: 0 });
      const refused = await runCli(['diff', multi, copy]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('[ANNOT_TEXT_ENCODING]');
      expect((await runCli(['agree', multi, copy, '--encoding', 'nope'])).stderr).toContain('[ANNOT_UNKNOWN_ENCODING]');
    });
  });

  describe('annot serve and POST /import', () => {
    it('serves a legacy file (told at start, and saved as UTF-8), and imports uploads by the same rules', async () => {
      const served = await serveCli([win1252]);
      try {
        expect(served.stderr()).toContain('[encoding_guessed]');
        expect(served.stderr()).toContain(`edits are saved back to ${win1252} (srt, as UTF-8: it was read as windows-1252)`);
        const cues = (await (await fetch(`${served.url}/annotations?limit=1`)).json()) as Array<{ body: { text: string } }>;
        expect(cues[0].body.text).toBe('À la fête de l’été, on mange des crêpes.');

        const guessed = await upload(served.url, '/import?format=srt&tier=czech', readFileSync(win1250));
        expect(guessed.status).toBe(201);
        expect(guessed.json.warnings).toEqual([expect.stringMatching(/^upload\.srt: warning: not UTF-8 and no byte-order mark: read as windows-1250, .*\[encoding_guessed\]$/)]);

        const mixed = await upload(served.url, '/import?format=srt&tier=mixed', readFileSync(multi));
        expect(mixed.status).toBe(422);
        expect(mixed.json.error).toEqual({ code: 'ANNOT_TEXT_ENCODING', message: `upload.srt${MIXED}` });

        const named = await upload(served.url, '/import?format=srt&tier=named&encoding=windows-1250', readFileSync(multi));
        expect(named.status).toBe(201);
        expect(named.json.warnings).toEqual([]);

        const unknown = await upload(served.url, '/import?encoding=nope', readFileSync(multi));
        expect(unknown.status).toBe(400);
        expect(unknown.json.error?.code).toBe('ANNOT_UNKNOWN_ENCODING');

        const openapi = (await (await fetch(`${served.url}/openapi.json`)).json()) as { paths: Record<string, { post: { parameters: Array<{ name: string; in: string }> } }> };
        expect(openapi.paths['/import'].post.parameters).toContainEqual(expect.objectContaining({ name: 'encoding', in: 'query' }));
      } finally {
        await served.stop();
      }
    });

    it('serve --encoding reads a file as named; an unknown name is a usage error', async () => {
      const served = await serveCli([multi, '--encoding', 'windows-1250', '--no-save']);
      try {
        expect(served.stderr()).not.toContain('warning');
        const cues = (await (await fetch(`${served.url}/annotations`)).json()) as Array<{ body: { text: string } }>;
        expect(cues[0].body.text).toContain(CZECH);
      } finally {
        await served.stop();
      }
      const refused = await runCli(['serve', multi, '--encoding', 'nope', '--no-save']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('[ANNOT_UNKNOWN_ENCODING]');
    });
  });
});

interface ImportAnswer {
  status: number;
  json: { warnings?: string[]; error?: { code: string; message: string } };
}

async function upload(url: string, path: string, body: Buffer): Promise<ImportAnswer> {
  const response = await fetch(`${url}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/octet-stream' } });
  return { status: response.status, json: (await response.json()) as ImportAnswer['json'] };
}

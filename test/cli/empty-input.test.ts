import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';

/**
 * An empty input is a warning, `empty_input`, on validate and convert alike: `cat wrong-path |
 * annot validate -` must not be "valid" in a CI loop that fails on warnings.
 */

const WARNING = 'warning: the input is empty (nothing but white space): check the path, or the step that should have written it [empty_input]';

describe('empty input', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it('validate of an empty standard input warns, and fails under --strict and --max-warnings 0', async () => {
    const plain = await runCli(['validate', '-', '--from', 'srt'], { input: '' });
    expect(plain.code).toBe(0);
    expect(plain.stdout.split('\n').slice(0, 2)).toEqual([`<stdin>: ${WARNING}`, '<stdin> (srt): valid, 0 errors, 1 warning']);
    const strict = await runCli(['validate', '-', '--from', 'srt', '--strict'], { input: '' });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('<stdin> (srt): valid, but failing on its warnings, 0 errors, 1 warning');
    const capped = await runCli(['validate', '-', '--from', 'sbv', '--max-warnings', '0', '--format', 'json'], { input: '' });
    expect(capped.code).toBe(1);
    expect(JSON.parse(capped.stdout).findings.map((finding: { code: string }) => finding.code)).toEqual(['empty_input']);
  });

  it('validate of an empty file, or one of blank lines after a byte-order mark, warns once', async () => {
    const empty = join(dir, 'empty.srt');
    writeFileSync(empty, '');
    const blank = join(dir, 'blank.sbv');
    writeFileSync(blank, '\uFEFF\n \r\n\t\n');
    for (const file of [empty, blank]) {
      const result = await runCli(['validate', file]);
      expect(result.code).toBe(0);
      expect(result.stdout.split('\n').filter((line) => line.includes('[empty_input]'))).toEqual([`${file}: ${WARNING}`]);
    }
  });

  it('an empty WebVTT file, which lacks its signature, is also a parse error', async () => {
    const file = join(dir, 'empty.vtt');
    writeFileSync(file, '');
    const result = await runCli(['validate', file]);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n').slice(0, 2)).toEqual([`${file}: ${WARNING}`, `${file}:1:1: error: expected the WebVTT signature "WEBVTT" on the first line, found an empty file [parse_error]`]);
  });

  it('a file with text in it gets no such warning', async () => {
    const file = join(dir, 'one.srt');
    writeFileSync(file, '1\n00:00:01,000 --> 00:00:02,000\nhello\n');
    const result = await runCli(['validate', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('empty_input');
  });

  it('convert of an empty input warns on stderr and still writes; --strict refuses and writes nothing', async () => {
    const empty = join(dir, 'empty.srt');
    writeFileSync(empty, '');
    const out = join(dir, 'out.TextGrid');
    const converted = await runCli(['convert', empty, out]);
    expect(converted.code).toBe(0);
    expect(converted.stderr.split('\n').filter((line) => line.includes('[empty_input]'))).toEqual([`${empty}: ${WARNING}`]);
    const piped = await runCli(['convert', '-', '-', '--from', 'srt', '--to', 'vtt'], { input: '' });
    expect(piped.code).toBe(0);
    expect(piped.stderr).toContain(`<stdin>: ${WARNING}`);
    expect(piped.stdout).toBe('WEBVTT\n\n');
    const strict = await runCli(['convert', '-', '-', '--from', 'srt', '--to', 'vtt', '--strict'], { input: '' });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toBe('');
    expect(strict.stderr).toContain('[ANNOT_STRICT_FINDINGS]');
  });
});

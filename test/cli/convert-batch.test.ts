import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ANNOT_BIN, runCli } from '../support/run-cli.js';
import { sizeOf, srtOfCues, startCli, waitFor } from '../support/file-safety.js';
import { tempDir } from '../support/sample-annot.js';

const SRT = '1\n00:00:01,000 --> 00:00:02,000\nhello\n\n2\n00:00:03,000 --> 00:00:04,500\nworld\n';
const BAD_SRT = 'garbage\n';
const FEATURES_ASS = join(process.cwd(), 'fixtures', 'ass', 'features.ass');

/** Every file under `folder`, as sorted relative paths (hidden temporaries included). */
function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return (readdirSync(folder, { recursive: true, withFileTypes: true }) as Array<{ name: string; parentPath: string; isFile(): boolean }>)
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(folder.length + 1))
    .sort();
}

function jsonLines(stdout: string): Array<Record<string, unknown>> {
  return stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('annot convert IN... --out-dir DIR --to FORMAT (batch conversion)', () => {
  const { dir, cleanup } = tempDir('annot-convert-batch-');
  afterAll(cleanup);
  let n = 0;
  /** A fresh case folder with `in/` holding the files given. */
  const caseWith = (files: Record<string, string>): { root: string; input: string; out: string } => {
    const root = join(dir, `case-${n++}`);
    const input = join(root, 'in');
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(input, name, '..'), { recursive: true });
      writeFileSync(join(input, name), text);
    }
    return { root, input, out: join(root, 'out') };
  };

  it('writes one output per input, named after it with the new extension, one JSON line each when piped', async () => {
    const { input, out } = caseWith({ 'a.srt': SRT, 'b.srt': SRT });
    copyFileSync(FEATURES_ASS, join(input, 'c.ass'));
    const result = await runCli(['convert', join(input, 'a.srt'), join(input, 'b.srt'), join(input, 'c.ass'), '--to', 'vtt', '--out-dir', out]);
    // What WebVTT cannot keep of the ASS file is said, named by its input, as the single-file form says it.
    expect(result.stderr.split('\n')).toEqual([
      `${join(input, 'c.ass')}: webvtt keeps no comment events (ASS Comment: lines, which players do not show): dropped for 1 annotation`,
      `${join(input, 'c.ass')}: webvtt keeps no body fields other than text, speaker, id and cue settings: dropped for 1 annotation`,
      `wrote 3 files into ${out} (webvtt)`,
      '',
    ]);
    expect(result.code).toBe(0);
    expect(filesUnder(out)).toEqual(['a.vtt', 'b.vtt', 'c.vtt']);
    // Each output is byte for byte what the single-file form writes.
    for (const name of ['a', 'c']) {
      const single = join(out, '..', `single-${name}.vtt`);
      expect((await runCli(['convert', join(input, name === 'a' ? 'a.srt' : 'c.ass'), single])).code).toBe(0);
      expect(readFileSync(join(out, `${name}.vtt`)).equals(readFileSync(single))).toBe(true);
    }
    const lines = jsonLines(result.stdout).sort((x, y) => String(x.input).localeCompare(String(y.input)));
    expect(lines.map((line) => [line.input, line.output, line.from, line.to])).toEqual([
      [join(input, 'a.srt'), join(out, 'a.vtt'), 'srt', 'webvtt'],
      [join(input, 'b.srt'), join(out, 'b.vtt'), 'srt', 'webvtt'],
      [join(input, 'c.ass'), join(out, 'c.vtt'), 'ass', 'webvtt'],
    ]);
    expect(lines[0]).toMatchObject({ annotations: 2, tiers: 1 });
  });

  it('says and writes the same through oclif (flags, then -- before the files) as through the start-up fast path', async () => {
    const { input, root } = caseWith({ 'a.srt': SRT, 'bad.srt': BAD_SRT });
    const files = [join(input, 'a.srt'), join(input, 'bad.srt')];
    const fast = await runCli(['convert', ...files, '--to', 'vtt', '--out-dir', join(root, 'fast'), '--jobs', '1']);
    const oclif = await runCli(['convert', '--to', 'vtt', '--out-dir', join(root, 'oclif'), '--jobs', '1', '--', ...files]);
    expect(oclif.code).toBe(fast.code);
    expect(oclif.stderr.replaceAll(join(root, 'oclif'), 'OUT')).toBe(fast.stderr.replaceAll(join(root, 'fast'), 'OUT'));
    expect(oclif.stdout.replaceAll(join(root, 'oclif'), 'OUT')).toBe(fast.stdout.replaceAll(join(root, 'fast'), 'OUT'));
    expect(readFileSync(join(root, 'oclif', 'a.vtt')).equals(readFileSync(join(root, 'fast', 'a.vtt')))).toBe(true);
  });

  it('takes what a shell glob expands to, and --jobs 1 converts one at a time', async () => {
    const { root, out } = caseWith({ 'x.srt': SRT, 'y.srt': SRT, 'z.srt': SRT, 'notes.txt': 'not subtitles' });
    const shell = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('sh', ['-c', `"${process.execPath}" "${ANNOT_BIN}" convert in/*.srt --to srt --out-dir out --jobs 1`], { cwd: root });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(shell.stderr).toBe('wrote 3 files into out (srt)\n');
    expect(shell.code).toBe(0);
    expect(filesUnder(out)).toEqual(['x.srt', 'y.srt', 'z.srt']);
    // One at a time: they finish in the order given.
    expect(jsonLines(shell.stdout).map((line) => line.input)).toEqual(['in/x.srt', 'in/y.srt', 'in/z.srt']);
  });

  it('with --recursive converts the files of a folder and keeps their sub-folders; other files are skipped and named', async () => {
    const { input, out } = caseWith({ 'a.srt': SRT, 'deep/er/b.srt': SRT, 'deep/c.TXT': 'x', '.hidden.srt': SRT, 'README': 'read me' });
    const result = await runCli(['convert', input, '--recursive', '--to', 'vtt', '--out-dir', out]);
    expect(result.code).toBe(0);
    expect(filesUnder(out)).toEqual(['a.vtt', 'deep/er/b.vtt']);
    expect(result.stderr).toBe(`skipped 2 files whose extension no format claims: ${join(input, 'README')}, ${join(input, 'deep/c.TXT')}\nwrote 2 files into ${out} (webvtt)\n`);
    expect(jsonLines(result.stdout).filter((line) => line.skipped !== undefined).map((line) => line.input)).toEqual([join(input, 'README'), join(input, 'deep/c.TXT')]);
  });

  it('with --recursive into a folder inside the input folder, does not convert its own outputs', async () => {
    const { input } = caseWith({ 'a.srt': SRT, 'build/old.vtt': 'WEBVTT\n' });
    const result = await runCli(['convert', input, '--recursive', '--to', 'vtt', '--out-dir', join(input, 'build')]);
    expect(result.stderr).toBe(`wrote 1 file into ${join(input, 'build')} (webvtt)\n`);
    expect(filesUnder(join(input, 'build'))).toEqual(['a.vtt', 'old.vtt']);
  });

  it('refuses a folder without --recursive in one line with the hint, and writes nothing', async () => {
    const { input, out } = caseWith({ 'a.srt': SRT });
    const result = await runCli(['convert', input, '--to', 'vtt', '--out-dir', out]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`annot: ${input} is a folder: add --recursive to convert the files inside it [ANNOT_USAGE]\n`);
    expect(existsSync(out)).toBe(false);
  });

  it('converts the good inputs, names the bad one with its error, exits 1 and leaves nothing half-written', async () => {
    const { input, out } = caseWith({ 'a.srt': SRT, 'bad.srt': BAD_SRT, 'c.srt': SRT });
    const missing = join(input, 'missing.srt');
    const result = await runCli(['convert', join(input, 'a.srt'), join(input, 'bad.srt'), missing, join(input, 'c.srt'), '--to', 'vtt', '--out-dir', out]);
    expect(result.code).toBe(1);
    expect(filesUnder(out)).toEqual(['a.vtt', 'c.vtt']);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines).toContain(`annot: ${join(input, 'bad.srt')}:1:1: expected a sequence number or a timing line like "00:00:01,000 --> 00:00:02,000", found "garbage" [ANNOT_FORMAT_PARSE]`);
    expect(lines.find((line) => line.includes('missing.srt'))).toMatch(new RegExp(`^annot: ${missing}: .* \\[ANNOT_SYSTEM_ENOENT\\]$`));
    expect(lines[2]).toBe(`annot: 2 of 4 inputs failed (named above); the other 2 written into ${out} (webvtt) [ANNOT_CONVERT_BATCH_FAILED]`);
    const failed = jsonLines(result.stdout).filter((line) => line.error !== undefined);
    expect(failed.map((line) => [line.input, line.code]).sort()).toEqual([[join(input, 'bad.srt'), 'ANNOT_FORMAT_PARSE'], [missing, 'ANNOT_SYSTEM_ENOENT']]);
  });

  it('refuses two inputs that would write the same output before anything is written', async () => {
    const { input, out } = caseWith({ 'a.srt': SRT, 'sub/a.srt': SRT, 'b.srt': SRT });
    const result = await runCli(['convert', join(input, 'b.srt'), join(input, 'a.srt'), join(input, 'sub/a.srt'), '--to', 'vtt', '--out-dir', out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`annot: ${join(input, 'a.srt')} and ${join(input, 'sub/a.srt')} would both write ${join(out, 'a.vtt')}; nothing was written [ANNOT_CONVERT_OUTPUT_CLASH]\n`);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses an output that would replace its input', async () => {
    const { input } = caseWith({ 'a.srt': SRT });
    const result = await runCli(['convert', join(input, 'a.srt'), '--to', 'srt', '--out-dir', input]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`annot: ${join(input, 'a.srt')} would write ${join(input, 'a.srt')}, which is an input; nothing was written [ANNOT_CONVERT_OUTPUT_CLASH]\n`);
    expect(readFileSync(join(input, 'a.srt'), 'utf8')).toBe(SRT);
  });

  it.each([
    [['--out-dir', 'out'], 'annot: converting into --out-dir needs --to FORMAT (the format of every output) [ANNOT_USAGE]'],
    [['--jobs', '2'], 'annot: --jobs goes with --out-dir DIR: annot convert IN... --out-dir DIR --to FORMAT [ANNOT_USAGE]'],
    [['extra.vtt'], 'annot: convert takes INPUT OUTPUT (3 arguments given); to convert several files: annot convert IN... --out-dir DIR --to FORMAT [ANNOT_USAGE]'],
  ])('refuses %j as a usage error', async (flags, message) => {
    const { input, root } = caseWith({ 'a.srt': SRT });
    const result = await runCli(['convert', join(input, 'a.srt'), join(root, 'a.vtt'), ...flags], { cwd: root });
    expect(result.stderr).toBe(`${message}\n`);
    expect(result.code).toBe(2);
    expect(filesUnder(root)).toEqual(['in/a.srt']);
  });

  it('refuses --jobs 0 as oclif does', async () => {
    const { input, out } = caseWith({ 'a.srt': SRT });
    const result = await runCli(['convert', join(input, 'a.srt'), '--to', 'vtt', '--out-dir', out, '--jobs', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--jobs/);
    expect(existsSync(out)).toBe(false);
  });

  // A terminal needs a pseudo-terminal: util-linux `script` gives the child one for stdout and stderr.
  const hasScript = spawnSync('script', ['--version']).status === 0;
  (hasScript ? it : it.skip)('draws one progress bar on a terminal instead of JSON lines', async () => {
    const { input, out } = caseWith({ 'a.srt': SRT, 'b.srt': SRT, 'bad.srt': BAD_SRT });
    const command = [process.execPath, ANNOT_BIN, 'convert', input, '--recursive', '--to', 'vtt', '--out-dir', out].map((part) => `'${part}'`).join(' ');
    const result = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', env: { ...process.env, COLUMNS: '120' } });
    expect(result.status).toBe(1);
    const text = result.stdout.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g'), '');
    expect(text).toContain('3/3 files | 1 failed');
    expect(text).toContain(`annot: ${join(input, 'bad.srt')}:1:1: expected a sequence number`);
    expect(text).toContain(`annot: 1 of 3 inputs failed (named above); the other 2 written into ${out} (webvtt) [ANNOT_CONVERT_BATCH_FAILED]`);
    expect(text).not.toContain('{"input"');
    expect(filesUnder(out)).toEqual(['a.vtt', 'b.vtt']);
  });

  it('on Ctrl-C removes the temporary of the conversion under way and says what it had written', async () => {
    const { input, out } = caseWith({ 'a.srt': SRT, 'b.srt': SRT, 'z-big.srt': srtOfCues(150_000) });
    const running = startCli(['convert', join(input, 'a.srt'), join(input, 'b.srt'), join(input, 'z-big.srt'), '--to', 'vtt', '--out-dir', out, '--jobs', '1']);
    running.child.stdin.end();
    const writingBig = () => existsSync(out) && readdirSync(out).some((entry) => entry.startsWith('.z-big.vtt.') && sizeOf(join(out, entry)) > 0);
    await waitFor(writingBig, 'the big conversion writing its temporary file');
    // Frozen while the signal lands, so it lands mid-write whatever the machine's speed.
    running.child.kill('SIGSTOP');
    running.child.kill('SIGINT');
    running.child.kill('SIGCONT');
    expect(await running.exited).toEqual({ code: 130, signal: null });
    expect(running.stderr()).toBe(`annot: interrupted after writing ${join(out, 'a.vtt')}, ${join(out, 'b.vtt')}\n`);
    expect(filesUnder(out)).toEqual(['a.vtt', 'b.vtt']);
  });
});

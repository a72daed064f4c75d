import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ANNOT_BIN, runCli } from '../support/run-cli.js';
import { tempDir, writeSampleAnnot } from '../support/sample-annot.js';

const fixture = (path: string) => fileURLToPath(new URL(`../../fixtures/${path}`, import.meta.url));
const DROPPED_BLOCK = fixture('validate/dropped-block.srt');
const TALK = fixture('talk.vtt');

describe('annot convert: findings, loss reports and counts', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it('prints the reader findings on stderr and still converts', async () => {
    const out = join(dir, 'kept.vtt');
    const result = await runCli(['convert', DROPPED_BLOCK, out]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`${DROPPED_BLOCK}:5:1: warning: block dropped: it has no timing line like "00:00:01,000 --> 00:00:02,000" (it starts "no timing line here") [block_dropped]`);
    expect(existsSync(out)).toBe(true);
  });

  it.each(['vtt', 'annot', 'eaf', 'TextGrid'])('prints tier names that look mistyped, as validate does, into .%s (streamed or whole), and fails on them under --strict', async (ext) => {
    const typos = fixture('validate/tier-typo.TextGrid');
    const out = join(dir, `typo.${ext}`);
    const result = await runCli(['convert', typos, out]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`${typos}:71:16: warning: tiers "words" and "Words" differ only by case, spaces or punctuation: a typo? (rename one if they are meant to be one tier) [tier_name_near_duplicate]`);
    expect(result.stderr).toContain(`${typos}:81:16: warning: tiers "phones" and "phomes" differ by one letter`);
    expect(result.stderr.match(/tier_name_near_duplicate/g)).toHaveLength(2);
    expect(existsSync(out)).toBe(true);
    const strict = await runCli(['convert', typos, join(dir, `typo-strict.${ext}`), '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('2 findings (above) under --strict; nothing was written');
    expect(existsSync(join(dir, `typo-strict.${ext}`))).toBe(false);
  });

  it('fails under --strict with exit 1 and writes nothing', async () => {
    const result = await runCli(['convert', DROPPED_BLOCK, join(dir, 'strict.vtt'), '--strict']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[block_dropped]');
    expect(result.stderr).toContain('under --strict; nothing was written');
    expect(readdirSync(dir).filter((name) => name.startsWith('strict') || name.includes('.strict.vtt'))).toEqual([]);
  });

  it('fails under --strict into a .annot file too, leaving no file', async () => {
    const result = await runCli(['convert', DROPPED_BLOCK, join(dir, 'strict.annot'), '--strict']);
    expect(result.code).toBe(1);
    expect(readdirSync(dir).filter((name) => name.includes('strict'))).toEqual([]);
  });

  it('names only what the source had: no provenance loss for an SRT or WebVTT source', async () => {
    const result = await runCli(['convert', TALK, join(dir, 'talk.srt')]);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('provenance');
    expect(result.stderr).toContain('wrote');
    const back = await runCli(['convert', DROPPED_BLOCK, join(dir, 'dropped.vtt')]);
    expect(back.stderr).not.toContain('provenance');
  });

  it('still names provenance lost from a .annot store, which really has it', async () => {
    const sample = join(dir, 'sample.annot');
    await writeSampleAnnot(sample);
    const result = await runCli(['convert', sample, join(dir, 'sample.srt')]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('srt keeps no provenance: dropped for 5 annotations');
  });

  it('counts what the output holds, in the right singular and plural', async () => {
    const sample = join(dir, 'counted.annot');
    await writeSampleAnnot(sample); // 6 annotations: 5 timed words, 1 note on another annotation
    const result = await runCli(['convert', sample, join(dir, 'counted.vtt')]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('webvtt keeps no symbolic annotations: dropped for 1 annotation\n');
    expect(result.stderr).toMatch(/wrote .*counted\.vtt \(webvtt\): 5 annotations in /);
    const one = await runCli(['convert', fixture('web_annotation/single.json'), join(dir, 'single.srt')]);
    expect(one.code).toBe(0);
    expect(one.stderr).toMatch(/wrote .*single\.srt \(srt\): 1 annotation in 1 tier\n/);
  }, 90_000);

  it('exits 0 when the reader of standard output goes away after the first line (`| head -1`)', async () => {
    const big = join(dir, 'big.vtt');
    const cue = (i: number) => `${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000`;
    writeFileSync(big, 'WEBVTT\n\n' + Array.from({ length: 3000 }, (_, i) => `00:${cue(i)} --> 00:${cue(i)}\nline ${i} of a long file\n`).join('\n'));
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, [ANNOT_BIN, 'convert', big, '-', '--to', 'srt'], { stdio: ['ignore', 'pipe', 'ignore'] });
      child.stdout.once('data', () => child.stdout.destroy());
      child.on('error', reject);
      child.on('close', resolve);
    });
    expect(code).toBe(0);
  }, 120_000);
});

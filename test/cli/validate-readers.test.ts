import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../support/run-cli.js';

/**
 * The broken files of issue 13 that `annot validate` used to call valid. Each reader reports its
 * finding (built on the vtt and formats branches); these tests check that validate surfaces it
 * with its code, position and severity, and exits accordingly.
 */

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/validate/${name}`, import.meta.url));

interface JsonFinding {
  code: string;
  severity: string;
  line?: number;
}

async function validateJson(name: string, extra: string[] = []) {
  const result = await runCli(['validate', fixture(name), '--format', 'json', ...extra]);
  return { code: result.code, report: JSON.parse(result.stdout) as { findings: JsonFinding[]; error_count: number; warning_count: number } };
}

describe('annot validate reports what the readers found', () => {
  const work = mkdtempSync(join(tmpdir(), 'annot-validate-readers-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it.each([['cue-end-before-start.vtt'], ['cue-end-before-start.srt']])('%s: a cue whose end precedes its start is an error on its line (exit 1)', async (name) => {
    const { code, report } = await validateJson(name);
    expect(code).toBe(1);
    expect(report.findings).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'cue_end_before_start', severity: 'error', line: 6 })]));
  });

  it('a TextGrid IntervalTier with overlapping intervals is an error (exit 1)', async () => {
    const { code, report } = await validateJson('overlapping-intervals.TextGrid');
    expect(code).toBe(1);
    expect(report.findings).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'tier_overlap', severity: 'error' })]));
  });

  it('a TextGrid with a character after a closing quote is refused as Praat refuses it, by validate and by convert (which writes nothing)', async () => {
    const validated = await runCli(['validate', fixture('text-after-quote.TextGrid')]);
    expect(validated.code).toBe(1);
    expect(validated.stdout).toContain('text-after-quote.TextGrid:18:24: error: expected whitespace after the closing quote');
    const out = join(work, 'out.srt');
    const converted = await runCli(['convert', fixture('text-after-quote.TextGrid'), out]);
    expect(converted.code).not.toBe(0);
    expect(converted.stderr).toContain('text-after-quote.TextGrid:18:24: expected whitespace after the closing quote');
    expect(existsSync(out)).toBe(false);
  });

  it("an EAF whose REF_ANNOTATIONs point past their tier's PARENT_REF (SLEXIL's inferno) converts with a warning; --strict refuses it", async () => {
    const inferno = fileURLToPath(new URL('../../fixtures/eaf/slexil_inferno-threeLines.eaf', import.meta.url));
    const validated = await runCli(['validate', inferno]);
    expect(validated.code).toBe(0);
    expect(validated.stdout).toContain('[parent_ref_mismatch]');
    expect((await runCli(['validate', inferno, '--strict'])).code).toBe(1);
    const dir = work;
    const converted = await runCli(['convert', inferno, join(dir, 'out.annot')]);
    expect(converted.code).toBe(0);
    expect(converted.stderr).toContain('warning: tier "morpheme-gloss" has PARENT_REF="italianSpeech"');
    const strict = await runCli(['convert', inferno, join(dir, 'strict.annot'), '--strict']);
    expect(strict.code).not.toBe(0);
    expect(existsSync(join(dir, 'strict.annot'))).toBe(false);
  });

  it('a WebVTT text block dropped after a blank line is a warning (exit 1 under --strict)', async () => {
    const { code, report } = await validateJson('malformed.vtt');
    expect(code).toBe(0);
    expect(report.findings).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'block_dropped', severity: 'warning' })]));
    expect((await validateJson('malformed.vtt', ['--strict'])).code).toBe(1);
  });

  it('a Web Annotation whose FragmentSelector is empty is reported (exit 1 under --strict)', async () => {
    const { code, report } = await validateJson('empty-selector.json', ['--strict']);
    expect(code).toBe(1);
    expect(report.findings).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'empty_selector' })]));
  });
});

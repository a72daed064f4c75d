import { join } from 'node:path';
import { runCli } from '../support/run-cli.js';
import { tempDir, writeSampleAnnot } from '../support/sample-annot.js';

describe('annot query', () => {
  const { dir, cleanup } = tempDir();
  const file = join(dir, 'talk.annot');
  beforeAll(() => writeSampleAnnot(file));
  afterAll(cleanup);

  const ids = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { id: string }).id.slice(-1));

  it('prints every annotation as one wire-form JSON object per line, symbolic ones included', async () => {
    const result = await runCli(['query', file]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatchObject({
      id: '00000000-0000-4000-8000-000000000001',
      tier: 'words',
      reference: { kind: 'media', asset_id: 'talk.wav', interval: { start: { v: 0, r: 1000 }, end: { v: 500, r: 1000 } } },
      body: { text: 'hello' },
      body_schema_uri: 'annot://schema/word/v1',
    });
    expect(lines[5].reference).toEqual({ kind: 'annotation', target_id: '00000000-0000-4000-8000-000000000001' });
  });

  it('with a window prints only the interval annotations that intersect it, exactly at the given decimals', async () => {
    const result = await runCli(['query', file, '--start', '0.5', '--end', '10']);
    expect(result.code).toBe(0);
    // [0, 0.5) only meets the window; [10, 11) starts at its exclusive end: neither intersects.
    expect(ids(result.stdout)).toEqual(['2', '3']);
  });

  it('compares across rates: a word at 48 kHz is found by a millisecond window', async () => {
    const result = await runCli(['query', file, '--start', '11.5', '--end', '11.6']);
    expect(ids(result.stdout)).toEqual(['5']);
  });

  it('takes any Allen relation, the annotation being the left operand', async () => {
    const during = await runCli(['query', file, '--start', '4', '--end', '7', '--relation', 'during']);
    expect(ids(during.stdout)).toEqual(['3']);
    const meets = await runCli(['query', file, '--start', '0.5', '--end', '2', '--relation', 'meets']);
    expect(ids(meets.stdout)).toEqual(['1']);
  });

  it('filters by tier', async () => {
    const result = await runCli(['query', file, '--tier', 'notes']);
    expect(ids(result.stdout)).toEqual(['6']);
  });

  it('rejects half a window with exit 1 and a message naming both flags', async () => {
    const result = await runCli(['query', file, '--start', '1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--start and --end must be given together');
    expect(result.stdout).toBe('');
  });

  it('rejects an unknown relation with the list of valid names', async () => {
    const result = await runCli(['query', file, '--start', '0', '--end', '1', '--relation', 'nearby']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('met_by');
  });

  it('reports a missing file in one line with exit 1', async () => {
    const result = await runCli(['query', join(dir, 'missing.annot')]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('missing.annot');
  });

  it('treats a malformed flag value as a usage error (exit 2)', async () => {
    const result = await runCli(['query', file, '--rate', 'fast']);
    expect(result.code).toBe(2);
  });
});

import { join } from 'node:path';
import { makeAnnotation, mediaRef } from '../../src/model/annotation.js';
import { makeTier } from '../../src/model/tier.js';
import { annotationWireJson } from '../../src/model/wire-json.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
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

  it('refuses a tier the file does not have, naming the tiers there are and the nearest', async () => {
    for (const args of [['--tier', 'word'], ['--tier', 'word', '--start', '0', '--end', '10']]) {
      const result = await runCli(['query', file, ...args]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`${file} has no tier "word"; did you mean "words"? (tiers: words, notes)`);
      expect(result.stdout).toBe('');
    }
  });

  it('streams a read of several pages whole and in order: a window, a listing and a tier, in each time style', async () => {
    const big = join(dir, 'big.annot');
    const store = await SqliteStore.open(big, { create: true });
    const made = Array.from({ length: 2500 }, (_, i) => makeAnnotation({
      tier: i % 5 === 0 ? 'lines' : 'words',
      reference: mediaRef('talk.wav', new TimeInterval(new RationalTime((i * 7919) % 2500, 100), new RationalTime(((i * 7919) % 2500) + 30, 100))),
      body: { text: `w${i}` },
      body_schema_uri: 'annot://schema/word/v1',
      provenance: { was_generated_by: 'user:test', generated_at_time: new RationalTime(1_700_000_000_000, 1000) },
    }));
    try {
      await store.addTier(makeTier({ name: 'words' }));
      await store.addTier(makeTier({ name: 'lines' }));
      await store.addMany(made);
      const window = new TimeInterval(new RationalTime(0, 1), new RationalTime(30, 1));
      const expected = async (query: Parameters<SqliteStore['read']>[0]) => (await store.read(query, { limit: 10_000, form: 'objects' })).items;
      const listing = await runCli(['query', big]);
      expect(listing.stdout).toBe(made.map((a) => annotationWireJson(a, { seconds: true }) + '\n').join(''));
      const windowed = await runCli(['query', big, '--start', '0', '--end', '30']);
      expect(windowed.stdout).toBe((await expected({ window })).map((a) => annotationWireJson(a, { seconds: true }) + '\n').join(''));
      expect(windowed.stdout.split('\n')).toHaveLength(2501);
      const ticks = await runCli(['query', big, '--start', '0', '--end', '30', '--tier', 'lines', '--time', 'ticks']);
      expect(ticks.stdout).toBe((await expected({ window, tier: 'lines' })).map((a) => annotationWireJson(a) + '\n').join(''));
    } finally {
      await store.close();
    }
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

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeAnnotation, mediaRef } from '../../src/model/annotation.js';
import { makeTier } from '../../src/model/tier.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { runCli } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';

/**
 * The worked example. Annotator A (an .annot file, tier "words") and annotator B (an SRT file):
 *
 *   A: a1 [0, 2) x    a2 [2, 4) y    a3 [4, 6) x      a4 [8, 9) y
 *   B: b1 [0, 1.5) x  b2 [2, 4) y    b3 [4.5, 6) y    b4 [10, 11) y
 *
 * Overlaps: a1–b1 1.5 s, a2–b2 2 s, a3–b3 1.5 s; nothing else overlaps. Greedy by overlap takes
 * a2–b2, then a1–b1 and a3–b3 (the tie goes to the earlier a). So matched 3, missing 1 (a4),
 * extra 1 (b4). Matched labels: A x y x, B x y y.
 *
 * Cohen's κ: n = 3, agreed 2, A's counts x2 y1, B's x1 y2, Σ a_c·b_c = 2·1 + 1·2 = 4,
 *   κ = (n·agreed − 4) / (n² − 4) = (6 − 4) / (9 − 4) = 2/5.
 * Krippendorff's α: units (x,x) (y,y) (x,y) give o_xx = 2, o_yy = 2, o_xy = o_yx = 1; n_x = n_y = 3,
 *   n = 6; α = 1 − (n − 1)·(o_xy + o_yx) / (n² − Σ n_c²) = 1 − 5·2 / (36 − 18) = 4/9.
 * Mean interval IoU: a1–b1 1.5/2, a2–b2 2/2, a3–b3 1.5/2, mean (0.75 + 1 + 0.75) / 3 = 5/6.
 * Boundary IoU: edges A {0,2,4,6,8,9}, B {0,1.5,2,4,4.5,6,10,11}; extent 0..11, so the band
 *   half-width is d = 11/50 = 0.22 and no two windows of one side touch. Band A is 6·0.44 = 2.64,
 *   band B 8·0.44 = 3.52, they share the windows of 0, 2, 4 and 6: 4·0.44 = 1.76; the union is
 *   2.64 + 3.52 − 1.76 = 4.4, and 1.76 / 4.4 = 2/5.
 */
const A = [['0', '2', 'x'], ['2', '4', 'y'], ['4', '6', 'x'], ['8', '9', 'y']];
const B = [['0', '1.5', 'x'], ['2', '4', 'y'], ['4.5', '6', 'y'], ['10', '11', 'y']];
const EXPECTED = { matched: 3, missing: 1, extra: 1, cohen_kappa: 2 / 5, krippendorff_alpha: 4 / 9, mean_interval_iou: 5 / 6, boundary_iou: 2 / 5 };

const srtTime = (seconds: string) => {
  const ms = Math.round(Number(seconds) * 1000);
  return `00:00:${String(Math.floor(ms / 1000)).padStart(2, '0')},${String(ms % 1000).padStart(3, '0')}`;
};

async function writeAnnot(path: string, tiers: Record<string, string[][]>): Promise<void> {
  const store = await SqliteStore.open(path, { create: true });
  try {
    for (const [tier, segments] of Object.entries(tiers)) {
      await store.addTier(makeTier({ name: tier }));
      await store.addMany(segments.map(([start, end, text]) => makeAnnotation({
        tier,
        reference: mediaRef('talk.wav', TimeInterval.fromSeconds(start, end, 1000)),
        body: { text },
        body_schema_uri: 'annot://schema/label/v1',
        provenance: { was_generated_by: 'user:test', generated_at_time: new RationalTime(0, 1000) },
      })));
    }
  } finally {
    await store.close();
  }
}

describe('annot agree', () => {
  const { dir, cleanup } = tempDir();
  const a = join(dir, 'anna.annot');
  const b = join(dir, 'ben.srt');
  const both = join(dir, 'both.annot');
  beforeAll(async () => {
    await writeAnnot(a, { words: A });
    await writeAnnot(both, { anna: A, ben: B });
    writeFileSync(b, B.map(([start, end, text], i) => `${i + 1}\n${srtTime(start)} --> ${srtTime(end)}\n${text}\n`).join('\n'));
  });
  afterAll(cleanup);

  const expectWorkedExample = (tier: Record<string, unknown>) => {
    expect(tier).toMatchObject({ matched: EXPECTED.matched, missing: EXPECTED.missing, extra: EXPECTED.extra });
    for (const key of ['cohen_kappa', 'krippendorff_alpha', 'mean_interval_iou', 'boundary_iou'] as const) expect([key, tier[key]]).toEqual([key, expect.closeTo(EXPECTED[key], 12)]);
  };

  it('measures two files of different formats on the worked example (--json)', async () => {
    const result = await runCli(['agree', a, b, '--tier', 'words', '--tier', 'subtitles', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(doc).toMatchObject({ a, b, matching: 'maximal-overlap' });
    expect(doc.tiers).toHaveLength(1);
    expect(doc.tiers[0]).toMatchObject({ tier_a: 'words', tier_b: 'subtitles' });
    expectWorkedExample(doc.tiers[0]);
  });

  it('measures two tiers of one file, and prints a table per tier', async () => {
    const json = await runCli(['agree', both, '--tier', 'anna', '--tier', 'ben', '--json']);
    expect(json.code).toBe(0);
    expectWorkedExample(JSON.parse(json.stdout).tiers[0]);
    const table = await runCli(['agree', both, '--tier', 'anna', '--tier', 'ben']);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')).toEqual([
      'tier        matched  missing  extra  kappa  alpha  mean IoU  boundary IoU',
      'anna / ben        3        1      1  0.400  0.444     0.833         0.400',
      '',
    ]);
  });

  it('compares every tier of either file by name, a tier missing on one side counting as all missing or extra', async () => {
    const result = await runCli(['agree', a, both, '--json']);
    expect(result.code).toBe(0);
    const tiers = Object.fromEntries(JSON.parse(result.stdout).tiers.map((t: { tier_a: string }) => [t.tier_a, t]));
    expect(Object.keys(tiers).sort()).toEqual(['anna', 'ben', 'words']);
    expect(tiers.words).toMatchObject({ matched: 0, missing: 4, extra: 0, cohen_kappa: null, boundary_iou: 0 });
    expect(tiers.ben).toMatchObject({ matched: 0, missing: 0, extra: 4 });
  });

  it('is a usage error (exit 2) to give one file without two tiers', async () => {
    const result = await runCli(['agree', a]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--tier T1 --tier T2');
  });
});

import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { describeWithPostgres, POSTGRES_URL, postgresUnreachable } from '../support/postgres.js';
import { runCli } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';

/**
 * What annot keeps (a `.annot` file, a database project, a served file) holds names and texts to
 * the model's limits; a conversion between formats and a query keep nothing, and read the file as
 * it is. A refusal is one line naming the file and the annotation's place in it.
 */
describe('limits on what an import keeps', () => {
  const { dir, cleanup } = tempDir('annot-limits-');
  const big = join(dir, 'big-cue.vtt');
  writeFileSync(big, `WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhello\n\n00:00:03.000 --> 00:00:04.000\n${'x'.repeat(2 * 1024 * 1024)}\n`);
  afterAll(cleanup);

  it('refuses a 2 MB cue going into a .annot file, in one line naming the file and the annotation, and writes nothing', async () => {
    const out = join(dir, 'big.annot');
    const result = await runCli(['convert', big, out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`annot: ${big}: annotation 2 (tier "cues"): body: at most 1048576 characters as JSON text (1 MiB); this body is longer [ANNOT_INVALID_ANNOTATION]\n`);
    expect(existsSync(out)).toBe(false);
  });

  it('still converts it to another format and queries it: nothing is kept', async () => {
    const srt = await runCli(['convert', big, join(dir, 'big.srt')]);
    expect(srt.code).toBe(0);
    const query = await runCli(['query', big]);
    expect(query.code).toBe(0);
    expect(query.stdout.trim().split('\n')).toHaveLength(2);
  });

  it('annot serve refuses to serve (and so to save back) a file past the limits, in one line', async () => {
    const result = await runCli(['serve', big, '--port', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^annot: \S*big-cue\.vtt: annotation 2 \(tier "cues"\): body: at most 1048576 characters .*\[ANNOT_INVALID_ANNOTATION\]\n$/);
  });
});

describeWithPostgres('limits on an import into a PostgreSQL project', await postgresUnreachable(), () => {
  const { dir, cleanup } = tempDir('annot-limits-pg-');
  afterAll(cleanup);

  it('refuses a tier name past 256 characters before the project is made', async () => {
    const path = join(dir, 'long-tier.TextGrid');
    const name = 't'.repeat(300);
    writeFileSync(path, `File type = "ooTextFile"\nObject class = "TextGrid"\n\nxmin = 0\nxmax = 2\ntiers? <exists>\nsize = 1\nitem []:\n    item [1]:\n        class = "IntervalTier"\n        name = "${name}"\n        xmin = 0\n        xmax = 2\n        intervals: size = 1\n        intervals [1]:\n            xmin = 0\n            xmax = 2\n            text = "hi"\n`);
    const project = `jest-limits-${process.pid}`;
    const result = await runCli(['convert', path, `${POSTGRES_URL}?project=${project}`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`annot: ${path}: name: a tier name of at most 256 characters, got 300 [ANNOT_INVALID_TIER]\n`);
    const client = new pg.Client(POSTGRES_URL);
    await client.connect();
    try {
      const { rows } = await client.query("SELECT 1 FROM annot.projects WHERE name = $1", [project]).catch(() => ({ rows: [] }));
      expect(rows).toHaveLength(0);
    } finally {
      await client.end();
    }
  });
});

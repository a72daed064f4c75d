import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { mediaRef, trustedAnnotation } from '../../src/model/annotation.js';
import { makeProvenance } from '../../src/model/provenance.js';
import { makeTier } from '../../src/model/tier.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { HUGE_TEXT, overLimitFiles } from '../support/over-limit-files.js';
import { describeWithPostgres, POSTGRES_URL, postgresUnreachable } from '../support/postgres.js';
import { runCli } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';

/**
 * What annot keeps (a `.annot` file, a database project, a served file) holds names and texts to
 * the model's limits; a conversion between formats and a query keep nothing, and read the file as
 * it is. A refusal is one line naming the file and the place in it
 * (test/service/limit-places.test.ts has every format).
 */
describe('limits on what an import keeps', () => {
  const { dir, cleanup } = tempDir('annot-limits-');
  const big = join(dir, 'big-cue.vtt');
  writeFileSync(big, `WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhello\n\n00:00:03.000 --> 00:00:04.000\n${'x'.repeat(2 * 1024 * 1024)}\n`);
  afterAll(cleanup);

  it('refuses a 2 MB cue going into a .annot file, in one line naming the file and the cue\'s line, and writes nothing', async () => {
    const out = join(dir, 'big.annot');
    const result = await runCli(['convert', big, out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`annot: ${big}:6: body: at most 1048576 characters as JSON text (1 MiB); this body is longer [ANNOT_INVALID_ANNOTATION]\n`);
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
    expect(result.stderr).toMatch(/^annot: \S*big-cue\.vtt:6: body: at most 1048576 characters .*\[ANNOT_INVALID_ANNOTATION\]\n$/);
  });

  it('a reader that holds what it reads to the limits (the first cue, a TextGrid, an EAF) is refused at the place by convert, validate and serve alike', async () => {
    for (const file of overLimitFiles().filter((one) => ['first.vtt', 'tier.TextGrid', 'value.eaf'].includes(one.name))) {
      const path = join(dir, file.name);
      writeFileSync(path, file.content);
      for (const args of [['convert', path, join(dir, `${file.name}.srt`)], ['validate', path], ['serve', path, '--port', '0']]) {
        const result = await runCli(args);
        expect({ args, code: result.code }).toEqual({ args, code: 1 });
        expect(result.stderr.startsWith(`annot: ${path}${file.refusal}`)).toBe(true);
        expect(result.stderr.endsWith(']\n') && result.stderr.split('\n').length === 2).toBe(true);
      }
      expect(existsSync(join(dir, `${file.name}.srt`))).toBe(false);
    }
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
    expect(result.stderr).toBe(`annot: ${path}:11: name: a tier name of at most 256 characters, got 300 [ANNOT_INVALID_TIER]\n`);
    expect(await projectExists(project)).toBe(false);
  });

  it('refuses a .annot holding a body past 1 MiB (written by another tool), naming the file and the annotation, before the project is made', async () => {
    const path = join(dir, 'foreign.annot');
    const store = await SqliteStore.open(path, { create: true });
    const id = '00000000-0000-4000-8000-0000000000aa';
    try {
      await store.addTier(makeTier({ name: 'words' }));
      // The store keeps what it is given: limits are held by what imports into it (loadIntoStore, the service).
      const provenance = makeProvenance({ was_generated_by: 'tool:other', generated_at_time: new RationalTime(0, 1) });
      const big = trustedAnnotation('words', mediaRef('talk.wav', TimeInterval.fromSeconds('0', '1', 1000)), Object.freeze({ text: HUGE_TEXT }), 'annot://schema/word/v1', provenance);
      await store.addMany([Object.freeze({ ...big, id })]);
    } finally {
      await store.close();
    }
    const project = `jest-limits-annot-${process.pid}`;
    const result = await runCli(['convert', path, `${POSTGRES_URL}?project=${project}`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`annot: ${path} (annotation ${id}): body: at most 1048576 characters as JSON text (1 MiB); this body is longer [ANNOT_INVALID_ANNOTATION]\n`);
    expect(await projectExists(project)).toBe(false);
  });
});

async function projectExists(project: string): Promise<boolean> {
  const client = new pg.Client(POSTGRES_URL);
  await client.connect();
  try {
    const { rows } = await client.query('SELECT 1 FROM annot.projects WHERE name = $1', [project]).catch(() => ({ rows: [] }));
    return rows.length > 0;
  } finally {
    await client.end();
  }
}

import Database from 'better-sqlite3';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { annotationRef, makeAnnotation, mediaRef } from '../../src/model/annotation.js';
import { makeTier } from '../../src/model/tier.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { runCli } from '../support/run-cli.js';
import { tempDir, writeSampleAnnot } from '../support/sample-annot.js';

describe('annot validate', () => {
  const { dir, cleanup } = tempDir();
  const good = join(dir, 'good.annot');
  beforeAll(() => writeSampleAnnot(good));
  afterAll(cleanup);

  it('summarises a valid file and exits 0', async () => {
    const result = await runCli(['validate', good]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('valid');
    expect(result.stdout).toContain('6 annotations in 2 tiers');
    expect(result.stdout).toContain('tier words (NONE): 5');
    expect(result.stdout).toContain('asset talk.wav');
  });

  it('prints the summary as one JSON document with --json', async () => {
    const result = await runCli(['validate', good, '--json']);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({
      format: 'annot',
      valid: true,
      annotations: 6,
      time_span: { start: '0', end: '12.5' },
      assets: ['talk.wav'],
      violations: [],
    });
    expect(summary.tiers).toEqual([
      { name: 'words', stereotype: 'NONE', parent: null, annotations: 5 },
      { name: 'notes', stereotype: 'NONE', parent: null, annotations: 1 },
    ]);
    expect(summary.schemas).toEqual([
      { uri: 'annot://schema/label/v1', annotations: 1, registered: true },
      { uri: 'annot://schema/word/v1', annotations: 5, registered: true },
    ]);
  });

  it('names every violating annotation and what is wrong, and exits 1', async () => {
    const bad = join(dir, 'bad.annot');
    const store = await SqliteStore.open(bad, { create: true });
    const provenance = { was_generated_by: 'user:test', generated_at_time: new RationalTime(1, 1) };
    await store.addTier(makeTier({ name: 'lines' }));
    await store.addTier(makeTier({ name: 'words', stereotype: 'INCLUDED_IN', parent: 'lines' }));
    await store.addMany([
      makeAnnotation({ id: '00000000-0000-4000-8000-0000000000a1', tier: 'lines', reference: mediaRef('a', TimeInterval.fromSeconds('0', '5', 1000)), body: { text: 'line' }, body_schema_uri: 'annot://schema/label/v1', provenance }),
      // word/v1 allows no extra fields:
      makeAnnotation({ id: '00000000-0000-4000-8000-0000000000b1', tier: 'words', reference: mediaRef('a', TimeInterval.fromSeconds('1', '2', 1000)), body: { text: 'ok', colour: 'red' }, body_schema_uri: 'annot://schema/word/v1', provenance }),
      // outside every line:
      makeAnnotation({ id: '00000000-0000-4000-8000-0000000000b2', tier: 'words', reference: mediaRef('a', TimeInterval.fromSeconds('6', '7', 1000)), body: { text: 'late' }, body_schema_uri: 'annot://schema/word/v1', provenance }),
    ]);
    await store.close();

    const result = await runCli(['validate', bad, '--json']);
    expect(result.code).toBe(1);
    const summary = JSON.parse(result.stdout);
    expect(summary.valid).toBe(false);
    const problems = summary.violations.map((v: { annotation_id: string; code: string }) => [v.annotation_id.slice(-2), v.code]);
    expect(problems).toEqual(expect.arrayContaining([['b1', 'body_schema'], ['b2', 'outside_parent']]));
    expect(summary.violations.find((v: { code: string }) => v.code === 'body_schema').message).toContain('colour');

    expect(summary.error_count).toBe(2);
    expect(summary.findings.map((f: { code: string; severity: string }) => [f.code, f.severity])).toEqual(
      expect.arrayContaining([['body_schema', 'error'], ['outside_parent', 'error']]),
    );

    const human = await runCli(['validate', bad]);
    expect({ code: human.code, stderr: human.stderr }).toEqual({ code: 1, stderr: '' });
    expect(human.stdout).toContain('INVALID, 2 errors, 0 warnings');
    expect(human.stdout).toMatch(/bad\.annot: error: annotation 00000000-0000-4000-8000-0000000000b2 on tier words: .*\[outside_parent\]/);
  });

  it('reports an annotation referring to an annotation the store lacks as missing_reference (exit 1)', async () => {
    const dangling = join(dir, 'dangling.annot');
    const store = await SqliteStore.open(dangling, { create: true });
    await store.addTier(makeTier({ name: 'notes' }));
    await store.addMany([
      makeAnnotation({ id: '00000000-0000-4000-8000-0000000000c1', tier: 'notes', reference: annotationRef('00000000-0000-4000-8000-0000000000ff'), body: { text: 'x' }, body_schema_uri: 'annot://schema/label/v1', provenance: { was_generated_by: 'user:test', generated_at_time: new RationalTime(1, 1) } }),
    ]);
    await store.close();
    const result = await runCli(['validate', dangling]);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')[0]).toBe(
      `${dangling}: error: annotation 00000000-0000-4000-8000-0000000000c1 on tier notes: refers to annotation 00000000-0000-4000-8000-0000000000ff, which is not in the store [missing_reference]`,
    );
  });

  describe('refuses files that are not .annot stores, in one line, without touching them', () => {
    const cases: Array<[string, (path: string) => void, RegExp]> = [
      ['a text file', (path) => writeFileSync(path, 'hello, I am not a database\n'), /annot/i],
      ['a truncated .annot', (path) => writeFileSync(path, readFileSync(good).subarray(0, 1000)), /annot|truncated|corrupt|malformed/i],
      [
        'another SQLite database',
        (path) => {
          const db = new Database(path);
          db.exec('CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)');
          db.close();
        },
        /annot/i,
      ],
      [
        'a newer schema version',
        (path) => {
          copyFileSync(good, path);
          const db = new Database(path);
          db.prepare("UPDATE meta SET value = '999' WHERE key = 'schema_version'").run();
          db.close();
        },
        /999|newer/i,
      ],
    ];
    it.each(cases)('%s', async (_name, make, pattern) => {
      const path = join(dir, `broken-${Math.random().toString(36).slice(2)}.annot`);
      make(path);
      const before = readFileSync(path);
      const result = await runCli(['validate', path]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(pattern);
      expect(result.stderr).toContain(path);
      expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(readFileSync(path).equals(before)).toBe(true);
    });
  });

  describe('scene files', () => {
    const scene = fileURLToPath(new URL('../../fixtures/scenes/diner.yaml', import.meta.url));
    const lighthouse = fileURLToPath(new URL('../../fixtures/scenes/lighthouse.yaml', import.meta.url));

    it('validates a scene file, exit 0', async () => {
      const result = await runCli(['validate', scene]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('(scene): valid');
    });

    it('warns about a speaker who is no character (rendering skips the beat), and reports a shot naming a missing character as an error', async () => {
      const result = await runCli(['validate', lighthouse]);
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/lighthouse\.yaml:\d+:\d+: warning: beats\[5\]\.speaker: no character named "Harbourmaster"; the beat is skipped \("no character"\) \[unknown_speaker\]/);
      expect(result.stdout).toMatch(/lighthouse\.yaml:\d+:\d+: error: shots\[3\]\.characters\[1\]: no character named "Harbourmaster" .*\[missing_reference\]/);
    });

    it('names the file, the line and the field of a scene error, exit 1', async () => {
      const bad = join(dir, 'bad-scene.yaml');
      writeFileSync(bad, 'title: x\nbeats:\n  - id: b1\n    speeker: Ann\n');
      const result = await runCli(['validate', bad]);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('bad-scene.yaml:4: error: beats[0].speeker: unknown key; did you mean "speaker"? [scene_invalid]');
    });
  });
});

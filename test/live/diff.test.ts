import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeAnnotation, mediaRef } from '../../src/model/annotation.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { runCli } from '../support/run-cli.js';
import { tempDir, writeSampleAnnot } from '../support/sample-annot.js';

const lines = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));

describe('annot diff', () => {
  const { dir, cleanup } = tempDir();
  const before = join(dir, 'before.annot');
  const after = join(dir, 'after.annot');
  beforeAll(async () => {
    const sample = await writeSampleAnnot(before);
    copyFileSync(before, after);
    const store = await SqliteStore.open(after);
    try {
      const [hello, world, thisWord, is] = sample;
      // retimed (at another rate, to a new value), relabelled, removed, added; "is" re-expressed at
      // another rate with the same value is no change.
      await store.update(makeAnnotation({ ...hello, reference: mediaRef('talk.wav', TimeInterval.fromSeconds('0.1', '0.5', 1000)) }));
      await store.update(makeAnnotation({ ...world, body: { text: 'there' } }));
      await store.delete(thisWord.id);
      await store.update(makeAnnotation({ ...is, reference: mediaRef('talk.wav', new TimeInterval(new RationalTime(10 * 48000, 48000), new RationalTime(11 * 48000, 48000))) }));
      await store.add(makeAnnotation({
        id: '00000000-0000-4000-8000-000000000099',
        tier: 'words',
        reference: mediaRef('talk.wav', TimeInterval.fromSeconds('20', '21', 1000)),
        body: { text: 'new' },
        body_schema_uri: 'annot://schema/word/v1',
        provenance: { was_generated_by: 'user:other', generated_at_time: new RationalTime(5, 1000) },
      }));
    } finally {
      await store.close();
    }
  });
  afterAll(cleanup);

  it('exits 0 with no output when the files are equal', async () => {
    const result = await runCli(['diff', before, before]);
    expect([result.code, result.stdout, result.stderr]).toEqual([0, '', '']);
  });

  it('matches by id and reports each change as one JSON line, exiting 1', async () => {
    const result = await runCli(['diff', before, after, '--json']);
    expect(result.code).toBe(1);
    const changes = lines(result.stdout);
    expect(changes).toHaveLength(4);
    expect(changes).toEqual(expect.arrayContaining([
      { change: 'retimed', id: '00000000-0000-4000-8000-000000000001', tier: 'words', from: { start: { v: 0, r: 1000 }, end: { v: 500, r: 1000 } }, to: { start: { v: 100, r: 1000 }, end: { v: 500, r: 1000 } } },
      { change: 'relabelled', id: '00000000-0000-4000-8000-000000000002', tier: 'words', from: 'world', to: 'there' },
      expect.objectContaining({ change: 'removed', id: '00000000-0000-4000-8000-000000000003', label: 'this' }),
      expect.objectContaining({ change: 'added', id: '00000000-0000-4000-8000-000000000099', label: 'new', reference: expect.objectContaining({ interval: { start: { v: 20000, r: 1000 }, end: { v: 21000, r: 1000 } } }) }),
    ]));
  });

  it('prints one line per change for a person', async () => {
    const result = await runCli(['diff', before, after]);
    expect(result.code).toBe(1);
    expect(result.stdout.trim().split('\n').sort()).toEqual([
      '+ words [20, 21) "new"  (00000000-0000-4000-8000-000000000099)',
      '- words [5, 6) "this"  (00000000-0000-4000-8000-000000000003)',
      '~ relabelled words "world" → "there"  (00000000-0000-4000-8000-000000000002)',
      '~ retimed words [0, 0.5) → [0.1, 0.5)  (00000000-0000-4000-8000-000000000001)',
    ]);
  });

  it('pairs annotations without shared ids by tier, overlap and text (two subtitle files)', async () => {
    const srt = (cues: Array<[string, string, string]>) => cues.map(([start, end, text], i) => `${i + 1}\n${start} --> ${end}\n${text}\n`).join('\n');
    const old = join(dir, 'old.srt');
    const next = join(dir, 'new.srt');
    writeFileSync(old, srt([['00:00:00,000', '00:00:01,000', 'one'], ['00:00:02,000', '00:00:03,000', 'two'], ['00:00:04,000', '00:00:05,000', 'three'], ['00:00:06,000', '00:00:07,000', 'four']]));
    writeFileSync(next, srt([['00:00:00,000', '00:00:01,000', 'one'], ['00:00:02,200', '00:00:03,000', 'two'], ['00:00:04,000', '00:00:05,000', 'THREE'], ['00:00:08,000', '00:00:09,000', 'five']]));
    const result = await runCli(['diff', old, next, '--json']);
    expect(result.code).toBe(1);
    const changes = lines(result.stdout).map(({ change, from, to, label }) => ({ change, from, to, label }));
    expect(changes).toEqual([
      { change: 'retimed', from: { start: { v: 2000, r: 1000 }, end: { v: 3000, r: 1000 } }, to: { start: { v: 2200, r: 1000 }, end: { v: 3000, r: 1000 } }, label: undefined },
      { change: 'relabelled', from: 'three', to: 'THREE', label: undefined },
      { change: 'removed', from: undefined, to: undefined, label: 'four' },
      { change: 'added', from: undefined, to: undefined, label: 'five' },
    ]);
  });

  it('is a usage error (exit 2) without two inputs', async () => {
    expect((await runCli(['diff', before])).code).toBe(2);
  });
});

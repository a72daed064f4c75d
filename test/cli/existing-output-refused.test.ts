import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PostgresStore } from '../../src/store/postgres.js';
import { existingOutput, OUTPUT_EXTENSIONS, stateOf, untouched } from '../support/existing-output.js';
import { oneLine, runToEnd, srtOfCues } from '../support/file-safety.js';
import { overLimitFiles } from '../support/over-limit-files.js';
import { describeWithPostgres, POSTGRES_URL, postgresUnreachable } from '../support/postgres.js';
import { tempDir } from '../support/sample-annot.js';

// A conversion refused for what its input says leaves the output it would have replaced exactly as
// it was: its bytes and its modification time (`make` goes by the time: a refused run that touched
// the file would look like a rebuild), with nothing beside it. Every format annot writes, through
// every path a conversion takes (convert-file.ts: streamed, two passes, a whole document in memory,
// a `.annot` target filled in bulk, a `.annot` source read in place, the batch form), and into a
// PostgreSQL project, which stays as it was. Interruptions: existing-output-interrupted.test.ts;
// a full disk and a read-only folder: existing-output-disk.test.ts.

const { dir, cleanup } = tempDir('annot-existing-refused-');
afterAll(cleanup);
const inputs = join(dir, 'inputs');
mkdirSync(inputs);
/** Not an EAF document: refused by the reader, which reads it whole. */
const BAD_EAF = join(inputs, 'bad.eaf');
writeFileSync(BAD_EAF, '<?xml version="1.0" encoding="UTF-8"?>\n<ANNOTATION_DOCUMENT><oops\n');
/** Two thousand good cues, then one whose time no millisecond count holds: refused once the rest is read (and, streamed, written). */
const BAD_END = join(inputs, 'bad-end.srt');
writeFileSync(BAD_END, `${srtOfCues(2000)}\n2001\n9999999999999:00:00,000 --> 9999999999999:00:01,000\nfar\n`);
/** A timing line SRT does not write (a finding): refused under --strict. */
const FINDING = join(inputs, 'finding.srt');
writeFileSync(FINDING, '1\n00:00:01,000 --> 00:00:02,000\nhi\n\n2\n00:00:03.000 --> 00:00:04.000\nthere\n');

let n = 0;
const folder = () => join(dir, `case-${n++}`);
const lastLine = (stderr: string) => stderr.trimEnd().split('\n').pop();

describe('a refused conversion leaves an existing output as it was, bytes and modification time', () => {
  it.each(OUTPUT_EXTENSIONS)('a malformed EAF into .%s', async (extension) => {
    const existing = await existingOutput(folder(), extension);
    const result = await runToEnd(['convert', BAD_EAF, existing.path]);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toMatch(/^annot: \S*bad\.eaf:3:1 \(ANNOTATION_DOCUMENT\): expected the end of <oops> before the end of the file \[ANNOT_FORMAT_PARSE\]$/);
    expect(stateOf(existing)).toEqual(untouched(existing));
  });

  it.each(OUTPUT_EXTENSIONS)('an SRT refused at its last cue, after the others were read (and, streamed, written), into .%s', async (extension) => {
    const existing = await existingOutput(folder(), extension);
    const result = await runToEnd(['convert', BAD_END, existing.path]);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toBe(`annot: ${BAD_END}:8002:1: expected a timestamp within 2^53 milliseconds [ANNOT_FORMAT_PARSE]`);
    expect(stateOf(existing)).toEqual(untouched(existing));
  });

  it.each(OUTPUT_EXTENSIONS)('a finding under --strict into .%s', async (extension) => {
    const existing = await existingOutput(folder(), extension);
    const result = await runToEnd(['convert', FINDING, existing.path, '--strict']);
    expect(result.code).toBe(1);
    expect(lastLine(result.stderr)).toBe(`annot: ${FINDING}: 1 finding (above) under --strict; nothing was written [ANNOT_STRICT_FINDINGS]`);
    expect(stateOf(existing)).toEqual(untouched(existing));
  });

  it.each([
    ['second.vtt', 'annot', 'a trusted cue held to the limits as a .annot is filled'],
    ['first.vtt', 'srt', 'the first cue, refused by the reader, streamed'],
    ['value.eaf', 'vtt', 'an EAF annotation, refused by the reader, whole'],
    ['label.TextGrid', 'TextGrid', 'a TextGrid label, refused by the reader, in two passes'],
  ])('a value past the limits (%s into .%s: %s)', async (name, extension) => {
    const file = overLimitFiles().find((one) => one.name === name)!;
    const input = join(inputs, name);
    writeFileSync(input, file.content);
    const existing = await existingOutput(folder(), extension);
    const result = await runToEnd(['convert', input, existing.path]);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr).startsWith(`annot: ${input}${file.refusal}`)).toBe(true);
    expect(stateOf(existing)).toEqual(untouched(existing));
  });

  it('an .annot read in place, refused (--tier names no tier of it), into .vtt and .annot', async () => {
    const source = await existingOutput(folder(), 'annot');
    for (const extension of ['vtt', 'annot']) {
      const existing = await existingOutput(folder(), extension);
      const result = await runToEnd(['convert', source.path, existing.path, '--tier', 'nope']);
      expect(result.code).toBe(1);
      expect(oneLine(result.stderr)).toMatch(/\[ANNOT_TIER_NOT_FOUND\]$/);
      expect(stateOf(existing)).toEqual(untouched(existing));
    }
    expect(stateOf(source)).toEqual(untouched(source));
  });

  it('the batch form: the refused input\'s existing output stays as it was, the others are written', async () => {
    const out = folder();
    const existing = await existingOutput(out, 'annot');
    const bad = join(inputs, 'out.eaf');
    writeFileSync(bad, '<?xml version="1.0"?>\n<ANNOTATION_DOCUMENT><oops\n');
    const good = join(inputs, 'good.srt');
    writeFileSync(good, srtOfCues(5));
    const result = await runToEnd(['convert', bad, good, '--out-dir', out, '--to', 'annot']);
    expect(result.code).toBe(1);
    expect(stateOf(existing, ['good.annot'])).toEqual(untouched(existing));
    expect(stateOf(existing).folder).toEqual(['good.annot', 'out.annot']);
  });
});

describeWithPostgres('a refused conversion into a PostgreSQL project leaves the project as it was', await postgresUnreachable(), () => {
  const project = `jest-existing-refused-${process.pid}`;
  const url = `${POSTGRES_URL}?project=${project}`;
  let before: { count: number; clock: number; log: number };

  async function projectState(): Promise<{ count: number; clock: number; log: number }> {
    const store = await PostgresStore.open(url, { create: false });
    try {
      return { count: await store.count(), clock: await store.latestClock(), log: (await store.readOpLog()).length };
    } finally {
      await store.close();
    }
  }

  beforeAll(async () => {
    const previous = join(inputs, 'previous.srt');
    writeFileSync(previous, srtOfCues(3, 'previous'));
    expect((await runToEnd(['convert', previous, url])).code).toBe(0);
    before = await projectState();
    expect(before.count).toBe(3);
  });
  afterAll(async () => (await PostgresStore.open(url)).dropProject());

  it.each([
    ['a malformed EAF', () => [BAD_EAF], /\[ANNOT_FORMAT_PARSE\]$/],
    ['an SRT refused at its last cue', () => [BAD_END], /\[ANNOT_FORMAT_PARSE\]$/],
    ['a finding under --strict', () => [FINDING, '--strict'], /\[ANNOT_STRICT_FINDINGS\]$/],
  ])('%s', async (_what, args, refusal) => {
    const [input, ...flags] = args();
    const result = await runToEnd(['convert', input, url, ...flags]);
    expect(result.code).toBe(1);
    expect(lastLine(result.stderr)).toMatch(refusal);
    expect(await projectState()).toEqual(before);
  });

  it('a value past the limits', async () => {
    const file = overLimitFiles().find((one) => one.name === 'second.vtt')!;
    const input = join(inputs, 'pg-second.vtt');
    writeFileSync(input, file.content);
    const result = await runToEnd(['convert', input, url]);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr).startsWith(`annot: ${input}${file.refusal}`)).toBe(true);
    expect(await projectState()).toEqual(before);
  });
});

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { RationalTime } from '../../src/time/rational-time.js';
import { imscTextViolations } from './imsc-text-profile.js';
import { ms, readFile, texts, writeAs, writtenAndRead, type Read } from './subtitle-formats-helpers.js';

/**
 * TTML documents from other projects (fixtures/ttml, sources in fixtures/SOURCES.md) and what those
 * projects assert about them:
 * - the W3C IMSC test suite (imsc1 and imsc1_1), against ttconv's ISD references
 *   (src/test/resources/isd-references, made by its test_isd.py): at each time the rendering of a
 *   document changes, whether anything shows (`+`) or not (`-`); annot's paragraphs must show
 *   exactly then;
 * - pysubs2's examples (tests/formats/test_ttml.py; its .ass twins are checked in
 *   ass-other-tools.test.ts), converted to WebVTT.
 */
const folder = join(process.cwd(), 'fixtures', 'ttml');

function ttmlFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? ttmlFiles(join(directory, entry.name)) : entry.name.endsWith('.ttml') ? [join(directory, entry.name)] : []));
}

/** ttconv's reference for a suite file: `imsc1/ttml/timing/BasicTiming001.ttml` is `imsc1_ttml_timing_BasicTiming001.txt`. */
function referenceOf(file: string): Array<{ at: number; shows: boolean }> | null {
  const name = relative(join(folder, 'imsc-tests'), file).replace(/\.ttml$/, '').replaceAll('/', '_');
  const path = join(folder, 'ttconv', 'isd-references', `${name}.txt`);
  if (!existsSync(path)) return null;
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const [at, sign] = line.split(' ');
      return { at: Number(at), shows: sign === '+' };
    });
}

/**
 * Documents whose rendering changes with what annot does not model as cue times, each with why:
 * the time ttconv's reference gives is right, and annot's paragraphs still show at the same times
 * except for what the reason says.
 */
const NOT_CUE_TIMES: Readonly<Record<string, string>> = {
  'imsc1/ttml/animation/Animation003.ttml': 'a <set> animation hides the paragraph until 5 s (tts:display)',
  'imsc1/ttml/display/Display002.ttml': 'tts:display="none" hides a paragraph',
  'imsc1/ttml/display/Display004.ttml': 'tts:display="none" hides a paragraph',
  'imsc1/ttml/timing/MediaParTiming002.ttml': 'a <set> animation shows a paragraph hidden by tts:display="none"',
  'imsc1/ttml/timing/MediaSeqTiming007.ttml': 'a <set> animation shows a paragraph hidden by tts:display="none"',
  'imsc1/ttml/region/region-timing.ttml': 'regions have times of their own, which hide their content',
  'imsc1/ttml/timing/BasicTiming010.ttml': 'a <br/> left alone after its text ended keeps the rendering non-empty in ttconv; annot ends the cue with its text',
};

/** Documents where something shows without end: ttconv's last time still shows; annot ends the paragraph at the document's last time (with a warning). */
const INDEFINITE: ReadonlySet<string> = new Set(['imsc1/ttml/timing/BeginEnd002.ttml', 'imsc1/ttml/timing/FixedBeginEnd002.ttml', 'imsc1/ttml/timing/BasicTiming011.ttml', 'imsc1/ttml/timing/BasicTiming012.ttml']);

const shownAt = (read: Read, at: number): boolean => read.annotations.some((annotation) => {
  const [start, end] = ms(annotation);
  return start / 1000 <= at + 1e-9 && at < end / 1000 - 1e-9;
});

describe('the W3C IMSC tests against ttconv\'s ISD references', () => {
  const files = ttmlFiles(join(folder, 'imsc-tests')).filter((file) => referenceOf(file) !== null);

  it('has the references of all 319 documents', () => {
    expect(files).toHaveLength(319);
  });

  it.each(files.map((file) => [relative(join(folder, 'imsc-tests'), file), file]))('%s: something shows exactly when ttconv renders something', async (name, file) => {
    const read = await readFile(file);
    const reference = referenceOf(file) as Array<{ at: number; shows: boolean }>;
    if (NOT_CUE_TIMES[name] !== undefined) return;
    // Without a time at all, or with paragraphs that never end, the last time of the document is as far as annot's cues go.
    const untimed = read.annotations.every((annotation) => ms(annotation)[1] === ms(annotation)[0]) && reference.every((point) => point.at === 0);
    const last = reference[reference.length - 1].at;
    const compared = untimed ? [] : INDEFINITE.has(name) ? reference.filter((point) => point.at < last) : reference;
    expect(compared.map((point) => `${point.at} ${shownAt(read, point.at) ? '+' : '-'}`)).toEqual(compared.map((point) => `${point.at} ${point.shows ? '+' : '-'}`));
  });

  it('only the documents listed as not cue times differ, each for its reason', async () => {
    for (const name of Object.keys(NOT_CUE_TIMES)) {
      const file = join(folder, 'imsc-tests', name);
      const read = await readFile(file);
      const reference = referenceOf(file) as Array<{ at: number; shows: boolean }>;
      expect(reference.some((point) => point.shows !== shownAt(read, point.at))).toBe(true);
    }
  });

  it('TimeExpressions001: each expression of the seq adds up exactly as ttconv computes (24f at 24000/1001 is 1.001 s)', async () => {
    const read = await readFile(join(folder, 'imsc-tests', 'imsc1', 'ttml', 'timing', 'TimeExpressions001.ttml'));
    const ends = read.annotations.map((annotation) => (annotation.reference as { interval: { end: RationalTime } }).interval.end.valueKey());
    // ttconv's reference times (imsc1_ttml_timing_TimeExpressions001.txt), as the fractions they are.
    expect(ends).toEqual(['6/5', '366/5', '21966/5', '4394201/1000', '4396201/1000', '8119201/1000', '2960609/250', '15565671/1000', '115737031/6000', '2275737631/6000', '4435737631/6000']);
    const reference = (referenceOf(join(folder, 'imsc-tests', 'imsc1', 'ttml', 'timing', 'TimeExpressions001.ttml')) ?? []).slice(1).map((point) => point.at);
    expect(ends.map((end) => Number(end.split('/')[0]) / Number(end.split('/')[1]))).toEqual(reference.map((at) => expect.closeTo(at, 6)));
  });

  it('every IMSC 1.1 test document that is valid IMSC 1.1 Text is still valid when written back', async () => {
    let checked = 0;
    for (const file of ttmlFiles(join(folder, 'imsc-tests', 'imsc1_1'))) {
      const source = readFileSync(file, 'utf8');
      // The sources signal their profile their own way; every other rule is checked on them first.
      const own = imscTextViolations(source).filter((violation) => !violation.includes('contentProfiles') && !violation.includes('UTF-8, declared'));
      if (own.length > 0) continue;
      const back = await writtenAndRead((await readFile(file)).store, '.ttml');
      expect([relative(folder, file), imscTextViolations(back.text)]).toEqual([relative(folder, file), []]);
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });
});

describe('pysubs2 tests/data TTML examples, converted to WebVTT', () => {
  it('ttml_example.ttml: eleven cues, <br/> as line breaks, the region and styles kept in the bodies', async () => {
    const read = await readFile(join(folder, 'pysubs2', 'ttml_example.ttml'));
    expect(read.annotations).toHaveLength(11);
    expect(read.annotations[2].body).toMatchObject({ id: 'subtitle3', region: 'subtitleArea', style: 's2', text: 'It is puzzling, why is it\nwe do not see things upside-down?' });
    const { text } = await writeAs(read.store, '.vtt');
    expect(text).toContain('subtitle2\n00:00:05.000 --> 00:00:10.000\nthat the image formed on\nthe Retina should be inverted?\n');
    expect(text.split('-->').length - 1).toBe(11);
  });

  it('ttml_example2.ttml (ttp:frameRate 24, clock times with milliseconds): times to the millisecond', async () => {
    const read = await readFile(join(folder, 'pysubs2', 'ttml_example2.ttml'));
    expect(read.annotations.map(ms).slice(0, 3)).toEqual([[1375, 5750], [5916, 10216], [10418, 15083]]);
    expect(texts(read)[5]).toBe('- Did he tell you what it was about?\n- He did');
  });

  it('ttml_example_apple.ttml: word spans joined into lines, times read as media times (pysubs2 ignore_par_time_offset), the singer as a voice', async () => {
    const read = await readFile(join(folder, 'pysubs2', 'ttml_example_apple.ttml'));
    expect(read.annotations).toHaveLength(38);
    expect(read.findings.map((finding) => finding.code)).toContain('times_absolute');
    const { text } = await writeAs(read.store, '.vtt');
    expect(text).toContain('00:00:19.764 --> 00:00:21.900\n<v Radiohead>When you were here be fore\n');
  });
});

describe('ttconv resources', () => {
  it('referential_styling.ttml: chained styles resolved; the paragraphs keep the styles their divs refer to', async () => {
    const read = await readFile(join(folder, 'ttconv', 'referential_styling.ttml'));
    expect(read.annotations.map((annotation) => [annotation.body.text, annotation.body.style, annotation.body.styling])).toEqual([
      ['one', 's4', undefined],
      ['two', 's3 s1', { 'tts:color': 'black' }],
    ]);
  });

  it('body_only.ttml: a body with no paragraph is a document with no cue', async () => {
    expect((await readFile(join(folder, 'ttconv', 'body_only.ttml'))).annotations).toEqual([]);
  });
});

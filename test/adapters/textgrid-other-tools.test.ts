import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Finding } from '../../src/adapters/finding.js';
import { FormatParseError } from '../../src/adapters/errors.js';
import { load } from '../../src/adapters/textgrid/codec.js';
import type { Annotation } from '../../src/model/annotation.js';
import type { Tier } from '../../src/model/tier.js';
import { RationalTime } from '../../src/time/rational-time.js';
import type { TimeInterval } from '../../src/time/time-interval.js';

/**
 * Other tools' TextGrid test files (fixtures/textgrid, sources in fixtures/SOURCES.md), asserted as
 * those tools' own tests assert them: praatIO's tests/integration/test_tg.py and test_io.py
 * (mary.TextGrid's word tier has 4 labelled entries, 6 with the empty ones; a long file and its
 * short twin read the same; labels with newlines and quotes), and kylebgorman/textgrid's
 * TestReadTextGrid (short and long format: tiers "phone" and "word", first mark "sil" at
 * 1358.8925-1361.8925). Counts, first and last entries were checked against praatIO 6 and
 * textgrid 1.6 reading the same files.
 */
const fixtures = join(process.cwd(), 'fixtures', 'textgrid');
const corpus = join(process.cwd(), 'fixtures', 'corpus', 'textgrid');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'annot-textgrid-others-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function read(path: string, sourceName = path): Promise<{ tiers: Tier[]; annotations: Annotation[]; findings: Finding[] }> {
  const findings: Finding[] = [];
  const document = await load(path, { sourceName, now: RationalTime.now(1000), report: (finding) => void findings.push(finding) });
  const annotations: Annotation[] = [];
  for await (const annotation of document.annotations) annotations.push(annotation);
  return { tiers: [...document.tiers], annotations, findings };
}

/**
 * [start, end, label], times in seconds to the nanosecond: annot reads Praat's 16-digit floats at
 * the finest rate up to 1e9 (see textgrid.test.ts), the other tools as doubles.
 */
type Entry = [number, number, unknown];
const ns = (seconds: number): number => Math.round(seconds * 1e9) / 1e9;
const entry = (annotation: Annotation): Entry => {
  const { start, end } = (annotation.reference as { interval: TimeInterval }).interval;
  return [ns(start.toSeconds()), ns(end.toSeconds()), annotation.body.text];
};
const expected = (start: number, end: number, text: string): Entry => [ns(start), ns(end), text];
const onTier = (annotations: Annotation[], tier: string): Entry[] => annotations.filter((a) => a.tier === tier).map(entry);
const labelled = (entries: Entry[]): Entry[] => entries.filter(([, , text]) => text !== '');

describe("praatIO's test files", () => {
  it('mary.TextGrid: tiers phone, word, pitch; the word tier has 4 labelled entries and 6 with the empty ones (test_tg.py)', async () => {
    const { tiers, annotations } = await read(join(fixtures, 'praatio_mary.TextGrid'));
    expect(tiers.map((tier) => [tier.name, tier.metadata.textgrid_class])).toEqual([
      ['phone', 'IntervalTier'],
      ['word', 'IntervalTier'],
      ['pitch', 'TextTier'],
    ]);
    const word = onTier(annotations, 'word');
    expect(word).toHaveLength(6);
    expect(labelled(word)).toHaveLength(4);
    expect(labelled(word)[0]).toEqual(expected(0.3154201182247563, 0.6755499913498981, 'mary'));
    expect(labelled(word)[3]).toEqual(expected(1.063725623583, 1.5182538944627297, 'barrel'));
    expect(word[0]).toEqual(expected(0, 0.3154201182247563, ''));
    expect(word[5]).toEqual(expected(1.5182538944627297, 1.869687, ''));
    const phone = onTier(annotations, 'phone');
    expect([phone.length, labelled(phone).length]).toEqual([16, 14]);
    expect(labelled(phone)[0]).toEqual(expected(0.3154201182247563, 0.38526757369599995, 'm'));
    expect(labelled(phone)[13]).toEqual(expected(1.3345876591689074, 1.5182538944627297, 'l'));
    const pitch = onTier(annotations, 'pitch');
    expect(pitch).toHaveLength(4);
    expect(pitch[0]).toEqual(expected(0.5978689404359245, 0.5978689404359245, '120'));
    expect(pitch[3]).toEqual(expected(1.2008760470242699, 1.2008760470242699, '104'));
  });

  it('mary_longfile in UTF-16 big-endian reads exactly as the UTF-8 short mary.TextGrid', async () => {
    const short = await read(join(fixtures, 'praatio_mary.TextGrid'));
    const utf16 = await read(join(fixtures, 'praatio_mary_longfile_utf16be.TextGrid'));
    expect(utf16.tiers.map((tier) => tier.name)).toEqual(['phone', 'word', 'pitch']);
    expect(utf16.annotations.map((a) => [a.tier, ...entry(a)])).toEqual(short.annotations.map((a) => [a.tier, ...entry(a)]));
    expect(utf16.findings).toEqual([]);
  });

  it('textgrid_to_merge: the short file and its long twin read the same (test_io.py test_tg_io_long_vs_short)', async () => {
    const short = await read(join(fixtures, 'praatio_textgrid_to_merge.TextGrid'));
    const long = await read(join(fixtures, 'praatio_textgrid_to_merge_longfile.TextGrid'));
    expect(short.tiers.map((tier) => tier.name)).toEqual(['bob', 'mary', 'sarah']);
    expect(long.annotations.map((a) => [a.tier, ...entry(a)])).toEqual(short.annotations.map((a) => [a.tier, ...entry(a)]));
    const counts = (tier: string): [number, number] => [onTier(short.annotations, tier).length, labelled(onTier(short.annotations, tier)).length];
    expect([counts('bob'), counts('mary'), counts('sarah')]).toEqual([[8, 4], [7, 4], [7, 3]]);
    expect(onTier(short.annotations, 'bob')[0]).toEqual(expected(0, 0.7363043110515426, ''));
    expect(onTier(short.annotations, 'bob')[7]).toEqual(expected(9.830417441996643, 10, ''));
  });

  it('bobby_words_with_newlines: labels and tier names with newlines and doubled quotes (test_io.py)', async () => {
    const { tiers, annotations } = await read(join(fixtures, 'praatio_bobby_words_with_newlines.TextGrid'));
    expect(tiers.map((tier) => tier.metadata.textgrid_name)).toEqual(['"word"', 'phrase', '']);
    const word = labelled(onTier(annotations, tiers[0].name));
    expect(word).toHaveLength(4);
    expect(word[0]).toEqual(expected(0.06469123242311078, 0.41156462585, '"""BOBBY"""\nNoun'));
    expect(word[3]).toEqual(expected(0.740816326531, 1.1171482864527198, 'LEDGER\nNoun'));
    expect(labelled(onTier(annotations, 'phrase'))).toEqual([expected(0.06469123242311078, 1.1171482864527198, 'BOBBY RIPPED THE LEDGER')]);
    const points = onTier(annotations, tiers[2].name);
    expect(points).toHaveLength(4);
    expect(points[0]).toEqual(expected(0.23290458517889742, 0.23290458517889742, '133\n"""p1"""\np1'));
    expect(points[3]).toEqual(expected(0.9231714783772174, 0.9231714783772174, '85\np4'));
  });

  it('refuses a truncated copy of mary.TextGrid with the file, line and column', async () => {
    const lines = readFileSync(join(fixtures, 'praatio_mary.TextGrid'), 'utf8').split('\r\n');
    const path = join(dir, 'mary-truncated.TextGrid');
    writeFileSync(path, lines.slice(0, 40).join('\r\n'));
    await expect(read(path, 'mary-truncated.TextGrid')).rejects.toBeInstanceOf(FormatParseError);
    await expect(read(path, 'mary-truncated.TextGrid')).rejects.toThrow(/^mary-truncated\.TextGrid:\d+:\d+: expected .*found the end of the file/);
  });
});

describe("kylebgorman/textgrid's test files (TestReadTextGrid)", () => {
  it.each([
    ['short format', join(fixtures, 'kylebgorman_short_format.TextGrid')],
    ['long format', join(corpus, 'kylebgorman_long_format.TextGrid')],
  ])('%s: tiers phone and word first, the first phone "sil" at 1358.8925-1361.8925', async (_format, path) => {
    const { tiers, annotations } = await read(path);
    expect(tiers.slice(0, 2).map((tier) => tier.metadata.textgrid_name)).toEqual(['phone', 'word']);
    expect(onTier(annotations, 'phone')[0]).toEqual(expected(1358.8925, 1361.8925, 'sil'));
    expect(onTier(annotations, 'word')[0]).toEqual(expected(1358.8925, 1361.8925, 'sp'));
    // textgrid 1.6 reads 104 phones and 45 words, the last of each "sil" / "sp" at 1422.2325-1422.5525.
    const phones = annotations.filter((a) => tiers.find((tier) => tier.name === a.tier)?.metadata.textgrid_name === 'phone');
    expect(phones).toHaveLength(104);
    const words = onTier(annotations, 'word');
    expect(words).toHaveLength(45);
    expect(words[44]).toEqual(expected(1422.2325, 1422.5525, 'sp'));
    expect(onTier(annotations, 'phone').at(-1)).toEqual(expected(1422.2325, 1422.5525, 'sil'));
  });

  it('short format: the overlap praatIO refuses ("Two intervals in the same tier overlap") is an error finding naming the line', async () => {
    const { findings } = await read(join(fixtures, 'kylebgorman_short_format.TextGrid'), 'short_format.TextGrid');
    const overlaps = findings.filter((finding) => finding.code === 'tier_overlap');
    expect(overlaps.length).toBeGreaterThan(0);
    // praatIO: "(1364.7225, 1372.6225001, sil) and (1372.6225, 1372.6525, JH)"
    expect(overlaps[0]).toMatchObject({ severity: 'error', file: 'short_format.TextGrid', location: { line: expect.any(Number) } });
    expect(overlaps[0].message).toMatch(/^interval "JH" of tier "phone" starts at 1372\.6225, before the previous interval \("sil", line \d+\) ends at 1372\.6225001/);
  });
});

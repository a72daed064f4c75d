import { join } from 'node:path';
import type { LoadOptions } from '../../src/adapters/adapter.js';
import { load } from '../../src/adapters/textgrid/codec.js';
import { parseTextGrid } from '../../src/adapters/textgrid/parser.js';
import { convertFile } from '../../src/service/convert-file.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { ROOT } from '../support/fixture-families.js';
import { tempDir } from '../support/sample-annot.js';

/**
 * TextGrids annot writes, shaped as Praat reads them. A TextGrid's bounds are times like its intervals': at a rate that cannot hold the file's times
 * exactly, the grid's and each tier's xmin and xmax are rounded (and counted) as the intervals'
 * are, so a tier whose last interval ends at its xmax still does, and no empty interval fills a
 * gap the input did not have (issue 30: praatIO's bobby_words gained `[1.189795918, 1.18979591837]`).
 */
const options = (extra: Partial<LoadOptions> = {}): LoadOptions => ({ sourceName: 'in.TextGrid', now: RationalTime.now(1000), report: () => undefined, ...extra });

describe('the bounds of a TextGrid through annot', () => {
  const { dir, cleanup } = tempDir('annot-textgrid-bounds-');
  afterAll(cleanup);

  async function throughAnnot(name: string): Promise<{ direct: ReturnType<typeof parseTextGrid>; back: ReturnType<typeof parseTextGrid>; rounded: number }> {
    const input = join(ROOT, 'fixtures/textgrid', name);
    const annot = join(dir, `${name}.annot`);
    const { quantized } = await convertFile({ input, output: annot, warn: () => undefined, report: () => undefined });
    await convertFile({ input: annot, output: join(dir, `back-${name}`), warn: () => undefined, report: () => undefined });
    await convertFile({ input, output: join(dir, `direct-${name}`), warn: () => undefined, report: () => undefined });
    const parsed = (file: string) => parseTextGrid(readFileSync(join(dir, file), 'utf8'), file);
    return { direct: parsed(`direct-${name}`), back: parsed(`back-${name}`), rounded: quantized.count };
  }

  const shape = (grid: ReturnType<typeof parseTextGrid>) => grid.tiers.map((tier) => [tier.name, tier.items.length, tier.xmax === tier.items[tier.items.length - 1]?.end]);

  it("keeps praatIO's bobby_words to its six intervals in tier word, the last ending at the tier's xmax", async () => {
    // word: xmin 0.0124716553288, xmax 1.18979591837, intervals with 17-digit ends; phrase: 0 to 1.194625.
    const { direct, back, rounded } = await throughAnnot('praatio_bobby_words.TextGrid');
    for (const grid of [direct, back]) {
      expect(shape(grid)).toEqual([
        ['word', 6, true],
        ['phrase', 3, true],
      ]);
      const word = grid.tiers[0];
      expect([word.xmin, word.items[0].start, word.xmax, word.items[5].end]).toEqual(['0.012471655', '0.012471655', '1.189795918', '1.189795918']);
      expect([grid.xmin, grid.xmax]).toEqual(['0', '1.194625']);
    }
    // 16 interval times, and the word tier's xmin and xmax (the file's and the phrase tier's bounds are exact at 1 ns).
    expect(rounded).toBe(18);
  });

  it("keeps MFA's michaelandsickmichael to 7 and 9 intervals, its grid and tier xmax rounded alike", async () => {
    const { direct, back } = await throughAnnot('mfa_michaelandsickmichael.TextGrid');
    for (const grid of [direct, back]) {
      expect(shape(grid)).toEqual([
        ['michael', 7, true],
        ['sickmichael', 9, true],
      ]);
      expect(grid.xmax).toBe('52.440827806');
    }
  });

  it('keeps a bound as written when the rate holds it', async () => {
    const document = await load(join(ROOT, 'fixtures/textgrid/short-utf16le-crlf.TextGrid'), options());
    expect(document.tiers.map((tier) => [tier.metadata.textgrid_xmin, tier.metadata.textgrid_xmax])).toEqual([
      ['-0', '2'],
      ['0.5', '2.5'],
      ['0', '2.5'],
    ]);
    expect(document.quantization().count).toBe(0);
  });

  it('rounds the bounds at the rate asked for, and --strict-time refuses a bound it would round, naming it', async () => {
    const path = join(ROOT, 'fixtures/textgrid/praatio_bobby_words.TextGrid');
    const document = await load(path, options({ rate: 1000 }));
    expect(document.tiers.map((tier) => [tier.metadata.textgrid_xmin, tier.metadata.textgrid_xmax])).toEqual([
      ['0.012', '1.19'],
      ['0', '1.195'],
    ]);
    expect(document.meta['textgrid.xmax']).toBe('1.195');
    await expect(load(path, options({ rate: 1_000_000_000, strictTime: true }))).rejects.toThrow(/in\.TextGrid: the xmin of tier "word": 0\.0124716553288 s is not a whole number of ticks at rate 1000000000/);
  });
});

describe('a TextGrid annot writes, shaped as Praat reads it', () => {
  const { dir, cleanup } = tempDir('annot-textgrid-shape-');
  afterAll(cleanup);
  const parsed = (path: string) => parseTextGrid(readFileSync(path, 'utf8'), path);

  it("writes a tier read from a TextGrid as it was read: no filler for a gap the file had, an overlap where it had one", async () => {
    // praatIO's bobby_phones_elan (ELAN's export): tier xmin 0, its first interval starts at 0.0124716553288.
    // kylebgorman's short format (written by Praat): "sil" ends at 1372.6225001, "JH" starts at 1372.6225.
    const elan = join(dir, 'elan.TextGrid');
    await convertFile({ input: join(ROOT, 'fixtures/corpus/textgrid/praatio_bobby_phones_elan.TextGrid'), output: elan, warn: () => undefined, report: () => undefined });
    const phone = parsed(elan).tiers[0];
    expect([phone.xmin, phone.items.length, phone.items[0].start]).toEqual(['0.0', 15, '0.012471655']);
    const praatWritten = join(dir, 'short.TextGrid');
    await convertFile({ input: join(ROOT, 'fixtures/textgrid/kylebgorman_short_format.TextGrid'), output: praatWritten, warn: () => undefined, report: () => undefined });
    const grid = parsed(praatWritten);
    expect(grid.tiers.map((tier) => [tier.name, tier.items.length])).toEqual([
      ['phone', 104],
      ['word', 45],
      ['mute', 0],
      ['Errors', 3],
    ]);
    expect(grid.tiers[0].items.slice(11, 13).map((item) => [item.start, item.end, item.text])).toEqual([
      ['1364.7225', '1372.6225001', 'sil'],
      ['1372.6225', '1372.6525', 'JH'],
    ]);
  });

  it('writes points at the same time to further point tiers of the same name, since a TextTier holds one point per time', async () => {
    const vtt = join(dir, 'same.vtt');
    writeFileSync(vtt, 'WEBVTT\n\n00:01.000 --> 00:01.000\nfirst\n\n00:01.000 --> 00:01.000\nsecond\n\n00:02.000 --> 00:02.000\nthird\n');
    const output = join(dir, 'same.TextGrid');
    const report = await convertFile({ input: vtt, output, warn: () => undefined, report: () => undefined });
    expect(parsed(output).tiers.map((tier) => [tier.kind, tier.name, tier.items.map((item) => `${item.start}:${item.text}`)])).toEqual([
      ['TextTier', 'cues', ['1:first', '2:third']],
      ['TextTier', 'cues', ['1:second']],
    ]);
    expect(report.dropped).toContainEqual({ what: 'points at the same time as another of their tier (written to extra point tiers of the same name)', count: 1 });
  });

  it('writes a grid without tiers as Praat does, `tiers? <exists>` and `size = 0` (Praat 6.3 crashes on `<absent>`)', async () => {
    // Label Studio's task with an empty result: no tiers at all.
    const input = join(ROOT, 'fixtures/corpus/label_studio/lsf_empty_result.json');
    for (const variant of ['long', 'short']) {
      const output = join(dir, `empty-${variant}.TextGrid`);
      await convertFile({ input, output, variant, warn: () => undefined, report: () => undefined });
      const text = readFileSync(output, 'utf8');
      expect(text.split('\n').slice(3)).toEqual(variant === 'long' ? ['xmin = 0 ', 'xmax = 0 ', 'tiers? <exists> ', 'size = 0 ', 'item []: ', ''] : ['0', '0', '<exists>', '0', '']);
      expect(parseTextGrid(text, output).tiers).toEqual([]);
    }
  });
});

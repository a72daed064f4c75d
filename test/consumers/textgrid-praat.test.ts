import { basename, join } from 'node:path';
import { load } from '../../src/adapters/textgrid/codec.js';
import { TEXTGRID_XMAX_META, TEXTGRID_XMIN_META } from '../../src/adapters/textgrid/meta-keys.js';
import { convertFile } from '../../src/service/convert-file.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { PRAAT, requireTool } from '../support/consumer-tools.js';
import { BROKEN_ON_PURPOSE, convertFamily, expectedRefusals, FAMILY_DEADLINE_MS, FIXTURE_FAMILIES, fixtureFiles, refusals } from '../support/fixture-families.js';
import { asPraatHasIt, praatDifferences, readWithPraat, type PraatTextGrid, type PraatTier } from '../support/praat.js';
import { tempDir } from '../support/sample-annot.js';

/**
 * TextGrids as Praat reads them (`praat --run` on test/support/praat-dump.praat). A TextGrid
 * through annot, whether through an .annot file or converted directly, reads in Praat as the
 * input does: the same tiers, items and labels, each time the same double, or within the
 * rounding the conversion reported when the import rate could not hold the file's times. And a
 * TextGrid annot writes from any input format reads in Praat as it reads in annot.
 */
const praat = requireTool(PRAAT, 'the TextGrid tests in Praat');
const withPraat = praat === null ? describe.skip : describe;

const quiet = { warn: () => undefined, report: () => undefined };

withPraat('a TextGrid through annot, as Praat reads it', () => {
  const { dir, cleanup } = tempDir('annot-praat-');
  afterAll(cleanup);
  const inputs = fixtureFiles('textgrid');

  it.each(['through .annot', 'converted directly'])(
    'reads the same from every TextGrid fixture %s',
    async (way) => {
      const outputs: string[] = [];
      // Times are compared exactly, or within the rounding the conversion reported.
      const tolerances: number[] = [];
      for (const [index, input] of inputs.entries()) {
        const output = join(dir, `${way === 'through .annot' ? 'back' : 'direct'}-${index}-${basename(input)}`);
        if (way === 'through .annot') {
          const annot = join(dir, `${index}.annot`);
          const { quantized } = await convertFile({ input, output: annot, ...quiet });
          await convertFile({ input: annot, output, ...quiet });
          tolerances.push(quantized.maxErrorSeconds);
        } else {
          tolerances.push((await convertFile({ input, output, ...quiet })).quantized.maxErrorSeconds);
        }
        outputs.push(output);
      }
      const read = readWithPraat(praat as string, [...inputs, ...outputs]);
      const differences = inputs.flatMap((input, index) => praatDifferences(read[index], read[inputs.length + index], tolerances[index]).map((difference) => `${basename(input)}: ${difference}`));
      expect(differences).toEqual([]);
      expect(inputs.length).toBeGreaterThan(30);
    },
    FAMILY_DEADLINE_MS,
  );
});

withPraat('a TextGrid written from every input format', () => {
  const { dir, cleanup } = tempDir('annot-praat-all-');
  afterAll(cleanup);

  it.each(FIXTURE_FAMILIES)(
    'from %s opens in Praat with the tiers, items and labels annot reads from it',
    async (family) => {
      const conversions = await convertFamily(family, 'textgrid', 'TextGrid', dir);
      expect(Object.keys(refusals(conversions)).sort()).toEqual(expectedRefusals(conversions, BROKEN_ON_PURPOSE));
      const written = conversions.filter((conversion) => conversion.refused === undefined);
      expect(written.length).toBeGreaterThan(0);
      const read = readWithPraat(praat as string, written.map((conversion) => conversion.output));
      const differences: string[] = [];
      for (const [index, conversion] of written.entries()) {
        if (NEGATIVE_TIMES[conversion.input] !== undefined) {
          // Praat reads them (read[index] above); annot's TextGrid reader refuses a time before 0.
          await expect(annotReading(conversion.output)).rejects.toThrow(/not negative/);
          continue;
        }
        const { grid, maxErrorSeconds } = await annotReading(conversion.output);
        differences.push(...praatDifferences(grid, read[index], maxErrorSeconds).map((difference) => `${conversion.input}: ${difference.replace('in the input', 'as annot reads it').replace('in the output', 'as Praat reads it')}`));
      }
      expect(differences).toEqual([]);
    },
    FAMILY_DEADLINE_MS,
  );
});

/**
 * Inputs the OTIO reader places partly before 0 (markers and a transition outside their item's
 * range): the TextGrid holds the negative times, which Praat reads and annot's TextGrid reader
 * refuses. A defect of the OTIO reading, left to it; listed here so the test notices its fix.
 */
const NEGATIVE_TIMES: Readonly<Record<string, string>> = {
  'fixtures/otio/tlrender_Markers.otio': 'markers before the start of their clip',
  'fixtures/otio/otio_transition_test.otio': 'a transition that starts before 0',
  'fixtures/corpus/otio/otio_transition_test.otio': 'the same file in the corpus',
};

/** What annot's own TextGrid reader makes of a file, in the shape of Praat's reading. */
async function annotReading(path: string): Promise<{ grid: PraatTextGrid; maxErrorSeconds: number }> {
  const document = await load(path, { sourceName: path, now: RationalTime.now(1000), report: () => undefined });
  const tiers: PraatTier[] = document.tiers.map((tier) => ({ kind: tier.metadata.textgrid_class === 'TextTier' ? 'point' : 'interval', name: String(tier.metadata.textgrid_name), items: [] }));
  const byName = new Map(document.tiers.map((tier, index) => [tier.name, tiers[index]]));
  for await (const annotation of document.annotations) {
    const { start, end } = (annotation.reference as { interval: { start: RationalTime; end: RationalTime } }).interval;
    byName.get(annotation.tier)?.items.push({ start: start.toSeconds(), end: end.toSeconds(), text: String(annotation.body.text) });
  }
  const seconds = (text: unknown): number => Number(text);
  const bounds = document.tiers.map((tier) => ({ xmin: seconds(tier.metadata.textgrid_xmin), xmax: seconds(tier.metadata.textgrid_xmax) }));
  const grid = { xmin: seconds(document.meta[TEXTGRID_XMIN_META]), xmax: seconds(document.meta[TEXTGRID_XMAX_META]), tiers };
  return { grid: asPraatHasIt(grid, bounds), maxErrorSeconds: document.quantization().maxErrorSeconds };
}

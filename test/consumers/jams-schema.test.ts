import { join } from 'node:path';
import { BROKEN_ON_PURPOSE, convertFamily, expectedRefusals, FAMILY_DEADLINE_MS, FIXTURE_FAMILIES, refusals, ROOT } from '../support/fixture-families.js';
import { jamsLoadErrors } from '../support/jams-schema.js';
import { tempDir } from '../support/sample-annot.js';

/**
 * JAMS as jams.load checks it (test/support/jams-schema.ts: the JAMS schemata with ajv): the JAMS
 * annot writes from every input format loads, its annotations in namespaces of the schemata. JAMS
 * read from JAMS comes back as it was: with exactly what jams finds in the input, if anything.
 */

/** Inputs the OTIO reader places partly before 0: JAMS cannot hold a negative time, and annot refuses to write one. */
const BEFORE_ZERO: Readonly<Record<string, string>> = {
  'fixtures/otio/tlrender_Markers.otio': 'markers before the start of their clip',
  'fixtures/otio/otio_transition_test.otio': 'a transition that starts before 0',
  'fixtures/corpus/otio/otio_transition_test.otio': 'the same file in the corpus',
};

describe('JAMS written from every input format loads in jams', () => {
  const { dir, cleanup } = tempDir('annot-jams-schema-');
  afterAll(cleanup);

  it.each(FIXTURE_FAMILIES)(
    'from %s (every fixture converted but those broken on purpose, and those with times before 0)',
    async (family) => {
      const conversions = await convertFamily(family, 'jams', 'jams', dir);
      const refused = refusals(conversions);
      expect(Object.keys(refused).sort()).toEqual(expectedRefusals(conversions, BROKEN_ON_PURPOSE, BEFORE_ZERO));
      for (const input of expectedRefusals(conversions, BEFORE_ZERO)) expect(refused[input]).toMatch(/^ANNOT_UNREPRESENTABLE: jams: an annotation of tier .* starts at -[\d/.]+ s; JAMS times cannot be negative/);
      const written = conversions.filter((conversion) => conversion.refused === undefined);
      expect(written.length).toBeGreaterThan(0);
      const errors = written.flatMap((conversion) => jamsLoadErrors(conversion.output).map((error) => `${conversion.input}: ${error}`));
      // From JAMS: what jams finds in the input, and nothing more (every input passes but two-chords-nan.jams, whose NaN chord is no string).
      const inputErrors = family === 'jams' ? written.flatMap((conversion) => jamsLoadErrors(join(ROOT, conversion.input)).map((error) => `${conversion.input}: ${error}`)) : [];
      expect(errors).toEqual(inputErrors);
    },
    FAMILY_DEADLINE_MS,
  );
});

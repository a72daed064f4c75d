import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertFile } from '../../src/service/convert-file.js';
import { requireTool, XMLLINT } from '../support/consumer-tools.js';
import { BROKEN_ON_PURPOSE, convertFamily, expectedRefusals, FAMILY_DEADLINE_MS, FIXTURE_FAMILIES, refusals, ROOT } from '../support/fixture-families.js';
import { tempDir } from '../support/sample-annot.js';
import { EAF_XSD, invalidFiles, validateWithXsd } from '../support/xmllint.js';

/**
 * EAF as ELAN's schema sees it: the EAF annot writes from every input format validates against
 * EAFv3.0.xsd (fixtures/schemas/eaf/, pympi's copy of ELAN's), with xmllint --schema.
 */
/** Inputs with times before 0 or past 2^32 - 1 ms, which EAF's TIME_VALUE (xsd:unsignedInt) cannot hold: refused, never clamped. */
const OUT_OF_EAF_RANGE: Readonly<Record<string, string>> = {
  'fixtures/otio/tlrender_Markers.otio': 'markers before the start of the timeline (OTIO reads them at negative times)',
  'fixtures/otio/otio_transition_test.otio': 'a transition that starts before 0',
  'fixtures/corpus/otio/otio_transition_test.otio': 'the same file in the corpus',
  'fixtures/label_studio/predictions.labelstudio.json': 'time-series regions at epoch seconds (2020)',
  'fixtures/corpus/label_studio/lsf_timeseries_epoch_ms.json': 'time-series regions at epoch milliseconds (2020)',
};

const xmllint = requireTool(XMLLINT, 'the EAF schema tests');
const withXmllint = xmllint === null ? describe.skip : describe;

withXmllint('EAF written from every input format validates against EAFv3.0.xsd', () => {
  const { dir, cleanup } = tempDir('annot-eaf-xsd-');
  afterAll(cleanup);

  it.each(FIXTURE_FAMILIES)(
    'from %s (every fixture converted but those broken on purpose, and those with times EAF cannot hold)',
    async (family) => {
      const conversions = await convertFamily(family, 'eaf', 'eaf', dir);
      const refused = refusals(conversions);
      expect(Object.keys(refused).sort()).toEqual(expectedRefusals(conversions, BROKEN_ON_PURPOSE, OUT_OF_EAF_RANGE));
      for (const input of expectedRefusals(conversions, OUT_OF_EAF_RANGE)) expect(refused[input]).toMatch(/^ANNOT_UNREPRESENTABLE: eaf: the annotation .* runs from .* s to .* s; EAF's times are whole milliseconds from 0 to 4294967\.295 s/);
      const written = conversions.filter((conversion) => conversion.refused === undefined);
      expect(written.length).toBeGreaterThan(0);
      expect(invalidFiles(validateWithXsd(xmllint as string, EAF_XSD, written.map((conversion) => conversion.output)))).toEqual([]);
    },
    FAMILY_DEADLINE_MS,
  );
});

withXmllint('an EAF older than 3.0 written back', () => {
  const { dir, cleanup } = tempDir('annot-eaf-old-');
  afterAll(cleanup);

  it('is EAF 3.0: root version, media before properties in the header, controlled vocabularies in the language "und" as ELAN makes them', async () => {
    // old-style-cv.eaf (EAF 2.6, by hand): CONTROLLED_VOCABULARY DESCRIPTION="yes or no" with CV_ENTRY elements.
    const output = join(dir, 'old-style-cv.eaf');
    await convertFile({ input: join(ROOT, 'fixtures/eaf/old-style-cv.eaf'), output, warn: () => undefined, report: () => undefined });
    const eaf = readFileSync(output, 'utf8');
    expect(eaf).toMatch(/<ANNOTATION_DOCUMENT [^>]*FORMAT="3.0" VERSION="3.0"[^>]*xsi:noNamespaceSchemaLocation="http:\/\/www.mpi.nl\/tools\/elan\/EAFv3.0.xsd">/);
    expect(eaf).toContain(
      [
        '    <CONTROLLED_VOCABULARY CV_ID="answers">',
        '        <DESCRIPTION LANG_REF="und">yes or no</DESCRIPTION>',
        '        <CV_ENTRY_ML CVE_ID="cveid0">',
        '            <CVE_VALUE DESCRIPTION="agreement" LANG_REF="und">yes</CVE_VALUE>',
        '        </CV_ENTRY_ML>',
        '        <CV_ENTRY_ML CVE_ID="cveid1">',
        '            <CVE_VALUE DESCRIPTION="disagreement" LANG_REF="und">no</CVE_VALUE>',
        '        </CV_ENTRY_ML>',
        '    </CONTROLLED_VOCABULARY>',
      ].join('\n'),
    );
    expect(eaf).toContain('<LANGUAGE LANG_DEF="http://cdb.iso.org/lg/CDB-00130975-001" LANG_ID="und" LANG_LABEL="undetermined (und)"/>');
    expect(invalidFiles(validateWithXsd(xmllint as string, EAF_XSD, [output]))).toEqual([]);
  });

  it('reads back with the same annotations and vocabulary values', async () => {
    const once = join(dir, 'once.eaf');
    const twice = join(dir, 'twice.eaf');
    await convertFile({ input: join(ROOT, 'fixtures/eaf/old-style-cv.eaf'), output: once, warn: () => undefined, report: () => undefined });
    await convertFile({ input: once, output: twice, warn: () => undefined, report: () => undefined });
    expect(readFileSync(twice, 'utf8')).toBe(readFileSync(once, 'utf8'));
  });

  it("puts the header's media descriptor before its properties", async () => {
    // openpecha_tibetan_test.eaf (EAF 2.7) writes PROPERTY first, which EAF's schema does not allow.
    const output = join(dir, 'openpecha.eaf');
    await convertFile({ input: join(ROOT, 'fixtures/corpus/eaf/openpecha_tibetan_test.eaf'), output, warn: () => undefined, report: () => undefined });
    const header = /<HEADER[^>]*>([\s\S]*?)<\/HEADER>/.exec(readFileSync(output, 'utf8'))?.[1] ?? '';
    expect([...header.matchAll(/<(\w+)/g)].map(([, name]) => name)).toEqual(['MEDIA_DESCRIPTOR', 'PROPERTY']);
  });
});

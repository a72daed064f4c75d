import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertFile } from '../../src/service/convert-file.js';
import { requireTool, XMLLINT } from '../support/consumer-tools.js';
import { BROKEN_ON_PURPOSE, convertFamily, expectedRefusals, FAMILY_DEADLINE_MS, FIXTURE_FAMILIES, refusals, ROOT } from '../support/fixture-families.js';
import { tempDir } from '../support/sample-annot.js';
import { invalidFiles, TTML2_XSD, validateWithXsd } from '../support/xmllint.js';

/**
 * TTML as a TTML processor's schema check sees it: the TTML annot writes from every input format
 * validates against the W3C TTML2 XSD (fixtures/schemas/ttml2/), with xmllint --schema.
 */
const xmllint = requireTool(XMLLINT, 'the TTML2 schema tests');
const withXmllint = xmllint === null ? describe.skip : describe;

withXmllint('TTML written from every input format validates against the TTML2 XSD', () => {
  const { dir, cleanup } = tempDir('annot-ttml-xsd-');
  afterAll(cleanup);

  it.each(FIXTURE_FAMILIES)(
    'from %s (every fixture converted but those broken on purpose)',
    async (family) => {
      const conversions = await convertFamily(family, 'ttml', 'ttml', dir);
      expect(Object.keys(refusals(conversions)).sort()).toEqual(expectedRefusals(conversions, BROKEN_ON_PURPOSE));
      const written = conversions.filter((conversion) => conversion.refused === undefined);
      expect(written.length).toBeGreaterThan(0);
      expect(invalidFiles(validateWithXsd(xmllint as string, TTML2_XSD, written.map((conversion) => conversion.output)))).toEqual([]);
    },
    FAMILY_DEADLINE_MS,
  );
});

withXmllint('a DFXP file converted to TTML', () => {
  const { dir, cleanup } = tempDir('annot-dfxp-');
  afterAll(cleanup);

  it("puts DFXP's plain id into xml:id, keeps the styles the paragraphs refer to, and says what it dropped", async () => {
    // yt-dlp's test DFXP: styles declared with `id` (no namespace), two paragraphs both `id="p0"`.
    const output = join(dir, 'styled.ttml');
    const report = await convertFile({ input: join(ROOT, 'fixtures/ttml/yt-dlp/dfxp_with_style.dfxp'), output, warn: () => undefined, report: () => undefined });
    const ttml = readFileSync(output, 'utf8');
    expect(ttml).toContain('<style xml:id="s2" style="s0" tts:color="cyan" tts:fontWeight="bold"/>');
    expect(ttml).not.toMatch(/ id="/);
    expect([...ttml.matchAll(/<p [^>]*>/g)].map(([tag]) => [/xml:id="(\w+)"/.exec(tag)?.[1], /style="([\w ]+)"/.exec(tag)?.[1]])).toEqual([
      ['p0', 's0'],
      [undefined, 's0 s2'],
      ['p1', 's0 s3'],
      ['p2', 's0 s1'],
    ]);
    expect(report.dropped).toContainEqual({ what: 'paragraph ids already used in the document', count: 1 });
    expect(invalidFiles(validateWithXsd(xmllint as string, TTML2_XSD, [output]))).toEqual([]);
  });

  it('leaves out a ttm:role TTML2 does not define, and counts it; the speaker it named stays an agent', async () => {
    // features.ttml (by hand) has `m:role="narrator"`: TTML2's roles are a fixed list and `x-` extensions.
    const output = join(dir, 'features.ttml');
    const report = await convertFile({ input: join(ROOT, 'fixtures/ttml/features.ttml'), output, warn: () => undefined, report: () => undefined });
    const ttml = readFileSync(output, 'utf8');
    expect(ttml).not.toContain('ttm:role');
    expect(ttml).toMatch(/<p [^>]*xml:id="c4"[^>]* ttm:agent="speaker1">First in sequence<\/p>/);
    expect(ttml).toContain('<ttm:agent xml:id="speaker1" type="person"><ttm:name type="full">narrator</ttm:name></ttm:agent>');
    expect(report.dropped).toContainEqual({ what: expect.stringMatching(/^attributes TTML2 does not allow where they were/), count: 1 });
    expect(invalidFiles(validateWithXsd(xmllint as string, TTML2_XSD, [output]))).toEqual([]);
  });
});

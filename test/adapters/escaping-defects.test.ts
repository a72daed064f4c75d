import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertFile } from '../../src/service/convert-file.js';
import { loadEveryCodec } from '../support/codecs.js';

/**
 * The conversions issue 30 found losing or garbling text, as a user met them: each output file
 * holds what its format needs for the text to read back as written (the consumer suites in
 * test/consumers/ check the same files in Chromium and FFmpeg).
 */
const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');
let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'annot-escaping-'));
  await loadEveryCodec();
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

async function converted(input: string, extension: string, to: string): Promise<string> {
  const output = join(work, `${to}-${Math.random().toString(36).slice(2)}${extension}`);
  await convertFile({ input: join(FIXTURES, input), output, to, warn: () => undefined, report: () => undefined });
  return readFileSync(output, 'utf8');
}

describe('text that is not markup survives a conversion', () => {
  it('"Tom & Jerry: 1 < 2 > 0" from SubRip: escaped in WebVTT and TTML, as written in SubStation', async () => {
    expect(await converted('srt/escaping.srt', '.vtt', 'webvtt')).toContain('\nTom &amp; Jerry: 1 &lt; 2 &gt; 0\n');
    expect(await converted('srt/escaping.srt', '.ass', 'ass')).toContain(',Tom & Jerry: 1 < 2 > 0\n');
    expect(await converted('srt/escaping.srt', '.ttml', 'ttml')).toContain('>Tom &amp; Jerry: 1 &lt; 2 &gt; 0</p>');
  });

  it("an EAF value „Wie geht's?“ <lacht> keeps its <lacht> in WebVTT", async () => {
    expect(await converted('eaf/escaping.eaf', '.vtt', 'webvtt')).toContain("<v Anna & Ben>„Wie geht's?“ &lt;lacht&gt;\n");
  });

  it('WebVTT character references do not leak into SubRip, which has none', async () => {
    const srt = await converted('webvtt/escaping.vtt', '.srt', 'srt');
    expect(srt).toContain('\nTom & Jerry: 1 < 2 > 0\n');
    expect(srt).not.toContain('&amp;');
    // SubRip text that FFmpeg would take for a tag gets a word joiner after its "<".
    expect(srt).toContain('„Wie geht\'s?“ <\u2060lacht>');
  });

  it('SubRip italics stay italics, and its literal &amp; stays text everywhere', async () => {
    expect(await converted('srt/escaping.srt', '.vtt', 'webvtt')).toContain('<i>in italics</i> &amp;amp; not an entity, &lt;3');
    expect(await converted('srt/escaping.srt', '.ass', 'ass')).toContain('{\\i1}in italics{\\i0} &amp; not an entity, <3');
  });
});

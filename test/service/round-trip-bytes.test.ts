import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { convertFile } from '../../src/service/convert-file.js';
import { openAnnotationFile } from '../../src/service/open-annotation-file.js';
import { validateAnnotationFile } from '../../src/service/validate-file.js';
import { tempDir } from '../support/sample-annot.js';

/**
 * Round trips a user can diff (issue 21): every well-formed SRT, WebVTT and TextGrid file of
 * fixtures/ goes file → .annot → the same format through the conversion `annot convert` runs,
 * and comes back byte for byte. "Well-formed" is what `annot validate` says: a file with no
 * finding at all (a finding, such as a time rounded to the import rate or a block dropped,
 * explains a difference by itself). The few well-formed files that still come back different
 * are listed below with the reason; the test fails if one of them starts coming back identical
 * (the list is then stale) or if any other file differs.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURES = join(ROOT, 'fixtures');

const EXPECTED_DIFFERENCES: Readonly<Record<string, string>> = {
  'fixtures/textgrid/short-utf16le-crlf.TextGrid': 'UTF-16, and times written -0 (Praat keeps the sign of a zero): annot writes UTF-8, and a time has no sign at zero',
  'fixtures/webvtt/wpt-file-parsing/newlines.vtt': 'mixes CR, LF and CRLF line breaks (a test of the parser): written with LF throughout (its ending kept), the same cues',
  'fixtures/webvtt/wpt-file-parsing/settings-region.vtt': 'a space after the last cue setting ("region: "), not kept: settings are kept as their tokens',
};

/** A file's cues as `annot` reads them: times and bodies. */
async function cuesOf(path: string): Promise<unknown[]> {
  const { store } = await openAnnotationFile(path);
  const cues: unknown[] = [];
  for await (const annotation of store.all()) cues.push([annotation.reference, annotation.body]);
  await store.close();
  return cues;
}

function subtitleFiles(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...subtitleFiles(path));
    else if (/\.(srt|vtt|textgrid)$/i.test(name)) found.push(path);
  }
  return found;
}

describe('file → .annot → the same format', () => {
  const { dir, cleanup } = tempDir('annot-round-trip-');
  afterAll(cleanup);

  it('gives back at least 90% of the well-formed SRT, WebVTT and TextGrid fixtures byte for byte, and says why for the others', async () => {
    const files = subtitleFiles(FIXTURES);
    const wellFormed: string[] = [];
    const identical: string[] = [];
    const different: string[] = [];
    for (const [index, path] of files.entries()) {
      const { findings } = await validateAnnotationFile(path);
      if (findings.length > 0) continue;
      wellFormed.push(path);
      const annot = join(dir, `${index}.annot`);
      const back = join(dir, `${index}-${basename(path)}`);
      await convertFile({ input: path, output: annot, warn: () => {}, report: () => {} });
      await convertFile({ input: annot, output: back, warn: () => {}, report: () => {} });
      (readFileSync(back).equals(readFileSync(path)) ? identical : different).push(relative(ROOT, path));
    }
    const share = identical.length / wellFormed.length;
    process.stdout.write(
      `round trip: ${identical.length} of ${wellFormed.length} well-formed SRT, WebVTT and TextGrid fixtures come back byte-identical (${(share * 100).toFixed(1)}%); ${files.length - wellFormed.length} more have findings and are not counted\n`,
    );
    expect(different.sort()).toEqual(Object.keys(EXPECTED_DIFFERENCES).sort());
    expect(share).toBeGreaterThanOrEqual(0.9);
    expect(wellFormed.length).toBeGreaterThanOrEqual(60);
  });

  it('the listed differences are only what their reason says', async () => {
    const back = async (path: string): Promise<Buffer> => {
      const annot = join(dir, `${basename(path)}.annot`);
      const out = join(dir, `back-${basename(path)}`);
      await convertFile({ input: path, output: annot, warn: () => {}, report: () => {} });
      await convertFile({ input: annot, output: out, warn: () => {}, report: () => {} });
      return readFileSync(out);
    };
    const utf16 = join(ROOT, 'fixtures/textgrid/short-utf16le-crlf.TextGrid');
    // One label holds a bare LF, so the file's line breaks mix and are written LF.
    const lines = (text: string): string => text.replace(/\r\n/g, '\n').replace(/^-0$/gm, '0');
    expect(lines((await back(utf16)).toString('utf8'))).toBe(lines(readFileSync(utf16).subarray(2).toString('utf16le')));
    const newlines = join(ROOT, 'fixtures/webvtt/wpt-file-parsing/newlines.vtt');
    const written = await back(newlines);
    expect(written.toString('utf8').replace(/[\r\n]+$/, '').includes('\r')).toBe(false);
    const again = join(dir, 'again-newlines.vtt');
    writeFileSync(again, written);
    expect(await cuesOf(again)).toEqual(await cuesOf(newlines));
    const region = join(ROOT, 'fixtures/webvtt/wpt-file-parsing/settings-region.vtt');
    expect((await back(region)).toString('utf8')).toBe(readFileSync(region, 'utf8').replace(/ +\n/g, '\n'));
  });
});

import { readdirSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { formatFinding } from '../../src/adapters/finding.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dump, load } from '../../src/adapters/webvtt/codec.js';
import { loadIntoStore } from '../../src/adapters/load-into-store.js';
import { MemoryStore } from '../../src/store/memory.js';
import { settingsOfBody } from '../../src/adapters/webvtt/cue-body.js';
import { placementOf, type WebVttCuePlacement, type WebVttRegion } from '../../src/adapters/webvtt/cue-settings.js';
import { PREAMBLE_META_KEY, type WebVttPreamble } from '../../src/adapters/webvtt/preamble.js';
import { readRegions, REGIONS_META_KEY } from '../../src/adapters/webvtt/regions.js';
import type { Annotation } from '../../src/model/annotation.js';
import { RationalTime } from '../../src/time/rational-time.js';
import type { TimeInterval } from '../../src/time/time-interval.js';
/**
 * The W3C web-platform-tests WebVTT file-parsing suite (webvtt/parsing/file-parsing), run on its
 * 37 input files, copied into fixtures/webvtt/wpt-file-parsing/ (3-clause BSD, see LICENSE.md and
 * SOURCES.md there) so that it runs in a fresh clone. The folder holds only the inputs; the
 * suite's expectations live in JavaScript assertion files beside them upstream (w3c/webvtt.js
 * test/wpt-file-parsing/<name>.js, the 2020 snapshot the inputs come from). They are restated
 * below, one entry per input, as what the TextTrackCue objects a browser builds must show: id,
 * text, startTime/endTime in seconds, and the settings as the W3C algorithm interprets them
 * (align, line, snapToLines, lineAlign, position, positionAlign, size, vertical, region). For
 * the twelve inputs whose upstream file only checks that parsing succeeds (signature-*, header-*,
 * timings-eof, timings-garbage, timings-too-short, stylesheets), the expectation is what the spec
 * algorithm yields, stated as the cue count and texts.
 *
 * Each file goes through the adapter as `annot` reads it (codec load): the browser's cue is
 * rebuilt from the annotation alone (its times, the body's typed setting fields with the
 * algorithm's defaults for what is absent, its region looked up in the document's
 * `webvtt.regions` metadata), so the test checks what the store keeps, not a side parser.
 */

const folder = join(process.cwd(), 'fixtures', 'webvtt', 'wpt-file-parsing');

interface BrowserCue extends WebVttCuePlacement {
  id: string;
  text: string;
  startTime: number;
  endTime: number;
}

interface Parsed {
  cues: BrowserCue[];
  regions: WebVttRegion[];
  blocks: WebVttPreamble['blocks'];
}

async function parseFile(name: string): Promise<Parsed> {
  const document = await load(isAbsolute(name) ? name : join(folder, name), { sourceName: name, now: RationalTime.now(1000), report: (finding) => findings.push(formatFinding(finding)) });
  const annotations: Annotation[] = [];
  for await (const annotation of document.annotations) annotations.push(annotation);
  const regions = readRegions(document.meta[REGIONS_META_KEY] ?? null) ?? [];
  const preamble = JSON.parse(document.meta[PREAMBLE_META_KEY]) as WebVttPreamble;
  const cues = annotations.map((annotation) => {
    const body = annotation.body as Record<string, unknown>;
    const { start, end } = (annotation.reference as { interval: TimeInterval }).interval;
    const startTime = start.v / start.r;
    // A cue whose end precedes its start is kept as a point at its start, the end as written beside it.
    const endTime = typeof body.written_end === 'string' ? seconds(body.written_end) : end.v / end.r;
    return { id: body.id as string, text: body.text as string, startTime, endTime, ...placementOf(settingsOfBody(body), regions) };
  });
  return { cues, regions, blocks: preamble.blocks };
}

const findings: string[] = [];

function seconds(timestamp: string): number {
  const parts = timestamp.split(':').map(Number);
  return parts.reduce((total, part) => total * 60 + part, 0);
}

const texts = (cues: BrowserCue[]): string[] => cues.map((cue) => cue.text);
const numbered = (count: number, prefix = 'text'): string[] => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

const oneCueZeroToOne = ({ cues }: Parsed): void => {
  expect(cues).toHaveLength(1);
  expect(cues[0]).toMatchObject({ text: 'text', startTime: 0, endTime: 1 });
};
const noCues = ({ cues }: Parsed): void => expect(cues).toHaveLength(0);

const expectations: Record<string, (parsed: Parsed) => void> = {
  'arrows.vtt': ({ cues }) => {
    expect(cues).toHaveLength(6);
    expect(cues.map((cue) => cue.id)).toEqual(Array(6).fill(''));
    expect(texts(cues)).toEqual(numbered(6));
  },
  'header-garbage.vtt': oneCueZeroToOne,
  'header-space.vtt': oneCueZeroToOne,
  'header-tab.vtt': oneCueZeroToOne,
  'header-timings.vtt': oneCueZeroToOne,
  'ids.vtt': ({ cues }) => {
    expect(cues.map((cue) => cue.id)).toEqual([' leading space', 'trailing space ', '-- >', '->', ' ']);
  },
  'newlines.vtt': ({ cues }) => {
    expect(cues.map((cue) => cue.id)).toEqual(['cr', 'lf', 'crlf', 'lfcr']);
    expect(texts(cues)).toEqual(numbered(4));
  },
  'nulls.vtt': ({ cues }) => {
    expect(cues).toHaveLength(7);
    expect(cues.slice(0, 3).map(({ id, text }) => ({ id, text }))).toEqual([
      { id: '', text: 'text0' },
      { id: '\uFFFD (null in id)', text: 'text1' },
      { id: '\uFFFD (null in cue data)', text: '\uFFFDtext\uFFFD2' },
    ]);
    expect(cues.slice(3).map(({ align, text }) => ({ align, text }))).toEqual([
      { align: 'center', text: 'text3' },
      { align: 'center', text: 'text4' },
      { align: 'center', text: 'text5' },
      { align: 'end', text: 'text6' },
    ]);
  },
  'regions-id.vtt': ({ cues }) => {
    expect(cues.map((cue) => cue.region?.lines)).toEqual([2, 1, 3, 4]);
  },
  'regions-lines.vtt': ({ cues }) => {
    expect(cues).toHaveLength(13);
    expect(cues.map((cue) => cue.region?.lines)).toEqual([0, 1, 100, 101, 65536, 4294967296, 18446744073709552000, 1e34, 2, 3, 3, 3, 3]);
  },
  'regions-old.vtt': ({ cues }) => {
    expect(cues.map((cue) => cue.region)).toEqual([null, null]);
  },
  'regions-regionanchor.vtt': ({ cues }) => {
    expect(cues).toHaveLength(20);
    const valid = [[0, 100], [0, 0], [1, 1], [100, 0], [0, 100], [100, 100]];
    const expected = [...valid, ...Array(14).fill([0, 100])];
    expect(cues.map((cue) => [cue.region?.regionAnchorX, cue.region?.regionAnchorY])).toEqual(expected);
  },
  'regions-scroll.vtt': ({ cues }) => {
    expect(cues.map((cue) => cue.region?.scroll)).toEqual(['', 'up', 'up', '', '', 'up']);
  },
  'regions-viewportanchor.vtt': ({ cues }) => {
    expect(cues).toHaveLength(20);
    const valid = [[0, 100], [0, 0], [1, 1], [100, 0], [0, 100], [100, 100]];
    const expected = [...valid, ...Array(14).fill([0, 100])];
    expect(cues.map((cue) => [cue.region?.viewportAnchorX, cue.region?.viewportAnchorY])).toEqual(expected);
  },
  'settings-align.vtt': ({ cues }) => {
    expect(cues.map((cue) => cue.align)).toEqual(['center', 'start', 'center', 'end', 'left', 'right', 'end', 'end', 'end', 'end', 'end', 'end', 'center']);
  },
  'settings-line.vtt': ({ cues }) => {
    expect(cues).toHaveLength(46);
    const valid = [-1, 0, 0, 1, 100, 101, 65536, 4294967296, 18446744073709552000, 1e34, 1.5, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, 0];
    valid.forEach((line, i) => expect([i, cues[i].line, cues[i].snapToLines]).toEqual([i, line, true]));
    for (let i = valid.length; i < valid.length + 23; i++) expect([i, cues[i].line, cues[i].snapToLines]).toEqual([i, 'auto', true]);
    const specific = cues.slice(valid.length + 23).map(({ line, snapToLines, lineAlign }) => ({ line, snapToLines, lineAlign }));
    expect(specific).toEqual([
      { line: 0, snapToLines: false, lineAlign: 'start' },
      { line: 0, snapToLines: false, lineAlign: 'start' },
      { line: 100, snapToLines: false, lineAlign: 'start' },
      { line: 100, snapToLines: false, lineAlign: 'start' },
      { line: 100, snapToLines: false, lineAlign: 'center' },
      { line: 100, snapToLines: false, lineAlign: 'end' },
      { line: Number.MIN_VALUE, snapToLines: false, lineAlign: 'start' },
      { line: 0, snapToLines: false, lineAlign: 'start' },
    ]);
  },
  'settings-multiple.vtt': ({ cues }) => {
    expect(cues).toHaveLength(2);
    expect(cues[0]).toMatchObject({ id: 'id0', text: 'text0', align: 'start', line: 1, snapToLines: false, vertical: 'lr', size: 50, position: 25 });
    expect(cues[1]).toMatchObject({ id: 'id1', text: 'text1', align: 'center', line: 1, vertical: 'rl', size: 0, position: 100 });
  },
  'settings-position.vtt': ({ cues }) => {
    expect(cues).toHaveLength(22);
    const valid = [[1, 'auto'], [100, 'auto'], [1, 'auto'], [1.5, 'auto'], [1, 'line-left'], [1, 'center'], [1, 'line-right'], [1, 'auto']];
    expect(cues.map((cue) => [cue.position, cue.positionAlign])).toEqual([...valid, ...Array(14).fill(['auto', 'auto'])]);
  },
  'settings-region.vtt': ({ cues }) => {
    expect(cues).toHaveLength(9);
    const foo = cues[0].region;
    const bar = cues[1].region;
    expect(foo).not.toBeNull();
    expect(bar).not.toBeNull();
    expect(foo).not.toBe(bar);
    const regions = cues.map((cue) => cue.region);
    [foo, bar, bar, null, foo, null, null, null, null].forEach((region, i) => expect([i, regions[i]]).toEqual([i, region]));
    expect(regions[4]).toBe(foo);
  },
  'settings-size.vtt': ({ cues }) => {
    expect(cues.map((cue) => cue.size)).toEqual([100, 2, 0, 0, 100, 50, 1.5, ...Array(9).fill(100)]);
  },
  'settings-vertical.vtt': ({ cues }) => {
    expect(cues.map((cue) => cue.vertical)).toEqual(['', 'lr', 'rl', 'lr', '', '', '', '']);
  },
  'signature-bom.vtt': noCues,
  'signature-no-newline.vtt': noCues,
  'signature-space-no-newline.vtt': noCues,
  'signature-space.vtt': noCues,
  'signature-tab-no-newline.vtt': noCues,
  'signature-tab.vtt': noCues,
  'signature-timings.vtt': noCues,
  'stylesheets.vtt': ({ cues, blocks }) => {
    expect(cues.map((cue) => cue.id)).toEqual(['foo', 'bar']);
    // One style sheet: the STYLE block before the first cue, ending at its blank line; the one after a cue is not a style sheet.
    const styles = blocks.filter((block) => block.kind === 'STYLE');
    expect(styles).toHaveLength(1);
    expect(styles[0].text).toBe('::cue(#foo) {\n    width: 20px;\n} /*\nNOTE hello\n00:00:00.000 -- > 00:00:01.000\n*/\n.foo {\n    width: 19px;\n}');
  },
  'timings-60.vtt': ({ cues }) => {
    expect(cues.map(({ text, startTime, endTime }) => [text, startTime, endTime])).toEqual([
      ['text1', 0, 216001],
      ['text2', 216000, 216001],
    ]);
  },
  'timings-eof.vtt': noCues,
  'timings-garbage.vtt': noCues,
  'timings-negative.vtt': ({ cues }) => {
    expect(cues.map(({ text, startTime, endTime }) => [text, startTime, endTime])).toEqual([
      ['text0', 0, 0],
      ['text1', 1, 0.999],
      ['text2', 60, 59.999],
      ['text3', 3600, 3599.999],
    ]);
  },
  'timings-omitted-hours.vtt': ({ cues }) => {
    expect(cues.map(({ text, startTime, endTime }) => [text, startTime, endTime])).toEqual(numbered(3).map((text) => [text, 0, 1]));
  },
  'timings-too-long.vtt': ({ cues }) => {
    expect(cues.map(({ text, startTime, endTime }) => [text, startTime, endTime])).toEqual(numbered(2).map((text) => [text, 0, 1]));
  },
  'timings-too-short.vtt': ({ cues }) => {
    expect(cues.map(({ text, startTime, endTime }) => [text, startTime, endTime])).toEqual(numbered(2).map((text) => [text, 0, 1]));
  },
  'whitespace-chars.vtt': ({ cues }) => {
    expect(cues.map(({ id, text }) => [id, text])).toEqual([
      ['spaces', '   text0'],
      ['tabs', 'text1'],
      ['form feed', 'text2'],
    ]);
  },
};

describe('the W3C WebVTT file-parsing suite', () => {
  it('has an expectation for every input in the folder, and an input for every expectation', () => {
    const inputs = readdirSync(folder).filter((name) => name.endsWith('.vtt')).sort();
    expect(inputs).toEqual(Object.keys(expectations).sort());
  });

  it.each(Object.keys(expectations))('parses %s as the suite expects', async (name) => {
    expectations[name](await parseFile(name));
  });

  it.each(Object.keys(expectations))('writes %s back so that it reads back as the same cues, settings and regions', async (name) => {
    const dir = mkdtempSync(join(tmpdir(), 'annot-wpt-'));
    try {
      const store = new MemoryStore();
      await loadIntoStore(await load(join(folder, name), { sourceName: name, now: RationalTime.now(1000), report: () => undefined }), store);
      const out = join(dir, name);
      await dump(store, out, { targetName: out, warn: () => undefined });
      const before = await parseFile(name);
      const after = await parseFile(out);
      expect(after.cues).toEqual(before.cues);
      expect(after.regions).toEqual(before.regions);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

import { join } from 'node:path';
import { PREAMBLE_META_KEY, type WebVttPreamble } from '../../src/adapters/webvtt/preamble.js';
import { brief, ms, readBack, readFile, texts, writeAs } from './webvtt-srt-helpers.js';

/**
 * WebVTT files from other projects' test suites (fixtures/webvtt/other-tools, sources and
 * licences in SOURCES.md there), with what those projects' own tests assert about them, and what
 * annot adds: speakers from voice spans, typed settings, SRT output without WebVTT-only markup.
 */

const folder = join(process.cwd(), 'fixtures', 'webvtt', 'other-tools');
const file = (name: string): string => join(folder, name);
const preambleOf = (meta: Record<string, string>): WebVttPreamble => JSON.parse(meta[PREAMBLE_META_KEY]) as WebVttPreamble;

describe('WebVTT files from other tools', () => {
  it("webvtt-py comments.vtt: 3 captions, the first two lines and the last text as webvtt-py's test_parse_with_comments asserts, NOTE blocks kept", async () => {
    const read = await readFile(file('webvttpy_comments.vtt'));
    expect(read.annotations).toHaveLength(3);
    expect(texts(read)[0].split('\n')).toEqual(['- Ta en kopp varmt te.', '- Det är inte varmt.']);
    expect(texts(read)[2].trim()).toBe('- Ta en kopp');
    expect(read.annotations[2].body.notes_before).toEqual(['NOTE This last line may not translate well.']);
    expect(preambleOf(read.meta).blocks.filter((block) => block.kind === 'NOTE')).toHaveLength(1);
    expect(read.findings).toEqual([]);
  });

  it("webvtt-py styles.vtt: 1 caption and the first style sheet as webvtt-py's test_parse_styles asserts (lines joined without their indentation), read as plain text with its tags beside it", async () => {
    const read = await readFile(file('webvttpy_styles.vtt'));
    expect(texts(read)).toEqual(['- Hello world.']);
    expect(read.annotations[0].body.raw).toBe('- Hello <b>world</b>.');
    const styles = preambleOf(read.meta).blocks.filter((block) => block.kind === 'STYLE');
    expect(styles).toHaveLength(2);
    expect(styles[0].text.split('\n').map((line) => line.trim()).join('')).toBe('::cue {background-image: linear-gradient(to bottom, dimgray, lightgray);color: papayawhip;}');
    expect(await writeAs(read.store, '.vtt')).toBe(`WEBVTT\n\nSTYLE\n${styles[0].text}\n\nSTYLE\n${styles[1].text}\n\n00:00:00.000 --> 00:00:10.000\n- Hello <b>world</b>.`); // no final line break, as in the file
  });

  it("webvtt-py cue_tags.vtt: the clean texts webvtt-py's test_clean_cue_tags asserts, timestamp tags and class spans kept beside them for .vtt, gone in .srt", async () => {
    const read = await readFile(file('webvttpy_cue_tags.vtt'));
    expect(read.annotations.map(ms)).toEqual([[16500, 18500], [18500, 20500], [20500, 21500]]);
    expect(texts(read)[1]).toBe('Like a big-a pizza pie');
    expect(read.annotations[1].body.raw).toBe('Like a <00:19.000>big-a <00:19.500>pizza <00:20.000>pie');
    expect(await writeAs(read.store, '.vtt')).toContain('Like a <00:19.000>big-a <00:19.500>pizza <00:20.000>pie');
    expect(await writeAs(read.store, '.srt')).toBe(
      "1\n00:00:16,500 --> 00:00:18,500\nWhen the moon hits your eye\n\n2\n00:00:18,500 --> 00:00:20,500\nLike a big-a pizza pie\n\n3\n00:00:20,500 --> 00:00:21,500\nThat's amore\n\n",
    );
  });

  it('vtt.js spec-example.vtt: 13 cues with hour-less times, speakers from the voice spans, settings typed; SRT plain or "Name: text"', async () => {
    const read = await readFile(file('vttjs_spec-example.vtt'));
    expect(read.annotations).toHaveLength(13);
    expect(read.annotations.map(ms)[0]).toEqual([11000, 13000]);
    expect(read.annotations.map(ms)[12]).toEqual([35500, 38000]);
    expect(new Set(read.annotations.map((a) => a.body.speaker))).toEqual(new Set(['Roger Bingham', 'Neil deGrasse Tyson']));
    expect(read.annotations[8].body).toMatchObject({ align: 'end', size: 50, settings: 'align:end size:50%' });
    const srt = await writeAs(read.store, '.srt');
    expect(srt.startsWith('1\n00:00:11,000 --> 00:00:13,000\nWe are in New York City\n\n')).toBe(true);
    expect(srt).not.toMatch(/<v[ .]/);
    const prefixed = await writeAs(read.store, '.srt', { variant: 'speaker-prefix' });
    expect(prefixed.startsWith('1\n00:00:11,000 --> 00:00:13,000\nRoger Bingham: We are in New York City\n\n')).toBe(true);
    expect(await writeAs(read.store, '.srt', { speakerPrefix: true })).toBe(prefixed);
  });

  it('vtt.js cycle-collector-talk.vtt: 15 cues; a cue with two voices takes the first as its speaker', async () => {
    const read = await readFile(file('vttjs_cycle-collector-talk.vtt'));
    expect(read.annotations).toHaveLength(15);
    expect(read.annotations[0].body.speaker).toBe('Kyle Huey');
    expect(read.annotations[1].body.speaker).toBe('Chris Pearce');
    expect(read.annotations.map(ms).at(-1)).toEqual([96000, 108000]);
    const srt = await writeAs(read.store, '.srt');
    expect(srt).toContain("Okay, we're good now.\n Oh, now we're good?\n<i>Laughter</i>");
  });

  it('vtt.js voice/with-two-subclasses.vtt: <v.first.loud Joe> names Joe', async () => {
    const read = await readFile(file('vttjs_voice_with-two-subclasses.vtt'));
    expect(read.annotations.map((a) => a.body.speaker)).toEqual(['Joe']);
    expect(await writeAs(read.store, '.srt')).toBe("1\n00:00:00,000 --> 00:00:02,000\nThat's awesome!\n\n");
  });

  it('vtt.js many-comments.vtt: 2 cues, the NOTE before the first in the preamble, the one between them on the second, the last reported as not kept', async () => {
    const read = await readFile(file('vttjs_many-comments.vtt'));
    expect(read.annotations.map(ms)).toEqual([[1000, 4000], [5000, 9000]]);
    expect(read.annotations[1].body.notes_before).toEqual(['NOTE check next cue']);
    expect(read.findings.map((finding) => finding.code)).toEqual(['note_dropped']);
  });

  it('go-astisub example-in-carriage-return.vtt: a BOM and bare CR breaks, 3 cues with ids', async () => {
    const read = await readFile(file('astisub_example-in_cr_line_endings.vtt'));
    expect(read.annotations.map((a) => a.body.id)).toEqual(['1', '2', '3']);
    expect(read.annotations.map(ms)).toEqual([[0, 3766], [3767, 10732], [10733, 14066]]);
    expect(texts(read)[0]).toBe('Did one of the last stories strike you as\nmore interesting than the other?');
  });

  it('go-astisub example-in.vtt (BOM, NOTE, two STYLE blocks): no cue by the W3C rules (two-digit fractions, "00:01:39"), every dropped block reported with its line', async () => {
    // go-astisub reads this file leniently (6 cues); a browser, following the specification, shows none.
    const read = await readFile(file('astisub_example-in_lenient.vtt'));
    expect(read.annotations).toHaveLength(0);
    const preamble = preambleOf(read.meta);
    expect(preamble.blocks.map((block) => block.kind)).toEqual(['NOTE', 'STYLE', 'STYLE', 'NOTE']);
    expect(preamble.blocks[0].text).toBe('NOTE this a nice example\nNOTE of a VTT');
    expect(read.findings.map(brief)).toEqual([21, 25, 29, 36, 40, 45, 49, 54].map((line) => `warning block_dropped @${line}`));
  });

  it.each(['webvttpy_comments.vtt', 'webvttpy_styles.vtt', 'webvttpy_cue_tags.vtt', 'vttjs_spec-example.vtt', 'vttjs_cycle-collector-talk.vtt', 'vttjs_voice_with-two-subclasses.vtt', 'vttjs_many-comments.vtt', 'astisub_example-in_cr_line_endings.vtt'])(
    '%s written back as WebVTT reads back the same',
    async (name) => {
      const { before, after } = await readBack(file(name));
      expect(after).toEqual(before);
    },
  );
});

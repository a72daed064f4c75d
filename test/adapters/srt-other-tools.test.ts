import { join } from 'node:path';
import { brief, ms, readBack, readFile, texts, writeAs } from './webvtt-srt-helpers.js';

/**
 * SRT files from other projects' test suites (fixtures/srt/other-tools, sources and licences in
 * SOURCES.md there), with what those projects' own tests assert. Files webvtt-py refuses
 * (MalformedCaptionError) annot reads tolerantly, but says so as a warning with the line, so that
 * `annot validate --strict` refuses them too.
 */

const folder = join(process.cwd(), 'fixtures', 'srt', 'other-tools');
const file = (name: string): string => join(folder, name);

describe('SRT files from other tools', () => {
  it("webvtt-py sample.srt: 5 captions, the third 00:00:11.890-00:00:16.320 and a total length of 23 s, as webvtt-py's tests assert", async () => {
    const read = await readFile(file('webvttpy_sample.srt'));
    expect(read.annotations).toHaveLength(5);
    expect(read.annotations.map(ms)[2]).toEqual([11890, 16320]);
    expect(Math.floor(ms(read.annotations[4])[1] / 1000)).toBe(23);
    expect(texts(read)).toEqual([1, 2, 3, 4, 5].map((n) => `Caption text #${n}`));
    expect(read.findings).toEqual([]);
  });

  it('webvtt-py one_caption.srt (no final newline): one caption 0.5-7 s, one line "Caption text #1"', async () => {
    const read = await readFile(file('webvttpy_one_caption_no_final_newline.srt'));
    expect(read.annotations.map(ms)).toEqual([[500, 7000]]);
    expect(texts(read)).toEqual(['Caption text #1']);
  });

  it('webvtt-py missing_caption_text.srt: the caption without text is kept (webvtt-py drops it and keeps 4)', async () => {
    const read = await readFile(file('webvttpy_missing_caption_text.srt'));
    expect(texts(read)).toEqual(['Caption text #1', '', 'Caption text #3', 'Caption text #4', 'Caption text #5']);
    expect(read.findings).toEqual([]);
  });

  it('webvtt-py missing_timeframe.srt (refused there): the block without a timing is dropped with a warning at its line', async () => {
    const read = await readFile(file('webvttpy_missing_timeframe.srt'));
    expect(texts(read)).toEqual(['Caption text #1', 'Caption text #3', 'Caption text #4', 'Caption text #5']);
    expect(read.findings.map(brief)).toEqual(['warning block_dropped @5']);
  });

  it('webvtt-py invalid_timeframe.srt (refused there): "00:00:11.890" is read, with a timestamp_nonstandard warning at its line', async () => {
    const read = await readFile(file('webvttpy_invalid_timeframe.srt'));
    expect(read.annotations.map(ms)[1]).toEqual([7000, 11890]);
    expect(read.findings.map(brief)).toEqual(['warning timestamp_nonstandard @6']);
  });

  it('go-astisub example-in-styled.srt: 10 subtitles read as plain text, their HTML tags kept beside it as written, and written back so', async () => {
    const read = await readFile(file('astisub_example-in-styled.srt'));
    expect(read.annotations).toHaveLength(10);
    expect(texts(read)[0]).toBe('[instrumental music]');
    expect(read.annotations[0].body.raw).toBe('<font color="#00ff00"><b>[instrumental music]</b></font>');
    expect(texts(read)[3]).toBe('[dog barking]');
    expect(read.annotations[3].body.raw).toBe('<b><u>[dog barking]</u></b>');
    expect(texts(read)[6]).toBe('Test with multi line italics\nTerminated on the next line');
    expect(read.annotations[6].body.raw).toBe('<i>Test with multi line italics\nTerminated on the next line</i>');
    expect(read.annotations.map(ms).at(-1)).toEqual([720000, 780000]);
    const srt = await writeAs(read.store, '.srt');
    expect(srt).toContain('4\n00:01:01,662 --> 00:01:03,063\n<b><u>[dog barking]</u></b>\n\n');
  });

  it('go-astisub missing-sequence-in.srt (no numbers, two-digit fractions, "00:01:39"): 6 subtitles, coordinates kept, each odd timing line a warning, written back numbered', async () => {
    const read = await readFile(file('astisub_missing-sequence-numbers.srt'));
    expect(read.annotations.map(ms)).toEqual([[99000, 101040], [124080, 127120], [132160, 135200], [140240, 142280], [148320, 151360], [151400, 153440]]);
    expect(read.annotations.map((a) => a.body.sequence)).toEqual(Array(6).fill(null));
    expect(read.annotations[1].body.coordinates).toBe('X1:40 X2:600 Y1:20 Y2:50');
    expect(read.findings.map(brief)).toEqual([1, 4, 8, 11, 14, 18].map((line) => `warning timestamp_nonstandard @${line}`));
    const srt = await writeAs(read.store, '.srt');
    expect(srt.startsWith('1\n00:01:39,000 --> 00:01:41,040\n(deep rumbling)\n\n2\n00:02:04,080 --> 00:02:07,120 X1:40 X2:600 Y1:20 Y2:50\nMAN:\nHow did we end up here?\n\n3\n')).toBe(true);
  });

  it('go-astisub example-in-html-entities.srt: entities kept as written', async () => {
    const read = await readFile(file('astisub_html-entities.srt'));
    expect(texts(read)).toEqual(['The man in black fled across the desert, &nbsp;\n&amp; the gunslinger followed.', 'Go,&nbsp;then,', 'there are other &lt; worlds than these.']);
  });

  it.each(['webvttpy_sample.srt', 'webvttpy_one_caption_no_final_newline.srt', 'webvttpy_missing_caption_text.srt', 'astisub_example-in-styled.srt', 'astisub_missing-sequence-numbers.srt', 'astisub_html-entities.srt'])(
    '%s written back as SRT reads back the same',
    async (name) => {
      const { before, after } = await readBack(file(name));
      expect(after).toEqual(before);
    },
  );
});

import { join } from 'node:path';
import { sbvFormat, SBV_CUE_SCHEMA } from '../../src/adapters/sbv/format.js';
import { formatSbvTime, SbvParser, type SbvCue } from '../../src/adapters/sbv/sbv-parser.js';
import { validateBody } from '../../src/schemas/registry.js';
import { brief, ms, readFile, readText, texts, writeAs, writtenAndRead } from './subtitle-formats-helpers.js';

/**
 * YouTube SBV. The files of fixtures/sbv/webvtt-py are webvtt-py's (tests/subtitles), with what its
 * tests/test_sbv_parser.py asserts about them; where webvtt-py refuses a file (MalformedCaptionError)
 * annot reads it tolerantly, as it reads SRT, and says what it dropped at its line.
 */
const file = (name: string): string => join(process.cwd(), 'fixtures', 'sbv', 'webvtt-py', name);

describe('the SBV parser', () => {
  const parse = (lines: string[]) => {
    const cues: SbvCue[] = [];
    const skipped: number[] = [];
    const parser = new SbvParser({ cue: (cue) => cues.push(cue), skipped: (line) => skipped.push(line) });
    parser.push(lines);
    parser.end();
    return { cues, skipped };
  };

  it('reads timing lines, caption lines up to a blank line (or the next timing line), and skips blocks without a timing', () => {
    const { cues, skipped } = parse(['0:00:01.000,0:00:03.500', 'one', 'two', '', 'stray', 'block', '', '1:02:03.4,1:02:04.45', 'x', '0:00:09.000,0:00:10.000']);
    expect(cues.map((cue) => [cue.startMs, cue.endMs, cue.text, cue.line, cue.nonstandard])).toEqual([
      [1000, 3500, 'one\ntwo', 1, false],
      [3723400, 3724450, 'x', 8, true],
      [9000, 10000, '', 10, false],
    ]);
    expect(skipped).toEqual([5]);
  });

  it('writes h:mm:ss.mmm', () => {
    expect(formatSbvTime(3723004)).toBe('1:02:03.004');
    expect(formatSbvTime(0)).toBe('0:00:00.000');
  });
});

describe('webvtt-py tests/test_sbv_parser.py', () => {
  it('sample.sbv: 5 captions; the second 00:00:11.378-00:00:12.305 "Caption text #2", the third on two lines', async () => {
    const read = await readFile(file('sample.sbv'));
    expect(read.annotations).toHaveLength(5);
    expect(read.annotations.map(ms)[1]).toEqual([11378, 12305]);
    expect(texts(read)[1]).toBe('Caption text #2');
    expect(texts(read)[2]).toBe('Caption text #3 (line 1)\nCaption text #3 (line 2)');
    // The fifth ends (16.543) before it starts (17.484): webvtt-py takes it as written, annot keeps a point and says so.
    expect(read.annotations.map(ms)[4]).toEqual([17484, 17484]);
    expect(read.findings.map(brief)).toEqual(['error cue_end_before_start @14']);
    for (const annotation of read.annotations) expect(validateBody(SBV_CUE_SCHEMA, annotation.body).errors).toEqual([]);
  });

  it('missing_caption_text.sbv: the caption without text is kept', async () => {
    const read = await readFile(file('missing_caption_text.sbv'));
    expect(texts(read)).toEqual(['Caption text #1', '', 'Caption text #3', 'Caption text #4', 'Caption text #5']);
  });

  it('missing_timeframe.sbv (refused there): the block without a timing line is dropped with a warning at its line', async () => {
    const read = await readFile(file('missing_timeframe.sbv'));
    expect(texts(read)).toEqual(['Caption text #1', 'Caption text #3', 'Caption text #4', 'Caption text #5']);
    expect(read.findings.map(brief)).toContain('warning block_dropped @4');
  });

  it('invalid_timeframe.sbv (refused there): "0:00:13.f89" is no timing line, so its block is dropped with a warning', async () => {
    const read = await readFile(file('invalid_timeframe.sbv'));
    expect(texts(read)).toEqual(['Caption text #1', 'Caption text #2', 'Caption text #4', 'Caption text #5']);
    expect(read.findings.map(brief)).toContain('warning block_dropped @7');
  });

  it('invalid_format.sbv (refused there too): a file without one caption is refused, naming its first line', async () => {
    await expect(readFile(file('invalid_format.sbv'))).rejects.toThrow(/^invalid_format\.sbv:1:1: expected a timing line like "0:00:01\.000,0:00:02\.000", found "some text"$/);
  });
});

describe('SBV round trips and conversions', () => {
  it('SBV -> SBV keeps times and texts; SBV -> SRT gives the cues a user expects', async () => {
    const read = await readFile(file('two_captions.sbv'));
    const back = await writtenAndRead(read.store, '.sbv');
    expect(back.annotations.map((a) => [ms(a), a.body])).toEqual(read.annotations.map((a) => [ms(a), a.body]));
    expect(back.text).toBe('0:00:00.378,0:00:11.378\nCaption text #1\n\n0:00:11.378,0:00:12.305\nCaption text #2 (line 1)\nCaption text #2 (line 2)\n\n');
    expect((await writeAs(read.store, '.srt')).text).toBe('1\n00:00:00,378 --> 00:00:11,378\nCaption text #1\n\n2\n00:00:11,378 --> 00:00:12,305\nCaption text #2 (line 1)\nCaption text #2 (line 2)\n\n');
  });

  it('writes plain text: styling left out and counted, a speaker as "Name: text" only with speaker-prefix, a line that would read as a timing marked', async () => {
    const vtt = await readText('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Mara><i>Hi</i> &amp; bye\n\n00:00:03.000 --> 00:00:04.000\n0:00:05.000,0:00:06.000\n', '.vtt');
    const { text, report } = await writeAs(vtt.store, '.sbv');
    expect(text).toBe('0:00:01.000,0:00:02.000\nHi & bye\n\n0:00:03.000,0:00:04.000\n\u200b0:00:05.000,0:00:06.000\n\n');
    expect(report.dropped).toEqual(expect.arrayContaining([{ what: 'italic, bold and underline (SBV is plain text)', count: 1 }, { what: 'speakers (the variant speaker-prefix writes them as "Name: text")', count: 1 }]));
    expect((await writeAs(vtt.store, '.sbv', { variant: 'speaker-prefix' })).text).toContain('Mara: Hi & bye');
    expect(texts(await readText(text, '.sbv'))).toHaveLength(2);
  });

  it('is sniffed by its first timing line', () => {
    expect(sbvFormat.sniff(Buffer.from('\n0:00:00.378,0:00:11.378\nCaption\n'))).toBe(true);
    expect(sbvFormat.sniff(Buffer.from('00:00:00,378 --> 00:00:11,378\n'))).toBe(false);
  });
});

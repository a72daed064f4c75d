import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCRIPT_INFO_META, SECTIONS_META, STYLES_META } from '../../src/adapters/ass/ass-model.js';
import type { MemoryStore } from '../../src/store/memory.js';
import { brief, ms, readFile, readText, texts, writeAs, writtenAndRead } from './subtitle-formats-helpers.js';

/**
 * SubStation files from other projects' tests (fixtures/ass, sources in fixtures/SOURCES.md),
 * with what those projects assert about them: pysubs2 (tests/formats/test_substation.py,
 * tests/test_attachment.py, tests/formats/test_ttml.py) and libass (compare/test, rendered at the
 * times of its reference images). Files annot writes are opened with libass itself, through the
 * `ass` filter of the bundled ffmpeg, which logs how many styles and events libass read.
 */
const pysubs2 = (name: string): string => join(process.cwd(), 'fixtures', 'ass', 'pysubs2', name);
const libass = (name: string): string => join(process.cwd(), 'fixtures', 'ass', 'libass', name);
const ffmpeg = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;

/** What libass makes of a file: its log line "Added subtitle file: '…' (N styles, M events)" and the lines it did not understand. */
function openedByLibass(text: string): { styles: number; events: number; notUnderstood: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'annot-libass-'));
  try {
    const path = join(dir, 'subtitles.ass');
    writeFileSync(path, text);
    const run = spawnSync(ffmpeg, ['-hide_banner', '-v', 'debug', '-f', 'lavfi', '-i', 'color=c=black:s=384x288:d=1', '-vf', `ass=${path}`, '-frames:v', '1', '-f', 'null', '-'], { encoding: 'utf8', env: { ...process.env, FONTCONFIG_FILE: '/dev/null' } });
    const added = /Added subtitle file: '[^']*' \((\d+) styles, (\d+) events\)/.exec(run.stderr);
    if (added === null) throw new Error(`libass did not open the file: ${run.stderr.split('\n').slice(-5).join(' | ')}`);
    const notUnderstood = [...run.stderr.matchAll(/Not understood: '([^']*)'/g)].map((match) => match[1]);
    return { styles: Number(added[1]), events: Number(added[2]), notUnderstood };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const dialogueLines = (text: string): string[] => text.split('\n').filter((line) => /^(Dialogue|Comment):/.test(line));
/** The 1-based line of a fixture that starts with `prefix`. */
const lineOf = (file: string, prefix: string): number => readFileSync(file, 'utf8').split('\n').findIndex((line) => line.startsWith(prefix)) + 1;
/** The Start, End and Text of an event line (the columns pysubs2 fills from a TTML file). */
const timesAndText = (line: string): string[] => {
  const fields = line.split(',');
  return [fields[1], fields[2], fields.slice(9).join(',').trimEnd()];
};

describe('pysubs2 test_substation.py', () => {
  it('test_simple_read: the ASS and the SSA reference read as the same three events, the Comment one marked', async () => {
    for (const file of ['simple.ass', 'simple.ssa']) {
      const read = await readFile(pysubs2(file));
      expect(read.annotations.map(ms)).toEqual([[0, 60000], [0, 60000], [60000, 120000]]);
      expect(texts(read)).toEqual(['An, example, subtitle.', "You can't see this one.", 'Subtitle number\ntwo.']);
      expect(read.annotations.map((a) => a.body.comment ?? false)).toEqual([false, true, false]);
      expect(JSON.parse(read.meta[SCRIPT_INFO_META])).toContain('My Custom Info: Some: Test, String.');
      expect(JSON.parse(read.meta[STYLES_META]).styles.map((style: Record<string, string>) => style.Name)).toEqual(['Default', 'topleft', 'left']);
    }
  });

  it('test_simple_write: both references are written back byte for byte (ASS -> .annot -> ASS, SSA -> SSA)', async () => {
    for (const file of ['simple.ass', 'simple.ssa']) {
      const read = await readFile(pysubs2(file));
      expect((await writeAs(read.store, file.endsWith('.ssa') ? '.ssa' : '.ass')).text).toBe(readFileSync(pysubs2(file), 'utf8'));
    }
  });

  it('test_aegisub_project_garbage: the [Aegisub Project Garbage] section is in the file written', async () => {
    const read = await readFile(pysubs2('aegisub_project_garbage.ass'));
    const garbage = '[Aegisub Project Garbage]\nLast Style Storage: Default\nVideo File: ?dummy:23.976000:40000:640:480:47:163:254:\nVideo AR Value: 1.333333\nVideo Zoom Percent: 0.500000\nActive Line: 2';
    expect((await writeAs(read.store, '.ass')).text).toContain(garbage);
  });

  it('test_no_space_after_colon_in_metadata_section: the same events and Aegisub values with or without the space', async () => {
    const spaced = await readFile(pysubs2('aegisub_project_garbage.ass'));
    const tight = await readFile(pysubs2('no_space_after_colon.ass'));
    expect(tight.annotations.map((a) => [ms(a), a.body])).toEqual(spaced.annotations.map((a) => [ms(a), a.body]));
    const values = (read: typeof spaced) => (JSON.parse(read.meta[SECTIONS_META])[0].lines as string[]).map((line) => line.split(/:(.*)/).map((part) => part.trim()).slice(0, 2));
    expect(values(tight)).toEqual(values(spaced));
  });

  it('test_negative_timestamp_read: -1:59:54.93 is read (as 0, as players show it, with a warning) and written as 0:00:00.00', async () => {
    const read = await readFile(pysubs2('negative_timestamp.ass'));
    expect(read.annotations.map(ms)[0]).toEqual([0, 60000]);
    expect(read.findings.map(brief)).toContain(`warning timestamp_negative @${lineOf(pysubs2('negative_timestamp.ass'), 'Dialogue: 0,-1:59:54.93')}`);
    expect(dialogueLines((await writeAs(read.store, '.ass')).text)[0]).toBe('Dialogue: 0,0:00:00.00,0:01:00.00,Default,,0,0,0,,An, example, subtitle.');
  });

  it('test_centisecond_rounding: 1:01:00.004 and 1:01:00.005 are written 1:01:00.00 and 1:01:00.01', async () => {
    const srt = await readText('1\n01:01:00,004 --> 01:01:00,005\nx\n', '.srt');
    const back = await writtenAndRead(srt.store, '.ass');
    expect(back.annotations.map(ms)).toEqual([[3660000, 3660010]]);
  });

  it('test_hex_color_in_ssa: colours and fields of an SSA file by SrtEdit kept as written', async () => {
    const read = await readFile(pysubs2('hex_color.ssa'));
    const style = JSON.parse(read.meta[STYLES_META]).styles[0];
    expect(style).toMatchObject({ Name: 'Default', PrimaryColour: '&HFFFFFF', SecondaryColour: '&H00FFFF', TertiaryColour: '&H000000' });
    expect(read.annotations.map((a) => a.body)).toEqual([{ text: '-脫逃-', style: 'Default', speaker: 'NTP', effect: '!Effect' }]);
    expect(read.annotations.map(ms)).toEqual([[90300, 95300]]);
  });

  it('test_ass_with_malformed_style: spaces around style values are trimmed; the event text is "Hello"', async () => {
    const read = await readFile(pysubs2('malformed_style.ass'));
    expect(texts(read)).toEqual(['Hello']);
    expect(JSON.parse(read.meta[STYLES_META]).styles[0]).toMatchObject({ Name: 'Default', Fontname: 'Arial', Fontsize: '20' });
    expect(read.annotations[0].body.speaker).toBe('Иные 0');
  });

  it('test_ass_with_missing_fractions_in_timestamp: 0:00:23 is 23 s, 0:00:23.45 is 23.45 s', async () => {
    const read = await readFile(pysubs2('missing_fractions.ass'));
    expect(read.annotations.map(ms)).toEqual([[0, 60000], [23450, 83450], [23000, 83000]]);
    const file = pysubs2('missing_fractions.ass');
    const negative = lineOf(file, 'Dialogue: 0,-1:59:54.93');
    const short = lineOf(file, 'Dialogue: 0,0:00:23,');
    // The third event starts before the second: annot says so, pysubs2 does not.
    expect(read.findings.map(brief)).toEqual([`warning timestamp_negative @${negative}`, `warning timestamp_nonstandard @${short}`, `warning timestamp_nonstandard @${short}`, `warning cues_out_of_order @${short}`]);
  });

  it('test_ass_with_short_minutes_seconds_in_timestamp: 0:0:0.04 is 40 ms, 0:0:7.88 is 7.88 s; karaoke tags are not text', async () => {
    const read = await readFile(pysubs2('short_minutes_seconds.ass'));
    expect(read.annotations.map(ms)).toEqual([[40, 4000], [3420, 7880]]);
    expect(texts(read)[0]).toBe('SUNDAY MONDAY CHU-CHU TUESDAY');
  });

  it('test_bad_style_format_line_issue_89: Bold and Italic 1 make the style bold and italic, so ASS -> SRT tags its text', async () => {
    const read = await readFile(pysubs2('styles_format_issue89.ass'));
    expect(JSON.parse(read.meta[STYLES_META]).styles[0]).toMatchObject({ Bold: '1', Italic: '1', Underline: '0', StrikeOut: '0' });
    expect((await writeAs(read.store, '.srt')).text).toContain('<b><i>An, example, subtitle.</i></b>');
  });

  it('test_empty_layer_issue_87: an empty Layer is 0, with a warning; the column named Actor is the Name', async () => {
    const read = await readFile(pysubs2('empty_layers_issue87.ass'));
    expect(read.annotations[0].body.layer).toBeUndefined();
    expect(read.findings.map(brief)).toEqual([`warning ass_field_invalid @${lineOf(pysubs2('empty_layers_issue87.ass'), 'Dialogue: ,')}`]);
    expect(read.annotations.map(ms)).toEqual([[22980, 24850]]);
  });
});

describe('pysubs2 test_attachment.py', () => {
  it('test_font_passthrough_from_aegisub: the [Fonts] section (two EB Garamond fonts) is written back line for line', async () => {
    const read = await readFile(pysubs2('subtitle_with_attached_fonts_aegisub.ass'));
    const sections = JSON.parse(read.meta[SECTIONS_META]) as Array<{ name: string; lines: string[] }>;
    const fonts = sections.find((section) => section.name === '[Fonts]');
    expect(fonts?.lines.filter((line) => line.startsWith('fontname:'))).toEqual(['fontname: EBGaramond08-Regular_0.ttf', 'fontname: EBGaramond08-Italic_0.ttf']);
    const { text } = await writeAs(read.store, '.ass');
    const source = readFileSync(pysubs2('subtitle_with_attached_fonts_aegisub.ass'), 'utf8').replace(/\r\n/g, '\n');
    const fontLines = (file: string) => file.slice(file.indexOf('[Fonts]'), file.indexOf('[Events]')).split('\n').filter((line) => line.length > 0);
    expect(fontLines(text)).toEqual(fontLines(source));
    expect(texts(read)).toEqual(['Test subtitle.']);
  });

  it('test_image_passthrough_from_aegisub: the [Graphics] section keeps github.jpg and github.png, as pysubs2 writes them', async () => {
    const read = await readFile(pysubs2('subtitle_with_attached_images_aegisub.ass'));
    const { text } = await writeAs(read.store, '.ass');
    const graphics = (file: string) => file.slice(file.indexOf('[Graphics]'), file.indexOf('[Events]')).split('\n').filter((line) => line.length > 0);
    expect(graphics(text)).toEqual(graphics(readFileSync(pysubs2('subtitle_with_attached_images_pysubs2_ref.ass'), 'utf8').replace(/\r\n/g, '\n')));
  });
});

describe('pysubs2 test_ttml.py: its TTML examples and their .ass twins', () => {
  it.each([
    ['ttml_example.ttml', 'ttml_example.ass'],
    ['ttml_example2.ttml', 'ttml_example2.ass'],
    ['ttml_example_apple.ttml', 'ttml_example_apple.ass'],
  ])('%s converts to the events of pysubs2 %s: the same starts, ends and texts', async (ttml, ass) => {
    const read = await readFile(join(process.cwd(), 'fixtures', 'ttml', 'pysubs2', ttml));
    const ours = dialogueLines((await writeAs(read.store, '.ass')).text);
    const theirs = dialogueLines(readFileSync(pysubs2(ass), 'utf8'));
    expect(ours.map(timesAndText)).toEqual(theirs.map(timesAndText));
  });

  it('the Apple lyrics name their singer (ttm:agent): annot writes it as the Name, which pysubs2 leaves empty', async () => {
    const read = await readFile(join(process.cwd(), 'fixtures', 'ttml', 'pysubs2', 'ttml_example_apple.ttml'));
    expect(new Set(read.annotations.map((annotation) => annotation.body.speaker))).toEqual(new Set(['Radiohead']));
    expect(dialogueLines((await writeAs(read.store, '.ass')).text)[0]).toBe('Dialogue: 0,0:00:19.76,0:00:21.90,Default,Radiohead,0,0,0,,When you were here be fore');
  });

  it('the .ass twins read as their TTML: the same times (to the centisecond) and texts', async () => {
    const ass = await readFile(pysubs2('ttml_example2.ass'));
    const ttml = await readFile(join(process.cwd(), 'fixtures', 'ttml', 'pysubs2', 'ttml_example2.ttml'));
    expect(texts(ass)).toEqual(texts(ttml).map((text) => text.trimEnd()));
    expect(ass.annotations.map(ms)).toEqual(ttml.annotations.map(ms).map(([start, end]) => [Math.floor((start + 5) / 10) * 10, Math.floor((end + 5) / 10) * 10]));
  });
});

describe('libass compare/test', () => {
  it('sub1.ass (a BOM, a \\t transform) shows its one event at 0.5, 1.5 and 2.5 s, the times of libass\'s reference images', async () => {
    const read = await readFile(libass('sub1.ass'));
    expect(read.annotations).toHaveLength(1);
    const [start, end] = ms(read.annotations[0]);
    for (const at of [500, 1500, 2500]) expect(start <= at && at < end).toBe(true);
    expect(texts(read)).toEqual(['A']);
    expect(JSON.parse(read.meta[SCRIPT_INFO_META])).toEqual(['PlayResX: 320', 'PlayResY: 240', 'ScaledBorderAndShadow: yes']);
  });

  it('sub2.ass shows "Test_" at 153 s, the time of its reference image', async () => {
    const read = await readFile(libass('sub2.ass'));
    const [start, end] = ms(read.annotations[0]);
    expect(start <= 153000 && 153000 < end).toBe(true);
    expect(texts(read)).toEqual(['Test_']);
  });

  it('both are opened by libass as written back (1 event, their style beside libass\'s own default)', async () => {
    for (const file of ['sub1.ass', 'sub2.ass']) {
      const read = await readFile(libass(file));
      expect(openedByLibass((await writeAs(read.store, '.ass')).text)).toEqual({ styles: 2, events: 1, notUnderstood: [] });
    }
  });
});

describe('ASS written from other formats opens in libass', () => {
  const sources: Array<[string, string, string]> = [
    ['SRT', '.srt', '1\n00:00:01,000 --> 00:00:02,000\n<i>one</i>, {two}\n\n2\n00:00:02,500 --> 00:00:03,000\nthree\n'],
    ['WebVTT', '.vtt', 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Mara>one, two\n\n00:00:02.500 --> 00:00:03.000\n<b>three</b>\n'],
    ['SBV', '.sbv', '0:00:01.000,0:00:02.000\none\n\n0:00:02.500,0:00:03.000\nthree\n'],
    ['TTML', '.ttml', '<tt xmlns="http://www.w3.org/ns/ttml" xml:lang="en"><body><div><p begin="1s" end="2s">one</p><p begin="2.5s" end="3s">three</p></div></body></tt>'],
  ];
  it.each(sources)('%s: a Default style and every event, no line libass does not understand', async (_name, extension, text) => {
    const read = await readText(text, extension);
    const written = (await writeAs(read.store as MemoryStore, '.ass')).text;
    expect(written).toMatch(/^\[Script Info\]\n; Script generated by annot\nScriptType: v4\.00\+\n/);
    expect(openedByLibass(written)).toEqual({ styles: 2, events: 2, notUnderstood: [] });
  });
});

describe('ASS -> SRT and WebVTT give the cues a user expects', () => {
  const features = join(process.cwd(), 'fixtures', 'ass', 'features.ass');

  it('SRT: plain text, italic, bold and underline as tags (from the tags and from the style), comments left out, counted', async () => {
    const read = await readFile(features);
    const { text, report } = await writeAs(read.store, '.srt');
    expect(text).toBe(
      '1\n00:00:01,000 --> 00:00:03,500\nWhere were you, <i>exactly</i>?\n\n' +
        '2\n00:00:03,500 --> 00:00:06,250\nOn the roof\nall night\n\n' +
        '3\n00:00:06,250 --> 00:00:08,000\n<i>(she knows) I said \u00a0 nothing</i>\n\n' +
        '4\n00:00:08,000 --> 00:00:09,000\n<b>Bold</b> and <u>under</u>, braces {like this}\n\n' +
        '5\n00:00:09,000 --> 00:00:10,000\ndrawn box\n\n' +
        '6\n00:00:10,000 --> 00:00:11,000\nsoft\nbreak\n\n',
    );
    expect(report.dropped).toContainEqual({ what: 'comment events (ASS Comment: lines, which players do not show)', count: 1 });
    expect(report.dropped).toContainEqual({ what: 'speakers (the variant speaker-prefix writes them as "Name: text")', count: 3 });
    expect((await writeAs(read.store, '.srt', { variant: 'speaker-prefix' })).text).toContain('00:00:01,000 --> 00:00:03,500\nMara: Where were you, <i>exactly</i>?\n');
  });

  it('WebVTT: the Name as a voice span, markup escaped', async () => {
    const read = await readFile(features);
    const { text } = await writeAs(read.store, '.vtt');
    expect(text).toContain('00:00:01.000 --> 00:00:03.500\n<v Mara>Where were you, <i>exactly</i>?\n');
    expect(text).toContain('00:00:06.250 --> 00:00:08.000\n<v Joe><i>(she knows) I said \u00a0 nothing</i>\n');
    const ampersand = await readText('[Events]\nFormat: Start, End, Text\nDialogue: 0:00:01.00,0:00:02.00,Tom & <Jerry>\n', '.ass');
    expect((await writeAs(ampersand.store, '.vtt')).text).toContain('Tom &amp; &lt;Jerry&gt;');
  });
});

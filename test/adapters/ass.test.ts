import { join } from 'node:path';
import { eventBody } from '../../src/adapters/ass/ass-annotations.js';
import { readEventsLine } from '../../src/adapters/ass/ass-events.js';
import { allocateHeader, collectHeader, headerText } from '../../src/adapters/ass/ass-header.js';
import { ASS_EVENT_FORMAT, ASS_EVENT_SCHEMA, DEFAULT_STYLE, EVENT_FORMAT_META, SCRIPT_INFO_META, SECTIONS_META, STYLES_META } from '../../src/adapters/ass/ass-model.js';
import { newReadState, type AssNotes } from '../../src/adapters/ass/ass-read-state.js';
import { readAssLine, sectionHeader } from '../../src/adapters/ass/ass-sections.js';
import { readStylesLine, styleFlags, stylesOf } from '../../src/adapters/ass/ass-styles.js';
import { assPlainText, assRuns, assTextOf, assTextOfRuns } from '../../src/adapters/ass/ass-text.js';
import { centiseconds, formatAssTime, parseAssTime } from '../../src/adapters/ass/ass-time.js';
import { assFormat } from '../../src/adapters/ass/format.js';
import { FormatParseError } from '../../src/adapters/errors.js';
import { PLAIN } from '../../src/adapters/styled-runs.js';
import { validateBody } from '../../src/schemas/registry.js';
import { brief, ms, readFile, readText, texts, writeAs, writtenAndRead } from './subtitle-formats-helpers.js';

const FEATURES = join(process.cwd(), 'fixtures', 'ass', 'features.ass');
const silent: AssNotes = { dropped: () => undefined, note: () => undefined };
const HEADER = '[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n';

describe('SubStation times (ass-time.ts)', () => {
  it('reads h:mm:ss.cc exactly at rate 100, and what pysubs2 reads beside it, marked non-standard', () => {
    expect(parseAssTime('0:00:01.50')).toEqual({ ticks: 150, rate: 100, standard: true, negative: false });
    expect(parseAssTime('12:34:56.78')).toEqual({ ticks: ((12 * 60 + 34) * 60 + 56) * 100 + 78, rate: 100, standard: true, negative: false });
    expect(parseAssTime('0:0:0.04')).toMatchObject({ ticks: 4, rate: 100, standard: false });
    expect(parseAssTime('0:00:23')).toMatchObject({ ticks: 2300, rate: 100, standard: false });
    expect(parseAssTime('0:00:01.5')).toMatchObject({ ticks: 150, rate: 100, standard: false });
    expect(parseAssTime('0:00:01.005')).toMatchObject({ ticks: 1005, rate: 1000, standard: false });
    expect(parseAssTime('0:00:01.010')).toMatchObject({ ticks: 101, rate: 100, standard: false });
    expect(parseAssTime('-1:59:54.93')).toMatchObject({ negative: true, standard: false });
    expect(parseAssTime('1:2')).toBeNull();
    expect(parseAssTime('0:00:0x.00')).toBeNull();
  });

  it('writes centiseconds, rounding milliseconds half up as Aegisub does (pysubs2 test_ass_ms_to_timestamp)', () => {
    expect(formatAssTime(465999)).toBe('1:17:39.99');
    for (const ms of [4659990, 4659991, 4659994]) expect(formatAssTime(centiseconds(ms, 1000).value)).toBe('1:17:39.99');
    for (const ms of [4659995, 4659999]) expect(formatAssTime(centiseconds(ms, 1000).value)).toBe('1:17:40.00');
    expect(centiseconds(150, 100)).toEqual({ value: 150, exact: true });
    expect(centiseconds(1500, 1000)).toEqual({ value: 150, exact: true });
    expect(centiseconds(1001, 30000)).toEqual({ value: 3, exact: false });
    expect(formatAssTime(-5)).toBe('0:00:00.00');
  });
});

describe('SubStation text (ass-text.ts)', () => {
  it('removes override blocks, reads \\N, \\n, \\h, \\{ and \\} and leaves drawings out', () => {
    expect(assPlainText('{\\an8\\pos(1,2)}On the roof\\Nall night')).toBe('On the roof\nall night');
    expect(assPlainText('soft\\nbreak')).toBe('soft\nbreak');
    expect(assPlainText('a\\hb')).toBe('a\u00a0b');
    expect(assPlainText('braces \\{like this\\}')).toBe('braces {like this}');
    expect(assPlainText('a { not a block')).toBe('a { not a block');
    expect(assPlainText('{\\p1}m 0 0 l 100 0{\\p0}text')).toBe('text');
    expect(assPlainText('plain, with commas')).toBe('plain, with commas');
  });

  it('gives italic, bold and underline runs from the style and the \\i, \\b, \\u and \\r tags', () => {
    const italicStyle = { italic: true, bold: false, underline: false };
    expect(assRuns('a{\\i1}b{\\i0}c', PLAIN, () => undefined).map((run) => [run.text, run.italic])).toEqual([
      ['a', false],
      ['b', true],
      ['c', false],
    ]);
    expect(assRuns('{\\b700}heavy{\\b0} {\\u1}line', PLAIN, () => undefined).map((run) => [run.text, run.bold, run.underline])).toEqual([
      ['heavy', true, false],
      [' ', false, false],
      ['line', false, true],
    ]);
    expect(assRuns('x{\\i0}y{\\r}z', italicStyle, () => undefined).map((run) => [run.text, run.italic])).toEqual([
      ['x', true],
      ['y', false],
      ['z', true],
    ]);
    expect(assRuns('x{\\rBoldOne}y', PLAIN, (name) => (name === 'BoldOne' ? { italic: false, bold: true, underline: false } : undefined)).map((run) => run.bold)).toEqual([false, true]);
    // \bord, \blur and \iclip are other tags, not bold or italic.
    expect(assRuns('{\\bord2\\blur3\\iclip(0,0,1,1)}x', PLAIN, () => undefined)).toEqual([{ text: 'x', ...PLAIN }]);
  });

  it('writes plain text that reads back the same: \\N, \\h, escaped braces, a word joiner after a backslash that would start a tag', () => {
    for (const text of ['two\nlines', 'no\u00a0break', 'set {braces}', 'a \\N literal', 'C:\\new\\host', 'end\\']) {
      expect(assPlainText(assTextOf(text))).toBe(text);
    }
    expect(assTextOf('two\nlines')).toBe('two\\Nlines');
    expect(assTextOf('C:\\new')).toBe('C:\\\u2060new');
    expect(assTextOfRuns([{ text: 'a', ...PLAIN }, { text: 'b', italic: true, bold: false, underline: false }, { text: 'c', ...PLAIN }])).toBe('a{\\i1}b{\\i0}c');
  });
});

describe('the sections pass (ass-sections.ts)', () => {
  it('knows the sections by name without case, and tells font data lines from headers', () => {
    expect(sectionHeader('[Script Info]')).toEqual({ kind: 'script_info', variant: null });
    expect(sectionHeader('  [v4+ styles]  ')).toEqual({ kind: 'styles', variant: 'ass' });
    expect(sectionHeader('[V4 Styles]')).toEqual({ kind: 'styles', variant: 'ssa' });
    expect(sectionHeader('[Events]')).toEqual({ kind: 'events', variant: null });
    expect(sectionHeader('[Aegisub Project Garbage]')).toEqual({ kind: 'other', variant: null });
    expect(sectionHeader('[!VI(#-9($L/(RQ9*B=Q("9"2C!0.!5("TV8$!M/\'$5X$1U;(4MF2"=P#1Y]\'310$C!(""%C%3A,,SU*')).toBeNull();
    expect(sectionHeader('[9:/?E]G0!I*$Q1-!A)')).toBeNull();
  });

  it('keeps [Script Info] lines as written, other sections before [Events] whole, and those after it apart', () => {
    const state = newReadState();
    const lines = ['\ufeff[Script Info]', '; comment', 'Title: t', 'ScriptType: v4.00', '', '[Aegisub Project Garbage]', 'Active Line: 2', '[Events]', '[Fonts]', 'fontname: x.ttf'];
    for (const line of lines) readAssLine(state, line, 'x.ass', silent);
    expect(state.scriptInfo).toEqual(['; comment', 'Title: t', 'ScriptType: v4.00']);
    expect(state.variant).toBe('ssa');
    expect(state.sections).toEqual([{ name: '[Aegisub Project Garbage]', lines: ['Active Line: 2'], before_styles: true }]);
    expect(state.eventsAt).toBe(8);
    expect(state.lateSections).toEqual([{ name: '[Fonts]', line: 9 }]);
  });

  it('refuses a file that does not start with a section, naming the line', () => {
    const state = newReadState();
    expect(() => readAssLine(state, '1', 'x.ass', silent)).toThrow(FormatParseError);
    expect(() => readAssLine(newReadState(), '00:00:01,000 --> 00:00:02,000', 'x.ass', silent)).toThrow(/^x\.ass:1:1: expected a SubStation section header such as "\[Script Info\]"/);
  });
});

describe('the styles pass (ass-styles.ts)', () => {
  it('reads Style lines by their Format line, values trimmed, and the italic, bold and underline of each', () => {
    const state = newReadState();
    state.styleSection = '[V4+ Styles]';
    readStylesLine(state, 'Format: Name, Fontname, Bold, Italic', silent);
    readStylesLine(state, 'Style: Default, Arial , -1, 0', silent);
    readStylesLine(state, 'Style: Aside,Georgia,0,1', silent);
    expect(stylesOf(state)).toEqual({ section: '[V4+ Styles]', format: ['Name', 'Fontname', 'Bold', 'Italic'], styles: [{ Name: 'Default', Fontname: 'Arial', Bold: '-1', Italic: '0' }, { Name: 'Aside', Fontname: 'Georgia', Bold: '0', Italic: '1' }] });
    expect([...styleFlags(stylesOf(state))]).toEqual([
      ['Default', { italic: false, bold: true, underline: false }],
      ['Aside', { italic: true, bold: false, underline: false }],
    ]);
  });

  it('falls back to ASS columns (SSA columns in [V4 Styles]) without a Format line, as libass does', () => {
    const state = newReadState();
    state.variant = 'ssa';
    readStylesLine(state, 'Style: Default,SimHei,30,&HFFFFFF,&H00FFFF,&H000000,&H000000,-1,0,1,2,3,2,20,20,20,0,1', silent);
    expect(state.styles[0]).toMatchObject({ Name: 'Default', TertiaryColour: '&H000000', AlphaLevel: '0', Encoding: '1' });
  });
});

describe('the events pass (ass-events.ts)', () => {
  const read = (lines: string[]) => {
    const state = newReadState();
    const dropped: number[] = [];
    const notes: AssNotes = { dropped: (line) => dropped.push(line), note: () => undefined };
    state.section = 'events';
    for (const line of lines) {
      state.lineNumber++;
      readEventsLine(state, line, 'x.ass', notes);
    }
    return { events: state.events, dropped };
  };

  it('lets the Format line decide the columns, the Text taking the rest of the line, commas included', () => {
    const { events } = read(['Format: Start, End, Text, Style', 'Dialogue: 0:00:01.00,0:00:02.00,a, b, c']);
    expect(events).toEqual([expect.objectContaining({ start: '0:00:01.00', end: '0:00:02.00', text: 'a, b, c', style: 'Default' })]);
  });

  it('reads Actor as Name, keeps unknown columns, marks Comment lines, and drops what is not an event, with its line', () => {
    const { events, dropped } = read(['Format: Layer, Start, End, Style, Actor, MarginL, MarginR, MarginV, Effect, Extra, Text', 'Comment: 2,0:00:01.00,0:00:02.00,Sign,Joe,1,2,3,Scroll up;1;2;3,x,t', 'Picture: 0,0:00:01.00', 'Dialogue: 0,0:00:01.00']);
    expect(events).toEqual([{ comment: true, line: 2, layer: 2, start: '0:00:01.00', end: '0:00:02.00', style: 'Sign', name: 'Joe', marginL: 1, marginR: 2, marginV: 3, effect: 'Scroll up;1;2;3', text: 't', other: { Extra: 'x' } }]);
    expect(dropped).toEqual([3, 4]);
  });

  it('refuses a Format line without a Text column', () => {
    expect(() => read(['Format: Layer, Start, End'])).toThrow(/x\.ass:1:1: expected a Text column in the \[Events\] Format line/);
  });
});

describe('event bodies (ass-annotations.ts)', () => {
  const event = { comment: false, line: 1, layer: 0, start: '0:00:01.00', end: '0:00:02.00', style: 'Default', name: '', marginL: 0, marginR: 0, marginV: 0, effect: '', text: 'plain', other: null };

  it('leave fields at their defaults out, and keep the raw text only when the plain text would not give it back', () => {
    expect(eventBody(event, null)).toEqual({ text: 'plain', style: 'Default' });
    expect(eventBody({ ...event, text: 'two\\Nlines' }, null)).toEqual({ text: 'two\nlines', style: 'Default' });
    expect(eventBody({ ...event, text: '{\\i1}x', name: ' Mara ', layer: 3, marginV: 9, effect: 'Banner;5', comment: true }, '0:00:00.50')).toEqual({
      text: 'x',
      raw: '{\\i1}x',
      style: 'Default',
      comment: true,
      speaker: 'Mara',
      layer: 3,
      margin_v: 9,
      effect: 'Banner;5',
      written_end: '0:00:00.50',
    });
    expect(validateBody(ASS_EVENT_SCHEMA, eventBody({ ...event, text: '{\\i1}x', other: { Extra: 'y' } }, null)).errors).toEqual([]);
  });
});

describe('the ass reader', () => {
  it('reads every event of features.ass, times exact at rate 100, with the body fields of each', async () => {
    const read = await readFile(FEATURES);
    expect(read.annotations.map(ms)).toEqual([[1000, 3500], [3500, 6250], [4000, 5000], [6250, 8000], [8000, 9000], [9000, 10000], [10000, 11000]]);
    expect(read.annotations.every((a) => (a.reference as { interval: { start: { r: number } } }).interval.start.r === 100)).toBe(true);
    expect(texts(read)).toEqual(['Where were you, exactly?', 'On the roof\nall night', 'timing checked by hand', '(she knows) I said \u00a0 nothing', 'Bold and under, braces {like this}', 'drawn box', 'soft\nbreak']);
    expect(read.annotations[1].body).toEqual({ text: 'On the roof\nall night', raw: '{\\an8\\pos(320,40)}On the roof\\Nall night', style: 'Default', speaker: 'Joe', layer: 1, margin_l: 12, margin_r: 34, margin_v: 56, effect: 'Banner;20' });
    expect(read.annotations[2].body).toMatchObject({ comment: true, speaker: 'Note' });
    expect(read.annotations[0].tier).toBe('events');
    expect(read.annotations[0].provenance.was_generated_by).toBe('adapter:ass');
    for (const annotation of read.annotations) expect(validateBody(annotation.body_schema_uri, annotation.body).errors).toEqual([]);
    expect(read.findings).toEqual([]);
  });

  it('keeps [Script Info], the styles, the sections before [Events] and the event Format line as metadata', async () => {
    const { meta } = await readFile(FEATURES);
    expect(JSON.parse(meta[SCRIPT_INFO_META])).toEqual(['; A hand-written file with every part annot keeps', 'Title: Features', 'ScriptType: v4.00+', 'WrapStyle: 0', 'PlayResX: 640', 'PlayResY: 360']);
    expect(JSON.parse(meta[STYLES_META])).toMatchObject({ section: '[V4+ Styles]', styles: [{ Name: 'Default', Fontsize: '28' }, { Name: 'Thoughts', Italic: '-1', Alignment: '8' }] });
    expect(JSON.parse(meta[SECTIONS_META])).toEqual([{ name: '[Aegisub Project Garbage]', lines: ['Active Line: 3'], before_styles: true }]);
    expect(JSON.parse(meta[EVENT_FORMAT_META])).toEqual(['Layer', 'Start', 'End', 'Style', 'Actor', 'MarginL', 'MarginR', 'MarginV', 'Effect', 'Text']);
  });

  it('reports what it repaired or dropped, each with its line', async () => {
    const read = await readText(`${HEADER}Dialogue: 0,0:00:02.00,0:00:01.00,Default,,0,0,0,,backwards\nDialogue: x,0:00:03.00,0:00:04.00,Default,,0,0,0,,bad layer\nDialogue: 0,bad,0:00:05.00,Default,,0,0,0,,bad time\nDialogue: 0,0:0:5.5,-0:00:06.00,Default,,0,0,0,,odd times\n[Fonts]\nfontname: a.ttf\n`, '.ass');
    const byLine = read.findings.map(brief).sort((a, b) => Number(a.split('@')[1]) - Number(b.split('@')[1]));
    expect(byLine).toEqual(['error cue_end_before_start @6', 'warning ass_field_invalid @7', 'warning block_dropped @8', 'warning timestamp_nonstandard @9', 'warning timestamp_negative @9', 'error cue_end_before_start @9', 'warning section_dropped @10']);
    expect(read.annotations.map(ms)).toEqual([[2000, 2000], [3000, 4000], [5500, 5500]]);
    expect(read.annotations[0].body).toMatchObject({ written_end: '0:00:01.00' });
  });

  it('reads an empty file, and a file with no [Events], as no events', async () => {
    expect((await readText('', '.ass')).annotations).toEqual([]);
    expect((await readText('[Script Info]\nTitle: x\n', '.ass')).annotations).toEqual([]);
  });

  it('sniffs SubStation by its [Script Info] (after comments), or an [Events] section with events', () => {
    expect(assFormat.sniff(Buffer.from('\ufeff; made by hand\n[Script Info]\n'))).toBe(true);
    expect(assFormat.sniff(Buffer.from('[Events]\nFormat: Layer, Start, End, Text\nDialogue: 0,0:00:00.00,0:00:01.00,x\n'))).toBe(true);
    expect(assFormat.sniff(Buffer.from('1\n00:00:01,000 --> 00:00:02,000\n[Script Info]\n'))).toBe(false);
  });
});

describe('the ass writer', () => {
  it('collects the kept sections and allocates what a valid file needs (ass-header.ts)', async () => {
    const empty = allocateHeader(await collectHeader(() => Promise.resolve(null)));
    expect(empty.scriptInfo).toEqual(['; Script generated by annot', 'ScriptType: v4.00+', 'WrapStyle: 0', 'ScaledBorderAndShadow: yes', 'PlayResX: 384', 'PlayResY: 288']);
    expect(empty.styles.styles).toEqual([DEFAULT_STYLE]);
    expect(empty.eventFormat).toEqual(ASS_EVENT_FORMAT);
    const meta: Record<string, string> = { [SCRIPT_INFO_META]: '["Title: x"]', [STYLES_META]: 'not json', [EVENT_FORMAT_META]: '["Start","Text","End"]' };
    const kept = allocateHeader(await collectHeader((key) => Promise.resolve(meta[key] ?? null)));
    expect(kept.scriptInfo).toEqual(['Title: x', 'ScriptType: v4.00+']);
    expect(kept.unreadable).toEqual([STYLES_META]);
    // A Format line whose last column is not Text cannot place the text: the standard one is written.
    expect(kept.eventFormat).toEqual(ASS_EVENT_FORMAT);
    expect(headerText(empty)).toContain('[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour');
    expect(headerText(empty)).toMatch(/\n\[Events\]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n$/);
  });

  it('writes features.ass back as it was (ASS -> ASS), events, styles and sections alike', async () => {
    const read = await readFile(FEATURES);
    const { text, report } = await writeAs(read.store, '.ass');
    const source = (await import('node:fs')).readFileSync(FEATURES, 'utf8').replace(/^\ufeff/, '');
    expect(text).toBe(source);
    expect(report.dropped.map((entry) => entry.what)).toEqual(['provenance', 'annotation ids']);
  });

  it('writes another format with a Default style, its speakers as Name and its italics as tags', async () => {
    const srt = await readText('1\n00:00:01,000 --> 00:00:02,500\n<i>Hello</i>, {world}\nagain\n\n2\n00:00:03,000 --> 00:00:04,000\nbye\n', '.srt');
    const { text } = await writeAs(srt.store, '.ass');
    expect(text).toContain('Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1\n');
    expect(text).toContain('Dialogue: 0,0:00:01.00,0:00:02.50,Default,,0,0,0,,{\\i1}Hello{\\i0}, \\{world\\}\\Nagain\n');
    const back = await writtenAndRead(srt.store, '.ass');
    expect(texts(back)).toEqual(['Hello, {world}\nagain', 'bye']);
    const vtt = await readText('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Mara Lind>Hi, you\n', '.vtt');
    expect((await writeAs(vtt.store, '.ass')).text).toContain('Dialogue: 0,0:00:01.00,0:00:02.00,Default,Mara Lind,0,0,0,,Hi, you\n');
  });

  it('rounds times to centiseconds and says so', async () => {
    const srt = await readText('1\n00:00:01,005 --> 00:00:02,000\nx\n', '.srt');
    const { text, report } = await writeAs(srt.store, '.ass');
    expect(text).toContain('Dialogue: 0,0:00:01.01,0:00:02.00,');
    expect(report.dropped).toContainEqual({ what: 'sub-centisecond precision (times rounded to SubStation centiseconds)', count: 1 });
  });
});

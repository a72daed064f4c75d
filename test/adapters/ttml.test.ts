import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scanXml } from '../../src/adapters/eaf/xml-scan.js';
import { seconds, type Seconds } from '../../src/adapters/ttml/exact-seconds.js';
import { ttmlFormat } from '../../src/adapters/ttml/format.js';
import { readHead } from '../../src/adapters/ttml/ttml-head.js';
import { markupText, normalizeSpace } from '../../src/adapters/ttml/ttml-markup.js';
import { TTML_CUE_SCHEMA, TTML_HEAD_META, TTML_ROOT_META } from '../../src/adapters/ttml/ttml-model.js';
import { childElements, resolveNames } from '../../src/adapters/ttml/ttml-names.js';
import { timingParameters } from '../../src/adapters/ttml/ttml-parameters.js';
import { scanDocument } from '../../src/adapters/ttml/ttml-reader.js';
import { ContainerTiming } from '../../src/adapters/ttml/ttml-containers.js';
import { parseTime, type TimingParameters } from '../../src/adapters/ttml/ttml-time.js';
import { validateBody } from '../../src/schemas/registry.js';
import { imscTextViolations } from './imsc-text-profile.js';
import { brief, ms, readFile, readText, texts, writeAs, writtenAndRead } from './subtitle-formats-helpers.js';

const FEATURES = join(process.cwd(), 'fixtures', 'ttml', 'features.ttml');
const ttconv = (name: string): string => join(process.cwd(), 'fixtures', 'ttml', 'ttconv', name);
const parameters = (attributes: Record<string, string> = {}): TimingParameters => timingParameters(attributes, () => undefined);
const fraction = (time: Seconds): string => `${time.num}/${time.den}`;

describe('time expressions (ttml-time.ts), as ttconv tests them (test_imsc_time_expressions.py)', () => {
  // ttconv's context: frame rate 24000/1001, tick rate 60.
  const context = parameters({ 'ttp:frameRate': '24', 'ttp:frameRateMultiplier': '1000 1001', 'ttp:tickRate': '60' });
  const exact = (text: string, at = context) => {
    const reading = parseTime(text, at);
    if ('error' in reading) throw new Error(reading.error);
    return fraction(reading.seconds);
  };

  it.each([
    ['1.2s', '6/5'],
    ['1.2m', '72/1'],
    ['1.2h', '4320/1'],
    ['24f', '1001/1000'],
    ['120t', '2/1'],
    ['01:02:03', '3723/1'],
    ['01:02:03.235', '744647/200'],
    ['01:02:03.2350', '744647/200'],
    ['01:02:03:20', fraction(seconds(3723n * 24000n + 20n * 1001n, 24000n))],
    ['100:00:00.1', '3600001/10'],
    ['100:00:00:10', fraction(seconds(360000n * 24000n + 10n * 1001n, 24000n))],
    ['00:00:15:00', '15/1'],
  ])('%s is %s seconds exactly', (text, expected) => {
    expect(exact(text)).toBe(expected);
  });

  it('reads a time code in the smpte time base, drop-frame too', () => {
    const smpte = parameters({ 'ttp:frameRate': '30', 'ttp:frameRateMultiplier': '1000 1001', 'ttp:timeBase': 'smpte' });
    expect(exact('01:02:03:20', smpte)).toBe(fraction(seconds((3723n * 30n + 20n) * 1001n, 30000n)));
    const drop = parameters({ 'ttp:frameRate': '30', 'ttp:frameRateMultiplier': '1000 1001', 'ttp:timeBase': 'smpte', 'ttp:dropMode': 'dropNTSC' });
    // 62 minutes: 2 frames dropped at each of 62 minutes but the 7 that are multiples of ten.
    expect(exact('01:02:03:20', drop)).toBe(fraction(seconds((3723n * 30n + 20n - 2n * (62n - 6n)) * 1001n, 30000n)));
  });

  it('refuses what is not a time, minutes over 59 and seconds over 60; reads a leap second as 59 and too many frames as the last', () => {
    expect(parseTime('100:00:00;01', context)).toHaveProperty('error');
    expect(parseTime('00:99:00.5', context)).toHaveProperty('error');
    expect(parseTime('00:00:61', context)).toHaveProperty('error');
    expect(parseTime('wallclock("2024-01-01T00:00:00")', context)).toHaveProperty('error');
    expect(parseTime('00:00:60', context)).toMatchObject({ seconds: seconds(59n), nonstandard: expect.stringContaining('leap second') });
    expect(parseTime('100:00:00:100', parameters({ 'ttp:frameRate': '24' }))).toMatchObject({ seconds: seconds(360000n * 24n + 23n, 24n) });
  });

  it('reads what real files write beside the grammar, saying so: bare numbers (Apple lyrics), mm:ss.fff', () => {
    expect(parseTime('19.764', context)).toMatchObject({ seconds: seconds(19764n, 1000n), nonstandard: expect.stringContaining('without a metric') });
    expect(parseTime('3:58.640', context)).toMatchObject({ seconds: seconds(238640n, 1000n), nonstandard: expect.stringContaining('two-digit hours') });
  });
});

describe('the parameters pass (ttml-parameters.ts)', () => {
  it('defaults as TTML2 section 7.2 says: 30 frames, multiplier 1, tick rate the effective frame rate × sub-frame rate, else 1', () => {
    expect(parameters()).toEqual({ frameRate: 30n, effectiveFrameRate: seconds(30n), subFrameRate: 1n, tickRate: 1n, timeBase: 'media', dropMode: 'nonDrop' });
    expect(parameters({ 'ttp:frameRate': '30', 'ttp:frameRateMultiplier': '1000 1001' }).tickRate).toBe(30n);
    const problems: string[] = [];
    timingParameters({ 'ttp:frameRate': 'fast', 'ttp:frameRateMultiplier': '1000/1001', 'ttp:timeBase': 'gps' }, (_name, message) => problems.push(message));
    expect(problems).toEqual(['ttp:frameRate="fast" is not a positive integer; read as 30', 'ttp:frameRateMultiplier="1000/1001" is not two positive integers ("1000 1001"); read as 1 1', 'ttp:timeBase="gps" is none of media, smpte, clock; read as media']);
  });
});

describe('the names pass (ttml-names.ts)', () => {
  it('spells every name one way whatever the prefixes, DFXP namespaces as TTML', () => {
    const root = resolveNames(scanXml('<x:tt xmlns:x="http://www.w3.org/ns/ttml" xmlns:s="http://www.w3.org/ns/ttml#styling" xmlns:o="urn:other"><x:body s:color="red" o:flag="1"><o:thing/></x:body></x:tt>', 'a.ttml', undefined, { mixedContent: true, rootElement: 'tt' }), false);
    const body = childElements(root)[0];
    expect([root.name, body.name, body.attributes, childElements(body)[0].name]).toEqual(['tt', 'body', { 'tts:color': 'red', '{urn:other}flag': '1' }, '{urn:other}thing']);
    const dfxp = resolveNames(scanXml('<tt xmlns="http://www.w3.org/2006/10/ttaf1" xmlns:tts="http://www.w3.org/2006/10/ttaf1#style"><body tts:color="red"/></tt>', 'a.dfxp', undefined, { mixedContent: true, rootElement: 'tt' }), false);
    expect([dfxp.name, childElements(dfxp)[0].attributes]).toEqual(['tt', { 'tts:color': 'red' }]);
    expect(resolveNames(scanXml('<tt><p/></tt>', 'a.ttml', undefined, { mixedContent: true, rootElement: 'tt' }), false).name).toBe('{}tt');
  });

  it('replaces the control characters XML does not allow with U+FFFD, raw or as references', () => {
    const root = resolveNames(scanXml('<tt xmlns="http://www.w3.org/ns/ttml">a\u0001b&#x2;c</tt>', 'a.ttml', undefined, { mixedContent: true, rootElement: 'tt' }), false);
    expect(root.content).toEqual(['a\ufffdb\ufffdc']);
  });
});

describe('the head pass (ttml-head.ts)', () => {
  it('names the agents (the full ttm:name first) and lists the regions', () => {
    const root = resolveNames(scanXml(readFileSync(FEATURES, 'utf8'), 'features.ttml', undefined, { mixedContent: true, rootElement: 'tt' }), false);
    const head = readHead(childElements(root).find((element) => element.name === 'head'));
    expect(head.agents).toEqual(new Map([['mara', 'Mara Lind'], ['joe', 'Joe']]));
    expect(head.regions).toEqual(new Set(['bottom', 'top']));
    expect(readHead(undefined).markup).toEqual([]);
  });
});

describe('the containers pass (ttml-containers.ts)', () => {
  const rules = { parameters: parameters(), problem: () => undefined, absolute: false };
  const element = (attributes: Record<string, string>) => ({ name: 'div', attributes, content: [], offset: 0 });

  it('gives a child its sync base (the begin in a par, the previous end in a seq) and the window that cuts it', () => {
    const last = { time: seconds(0n) };
    const containers = new ContainerTiming(rules, last);
    containers.open(element({ begin: '10s', dur: '5s' }));
    expect(containers.childBase()).toEqual({ syncBase: seconds(10n), kind: 'par', windowBegin: seconds(10n), windowEnd: seconds(15n), active: true });
    containers.open(element({ begin: '1s', timeContainer: 'seq' }));
    containers.childEnded(seconds(13n));
    expect(containers.childBase()).toMatchObject({ syncBase: seconds(13n), kind: 'seq', windowBegin: seconds(11n), windowEnd: seconds(15n) });
    containers.close();
    // The closed seq ended with its last child, at 13 s: that is the par's content end.
    containers.open(element({ begin: '6s' }));
    expect(containers.childBase()).toMatchObject({ active: false });
    expect(last.time).toEqual(seconds(15n));
  });
});

describe('the timing and paragraph passes (ttml-timing.ts, ttml-paragraphs.ts)', () => {
  const cues = (body: string, head = '') => {
    const state = scanDocument(`<tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter"${head}><body>${body}</body></tt>`, 'a.ttml', false);
    return Array.from({ length: state.cues.length }, (_, index) => {
      const end = state.cues.end(index);
      return [fraction(state.cues.begin(index)), end === null ? null : fraction(end), state.cues.body(index).text];
    });
  };

  it("times a paragraph from its parent's begin in a par, from its previous sibling's end in a seq", () => {
    expect(cues('<div begin="10s"><p begin="1s" end="2s">a</p></div><div begin="20s" timeContainer="seq"><p dur="1s">b</p><p begin="1s" dur="2s">c</p></div>')).toEqual([
      ['11/1', '12/1', 'a'],
      ['20/1', '21/1', 'b'],
      ['22/1', '24/1', 'c'],
    ]);
  });

  it('cuts a paragraph to its parent (par time containment); one outside it is not shown', () => {
    expect(cues('<div dur="5s"><p begin="4s" end="8s">cut</p><p begin="6s" end="7s">never</p></div>')).toEqual([['4/1', '5/1', 'cut']]);
  });

  it("ends a paragraph without end at the document's last time, keeps an empty one at its own, and a zero-length one as a point", () => {
    expect(cues('<div><p begin="1s">open</p><p begin="3s" end="4s"/><p begin="5s" end="5s">point</p></div>')).toEqual([
      ['1/1', '5/1', 'open'],
      ['3/1', '4/1', ''],
      ['5/1', '5/1', 'point'],
    ]);
  });

  it('times a paragraph by the words it shows: a timed span begins it, a span outside it is left out', () => {
    expect(cues('<div><p begin="0s" end="10s"><span begin="2s" end="4s">late</span> <span begin="12s">never</span></p></div>')).toEqual([['2/1', '4/1', 'late']]);
  });

  it('is exact: a thousand paragraphs of 1001/30000 s in a seq end at 1001/30 s', () => {
    const timed = cues(`<div timeContainer="seq">${'<p dur="1f">x</p>'.repeat(1000)}</div>`, ' ttp:frameRate="30" ttp:frameRateMultiplier="1000 1001"');
    expect(timed).toHaveLength(1000);
    expect(timed[999][1]).toBe('1001/30');
  });
});

describe('white space (ttml-markup.ts), as ttconv tests it (test_isd_lwsp.py)', () => {
  it('lwsp_default.ttml: "hello my name is Mathilda" and "bonjour mon nom" / "est"', async () => {
    expect(texts(await readFile(ttconv('lwsp_default.ttml')))).toEqual(['hello my name is Mathilda', 'bonjour mon nom\nest']);
  });

  it('lwsp_preserve.ttml: the preserved span keeps its spaces and line break: "hello " " my \\nname " "is Mathilda"', async () => {
    expect(texts(await readFile(ttconv('lwsp_preserve.ttml')))).toEqual(['hello  my \nname is Mathilda']);
  });

  it('collapses, trims at line breaks and keeps preserved pieces', () => {
    const pieces = normalizeSpace([{ text: '  a \n b ', hard: false }, { text: '\n', hard: true }, { text: ' c  d ', hard: false }], false);
    expect(pieces.map((piece) => piece.text).join('')).toBe('a b\nc d');
    expect(markupText(['x ', { name: 'span', attributes: { 'xml:space': 'preserve' }, children: ['  y  '] }, ' z'], false)).toBe('x   y  z');
  });
});

describe('the ttml reader', () => {
  it('reads features.ttml: prefixed names, frames at 30000/1001, ticks, a seq, agents, roles, languages, regions, styles and markup', async () => {
    const read = await readFile(FEATURES);
    expect(read.annotations.map(ms)).toEqual([[1000, 3500.5], [3500.5, 6003], [4000, 6000], [10000, 11000], [11250, 11500], [11500, 13500]]);
    expect(texts(read)).toEqual(['Where were you, exactly?', 'On the roof\nall night', 'Rien du tout', 'First in sequence', 'late word', 'kept   as\nwritten']);
    expect(read.annotations.map((a) => a.body.speaker ?? null)).toEqual(['Mara Lind', 'Joe', null, 'narrator', null, null]);
    expect(read.annotations[0].body).toEqual({ text: 'Where were you, exactly?', id: 'c1', speaker: 'Mara Lind', agent: 'mara', region: 'bottom', style: 'base', markup: ['Where were you,\n        ', { name: 'span', attributes: { style: 'quiet' }, children: ['exactly'] }, '?'] });
    expect(read.annotations[2].body).toMatchObject({ lang: 'fr', styling: { 'tts:color': 'yellow' }, region: 'bottom' });
    // The word begins the cue: its begin, relative to the cue, is 0 and not written.
    expect(read.annotations[4].body).toMatchObject({ markup: [{ name: 'span', children: ['late word'] }] });
    expect(read.annotations[5].body).toMatchObject({ preserve_space: true });
    for (const annotation of read.annotations) {
      expect(annotation.body_schema_uri).toBe(TTML_CUE_SCHEMA);
      expect(validateBody(TTML_CUE_SCHEMA, annotation.body).errors).toEqual([]);
    }
    // Every time exact: the rate holds 1001/2000 s (half a frame at 30000/1001 fps is not needed).
    expect((read.annotations[0].reference as { interval: { end: { v: number; r: number } } }).interval.end).toEqual({ v: 7001, r: 2000 });
    expect(JSON.parse(read.meta[TTML_HEAD_META])[0]).toMatchObject({ name: 'metadata' });
    expect(JSON.parse(read.meta[TTML_ROOT_META])).toEqual({ 'xml:lang': 'en' });
    expect(read.findings).toEqual([]);
  });

  it('reports paragraphs never shown and times it could not read, each at its line', async () => {
    const read = await readText('<tt xmlns="http://www.w3.org/ns/ttml">\n<body><div dur="2s">\n<p begin="3s" end="4s">never</p>\n<p begin="1s">open</p>\n<p begin="soon" end="1s">bad</p>\n</div></body></tt>', '.ttml');
    expect(read.findings.map(brief)).toEqual(['warning paragraph_hidden @3', 'warning time_invalid @5']);
    expect(read.annotations.map(ms)).toEqual([[1000, 2000], [0, 1000]]);
  });

  it('refuses a document whose root is not TTML\'s tt', async () => {
    await expect(readText('<ANNOTATION_DOCUMENT/>', '.ttml')).rejects.toThrow(/^in\.ttml:1:1 \(ANNOTATION_DOCUMENT\): expected a TTML document: root element <tt>/);
  });

  it('reads what the XML declaration says the encoding is', async () => {
    const latin1 = Buffer.concat([Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?>\n<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="0s" end="1s">caf'), Buffer.from([0xe9]), Buffer.from('</p></div></body></tt>')]);
    expect(texts(await readText(latin1, '.ttml'))).toEqual(['café']);
    await expect(readText(Buffer.from('<?xml version="1.0" encoding="x-unknown"?><tt/>'), '.ttml')).rejects.toThrow(/expected an encoding annot can decode in the XML declaration, found "x-unknown"/);
  });

  it('is sniffed by its root element, and claims .xml only when the content is TTML', () => {
    expect(ttmlFormat.sniff(Buffer.from('<?xml version="1.0"?>\n<!-- c -->\n<tt:tt xmlns:tt="http://www.w3.org/ns/ttml">'))).toBe(true);
    expect(ttmlFormat.sniff(Buffer.from('<tt xmlns="http://www.w3.org/2006/10/ttaf1">'))).toBe(true);
    expect(ttmlFormat.sniff(Buffer.from('<ANNOTATION_DOCUMENT>'))).toBe(false);
    expect(ttmlFormat.sniffedExtensions).toEqual(['.xml']);
  });
});

describe('the ttml writer', () => {
  it('writes TTML back (TTML -> .annot -> TTML): times, texts, speakers, styles, regions and count kept, a valid IMSC 1.1 Text document', async () => {
    const read = await readFile(FEATURES);
    const back = await writtenAndRead(read.store, '.ttml');
    const kept = (r: typeof read) => r.annotations.map((a) => [ms(a), a.body.text, a.body.speaker, a.body.style, a.body.region, a.body.styling, a.body.lang, a.body.id]);
    expect(kept(back)).toEqual(kept(read));
    expect(back.annotations.map((a) => a.reference)).toEqual(read.annotations.map((a) => a.reference));
    expect(imscTextViolations(back.text)).toEqual([]);
    expect(back.text).toContain('ttp:tickRate="2000"');
  });

  it('writes another format as a valid IMSC 1.1 Text document: a bottom region, agents for speakers, styles as spans', async () => {
    const srt = await readText('1\n00:00:01,000 --> 00:00:02,500\n<i>Hello</i> & <b>bye</b>\nagain\n', '.srt');
    const { text } = await writeAs(srt.store, '.ttml');
    expect(imscTextViolations(text)).toEqual([]);
    expect(text).toContain('<p begin="00:00:01.000" end="00:00:02.500"><span tts:fontStyle="italic">Hello</span> &amp; <span tts:fontWeight="bold">bye</span><br/>again</p>');
    const vtt = await readText('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Mara>Hi  there\n', '.vtt');
    const written = (await writeAs(vtt.store, '.ttml')).text;
    expect(written).toContain('<ttm:agent xml:id="speaker1" type="person"><ttm:name type="full">Mara</ttm:name></ttm:agent>');
    expect(written).toContain('ttm:agent="speaker1" xml:space="preserve">Hi  there</p>');
    expect(imscTextViolations(written)).toEqual([]);
    const back = await readText(written, '.ttml');
    expect(back.annotations.map((a) => [a.body.text, a.body.speaker])).toEqual([['Hi  there', 'Mara']]);
  });

  it('never drifts: a thousand frames at 30000/1001 written as ticks read back exactly', async () => {
    const body = Array.from({ length: 1000 }, (_, i) => `<p begin="${i}f" end="${i + 1}f">${i}</p>`).join('');
    const read = await readText(`<tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" ttp:frameRate="30" ttp:frameRateMultiplier="1000 1001"><body><div>${body}</div></body></tt>`, '.ttml');
    const back = await writtenAndRead(read.store, '.ttml');
    expect(back.annotations.map((a) => a.reference)).toEqual(read.annotations.map((a) => a.reference));
    const last = back.annotations[999].reference as { interval: { end: { v: number; r: number } } };
    expect(last.interval.end.v / last.interval.end.r).toBe(1000 * 1001 / 30000);
    expect(imscTextViolations(back.text)).toEqual([]);
  });
});

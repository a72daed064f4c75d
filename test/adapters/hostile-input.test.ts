import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FormatCodec } from '../../src/adapters/adapter.js';
import { eafCodec } from '../../src/adapters/eaf/codec.js';
import { gunzipBounded, INFLATE_LIMITS } from '../../src/adapters/bounded-gunzip.js';
import { FormatParseError, InputTooDeepError, InputTooLargeError } from '../../src/adapters/errors.js';
import { jamsCodec } from '../../src/adapters/jams/codec.js';
import { labelStudioCodec } from '../../src/adapters/label-studio/codec.js';
import { otioCodec } from '../../src/adapters/otio/codec.js';
import { textgridCodec } from '../../src/adapters/textgrid/codec.js';
import { ttmlCodec } from '../../src/adapters/ttml/codec.js';
import { webAnnotationCodec } from '../../src/adapters/web-annotation/codec.js';
import { runCli } from '../support/run-cli.js';
import { loadWith } from './codec-harness.js';

/**
 * The documented limits of the whole-file readers (issue 14, "Hostile input"): each case is
 * refused with a typed error whose one-line message names the file and the position.
 */
const work = mkdtempSync(join(tmpdir(), 'annot-hostile-'));

async function refusal(codec: FormatCodec, name: string, content: string | Buffer): Promise<FormatParseError> {
  const path = join(work, name);
  writeFileSync(path, content);
  try {
    await loadWith(codec, path, { sourceName: name });
  } catch (error) {
    expect(error).toBeInstanceOf(FormatParseError);
    expect((error as Error).message).not.toContain('\n');
    expect((error as Error).message.startsWith(name)).toBe(true);
    return error as FormatParseError;
  }
  throw new Error(`${name} was accepted`);
}

const deepJson = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('nesting depth', () => {
  const jsonReaders: Array<[string, FormatCodec, (deep: string) => string]> = [
    ['jams', jamsCodec, (deep) => `{"file_metadata": {}, "annotations": [{"namespace": "chord", "data": [], "sandbox": ${deep}}]}`],
    ['otio', otioCodec, (deep) => `{"OTIO_SCHEMA": "Timeline.1", "metadata": {"x": ${deep}}}`],
    ['labelstudio.json', labelStudioCodec, (deep) => `[{"data": {"audio": "a.wav"}, "annotations": [{"result": ${deep}}]}]`],
    ['jsonld', webAnnotationCodec, (deep) => `{"type": "Annotation", "body": ${deep}}`],
  ];
  it.each(jsonReaders)('refuses JSON 100,000 levels deep in a .%s file with ANNOT_INPUT_TOO_DEEP, the depth and the position', async (extension, codec, wrap) => {
    const error = await refusal(codec, `deep.${extension}`, wrap(deepJson(100_000)));
    expect(error).toBeInstanceOf(InputTooDeepError);
    expect(error.code).toBe('ANNOT_INPUT_TOO_DEEP');
    expect(error.message).toMatch(/^deep\.[a-z.]+:1:\d+: nesting deeper than 512 levels of JSON arrays and objects/);
    expect((error as InputTooDeepError).depth).toBe(513);
  });

  it('refuses XML nested 100,000 elements deep in an EAF file, with the line, column and element path', async () => {
    const deep = '<ANNOTATION_DOCUMENT>\n' + '<X>'.repeat(100_000) + '</X>'.repeat(100_000) + '</ANNOTATION_DOCUMENT>';
    const error = await refusal(eafCodec, 'deep.eaf', deep);
    expect(error.code).toBe('ANNOT_INPUT_TOO_DEEP');
    expect(error.message).toMatch(/^deep\.eaf:2:\d+ \(ANNOTATION_DOCUMENT\/X\/X\/X\/\.\.\.\): nesting deeper than 256 levels of XML elements/);
  });

  it('refuses XML nested 100,000 elements deep in a TTML document, with the line, column and element path', async () => {
    const deep = '<tt xmlns="http://www.w3.org/ns/ttml">\n<body><div><p>' + '<span>'.repeat(100_000) + '</span>'.repeat(100_000) + '</p></div></body></tt>';
    const error = await refusal(ttmlCodec, 'deep.ttml', deep);
    expect(error.code).toBe('ANNOT_INPUT_TOO_DEEP');
    expect(error.message).toMatch(/^deep\.ttml:2:\d+ \(tt\/body\/div\/p\/\.\.\.\): nesting deeper than 256 levels of XML elements/);
  });

  it('still reads JSON nested to a realistic depth', async () => {
    const path = join(work, 'nested.jsonld');
    writeFileSync(path, `{"type": "Annotation", "body": {"type": "TextualBody", "value": "x", "extra": ${deepJson(400)}}, "target": "a.wav#t=1,2"}`);
    const { annotations } = await loadWith(webAnnotationCodec, path);
    expect(annotations).toHaveLength(1);
  });
});

describe('XML entities', () => {
  it('never expands an entity defined in the DOCTYPE (no "billion laughs")', async () => {
    const laughs =
      '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\n]>\n' +
      '<ANNOTATION_DOCUMENT><HEADER TIME_UNITS="milliseconds"/><TIME_ORDER/><TIER TIER_ID="t" LINGUISTIC_TYPE_REF="lt">&lol2;</TIER></ANNOTATION_DOCUMENT>';
    const error = await refusal(eafCodec, 'laughs.eaf', laughs);
    expect(error.message).toMatch(/^laughs\.eaf:6:\d+ .*one of the XML entities &lt; &gt; &amp; &quot; &apos; or a character reference, got "&lol2;"/);
  });

  it('never resolves an external entity', async () => {
    const external =
      '<?xml version="1.0"?>\n<!DOCTYPE d [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>\n' +
      '<ANNOTATION_DOCUMENT><HEADER TIME_UNITS="milliseconds"/><TIME_ORDER/><TIER TIER_ID="t" LINGUISTIC_TYPE_REF="lt">&xxe;</TIER></ANNOTATION_DOCUMENT>';
    const error = await refusal(eafCodec, 'xxe.eaf', external);
    expect(error.message).toContain('got "&xxe;"');
    expect(error.message).not.toContain('root:');
  });

  it('never expands an entity in a TTML document either, nor resolves an external one', async () => {
    const laughs = '<?xml version="1.0"?>\n<!DOCTYPE tt [\n <!ENTITY lol "lol">\n <!ENTITY lol2 "&lol;&lol;&lol;&lol;">\n]>\n<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="0s" end="1s">&lol2;</p></div></body></tt>';
    expect((await refusal(ttmlCodec, 'laughs.ttml', laughs)).message).toMatch(/^laughs\.ttml:6:\d+ .*one of the XML entities &lt; &gt; &amp; &quot; &apos; or a character reference, got "&lol2;"/);
    const external = '<?xml version="1.0"?>\n<!DOCTYPE d [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>\n<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p>&xxe;</p></div></body></tt>';
    expect((await refusal(ttmlCodec, 'xxe.ttml', external)).message).toContain('got "&xxe;"');
  });

  it('refuses a character reference to a surrogate or NUL', async () => {
    const error = await refusal(eafCodec, 'surrogate.eaf', '<ANNOTATION_DOCUMENT AUTHOR="&#xD800;"/>');
    expect(error.message).toMatch(/^surrogate\.eaf:1:\d+: expected a valid character reference, got "&#xD800;"/);
  });
});

describe('numbers that are no times', () => {
  const observation = (time: string) => `{"file_metadata": {}, "annotations": [{"namespace": "chord",\n "data": [{"time": ${time}, "duration": 1, "value": "C", "confidence": null}]}]}`;
  it.each([
    ['NaN', /^nan\.jams \(\$\.annotations\[0\]\.data\[0\]\.time\): expected a time in seconds \(a finite number\), got NaN/],
    ['Infinity', /^nan\.jams \(\$\.annotations\[0\]\.data\[0\]\.time\): expected a time in seconds \(a finite number\), got Infinity/],
    ['1e400', /^nan\.jams:2:20: expected a number a 64-bit float can hold; 1e400 is out of range/],
    ['-2', /^nan\.jams \(\$\.annotations\[0\]\.data\[0\]\.time\): expected a non-negative time in seconds, got -2/],
  ])('JAMS time %s', async (time, expected) => {
    expect((await refusal(jamsCodec, 'nan.jams', observation(time))).message).toMatch(expected);
  });

  it.each(['NaN', 'Infinity', '-Infinity'])('Label Studio and Web Annotation refuse a bare %s with its line and column', async (token) => {
    const ls = await refusal(labelStudioCodec, 'bad.labelstudio.json', `[{"data": {"audio": "a.wav"},\n "annotations": [{"result": [{"value": {"start": ${token}, "end": 2, "labels": ["x"]}}]}]}]`);
    expect(ls.message).toMatch(new RegExp(`^bad\\.labelstudio\\.json:2:\\d+: expected a finite number; ${token} is not a JSON number`));
    const wa = await refusal(webAnnotationCodec, 'bad.jsonld', `{"type": "Annotation",\n"x": ${token}}`);
    expect(wa.message).toMatch(/^bad\.jsonld:2:6: expected a finite number/);
  });

  it.each([
    ['NaN', /^bad\.TextGrid:12:\d+: expected the xmax of interval 1 of tier 1, found string "a"/],
    ['1e400', /^bad\.TextGrid:12:1: expected the xmin of interval 1 of tier 1 in seconds, at most 1000000000000; found 1e400/],
    ['-1', /^bad\.TextGrid:12:1: expected the xmin of interval 1 of tier 1 in seconds, not negative; found -1/],
  ])('TextGrid time %s', async (time, expected) => {
    // NaN is no number to Praat's reader: a word it skips, so 2 is taken as the xmin and "a" is found where the xmax should be.
    const grid = `File type = "ooTextFile"\nObject class = "TextGrid"\n0\n5\n<exists>\n1\n"IntervalTier"\n"t"\n0\n5\n1\n${time} 2 "a"\n`;
    expect((await refusal(textgridCodec, 'bad.TextGrid', grid)).message).toMatch(expected);
  });
});

describe('text encodings', () => {
  // A line holds UTF-8 text ("naïve"), a later one the "é" each test writes in another encoding.
  const readers: Array<[string, FormatCodec, string]> = [
    ['jams', jamsCodec, '{"file_metadata": {"title": "na\u00efve"},\n "annotations": [], "x": "caf\u00e9"}'],
    ['otio', otioCodec, '{"OTIO_SCHEMA": "Timeline.1", "metadata": {"a": "na\u00efve"},\n "name": "caf\u00e9", "tracks": {"OTIO_SCHEMA": "Stack.1", "children": []}}'],
    ['labelstudio.json', labelStudioCodec, '[{"data": {"audio": "na\u00efve.wav"},\n "annotations": [], "x": "caf\u00e9"}]'],
    ['jsonld', webAnnotationCodec, '{"type": "AnnotationCollection", "label": "na\u00efve",\n "x": "caf\u00e9"}'],
    ['eaf', eafCodec, '<ANNOTATION_DOCUMENT AUTHOR="na\u00efve">\n<HEADER AUTHOR="caf\u00e9"/></ANNOTATION_DOCUMENT>'],
    ['TextGrid', textgridCodec, 'File type = "ooTextFile"\nObject class = "TextGrid" ! na\u00efve\n0 1 <absent> ! caf\u00e9\n'],
    ['ttml', ttmlCodec, '<tt xmlns="http://www.w3.org/ns/ttml" xml:lang="en"><!-- na\u00efve -->\n<body><div><p begin="0s" end="1s">caf\u00e9</p></div></body></tt>'],
  ];

  it.each(readers)('a .%s file in UTF-8 with one Latin-1 byte (two encodings mixed) is refused with the line, column and offset of the byte', async (extension, codec, text) => {
    const utf8 = Buffer.from(text, 'utf8');
    const at = utf8.indexOf(Buffer.from('\u00e9', 'utf8'));
    const mixed = Buffer.concat([utf8.subarray(0, at), Buffer.from([0xe9]), utf8.subarray(at + 2)]);
    const error = await refusal(codec, `latin1.${extension}`, mixed);
    const lines = text.split('\n');
    const line = lines.findIndex((each) => each.includes('\u00e9'));
    const utf8Line = lines.findIndex((each) => each.includes('\u00ef')) + 1;
    expect(error.code).toBe('ANNOT_TEXT_ENCODING');
    expect(error.message).toContain(`latin1.${extension}:${line + 1}:${lines[line].indexOf('\u00e9') + 1}: expected UTF-8 text; byte 0xE9 at byte offset ${at} is not UTF-8, yet line ${utf8Line} is UTF-8 text: the file mixes encodings`);
  });

  it.each(readers)('a .%s file all in windows-1252 is read in the encoding detected, with a warning naming it', async (extension, codec, text) => {
    const path = join(work, `cp1252.${extension}`);
    writeFileSync(path, Buffer.from(text, 'latin1'));
    const { warnings } = await loadWith(codec, path, { sourceName: `cp1252.${extension}` });
    expect(warnings[0]).toMatch(new RegExp(`^cp1252\\.${extension.replace('.', '\\.')}: warning: not UTF-8 and no byte-order mark: read as [a-z0-9-]+, .*confidence 0\\.\\d\\d.* \\[encoding_guessed\\]$`));
  });

  it.each(readers)('a .%s file in UTF-16 without a byte-order mark is read as UTF-16LE, with a warning', async (extension, codec, text) => {
    const path = join(work, `utf16.${extension}`);
    writeFileSync(path, Buffer.from(text, 'utf16le'));
    const { warnings } = await loadWith(codec, path, { sourceName: `utf16.${extension}` });
    expect(warnings[0]).toBe(`utf16.${extension}: warning: no byte-order mark: read as UTF-16LE, told by the zero bytes of its first characters (confidence 0.95); name another with --encoding if the text looks wrong [encoding_guessed]`);
  });

  it.each(readers)('a .%s file in UTF-16 with a lone surrogate is refused with its position', async (extension, codec, text) => {
    const units = Buffer.from('\ufeff' + text.replace('\u00e9', '\ud800'), 'utf16le');
    const error = await refusal(codec, `lone.${extension}`, units);
    expect(error.message).toMatch(new RegExp(`^lone\\.${extension.replace('.', '\\.')}:\\d:\\d+: expected UTF-16LE text \\(as its byte-order mark says\\); bytes 0x00 0xD8 at byte offset \\d+ are not UTF-16LE \\(a lone surrogate, 0xD800\\)`));
  });

  it('a TTML document is read in the encoding its XML declaration names, and one it cannot know is refused by name', async () => {
    const path = join(work, 'latin1.xml.ttml');
    writeFileSync(path, Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?>\n<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="0s" end="1s">caf\u00e9 ok</p></div></body></tt>', 'latin1'));
    const { annotations } = await loadWith(ttmlCodec, path);
    expect(annotations.map((annotation) => annotation.body.text)).toEqual(['caf\u00e9 ok']);
    const error = await refusal(ttmlCodec, 'bad.ttml', '<?xml version="1.0" encoding="x-mac-klingon"?>\n<tt/>');
    expect(error.message).toBe('bad.ttml:1:31: expected an encoding annot can decode in the XML declaration, found "x-mac-klingon"; name the file\'s real encoding with --encoding (?encoding= over HTTP)');
  });

  it('an encoded surrogate in UTF-8 (CESU-8) is invalid UTF-8', async () => {
    const bytes = Buffer.concat([Buffer.from('{"type": "Annotation", "x": "'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]);
    const path = join(work, 'cesu.jsonld');
    writeFileSync(path, bytes);
    await expect(loadWith(webAnnotationCodec, path, { sourceName: 'cesu.jsonld', encoding: 'utf-8' })).rejects.toThrow(
      'cesu.jsonld:1:30: expected UTF-8 text (the encoding named with --encoding); bytes 0xED 0xA0 at byte offset 29 are not UTF-8: name another with --encoding',
    );
  });

  it('a \\uD800 escape without its pair in a JSON string is refused', async () => {
    const error = await refusal(webAnnotationCodec, 'escape.jsonld', '{"type": "Annotation",\n "x": "a\\ud800b"}');
    expect(error.message).toBe('escape.jsonld:2:7: expected a string without lone surrogates (a \\uD800-\\uDFFF escape must be one half of a pair)');
  });

  it('a surrogate pair written as two escapes is a character', async () => {
    const path = join(work, 'pair.jsonld');
    writeFileSync(path, '{"type": "Annotation", "body": {"type": "TextualBody", "value": "\\ud83c\\udfb5"}, "target": "a.wav#t=1,2"}');
    const { annotations } = await loadWith(webAnnotationCodec, path);
    expect(JSON.stringify(annotations[0].body)).toContain('\ud83c\udfb5');
  });
});

/**
 * A gzip bomb the way they are built: gzip members each inflating 64 MiB of spaces, concatenated
 * (gunzip reads them as one stream) behind a member holding the start of a JAMS file. `mebibytes`
 * of output from about a thousandth of that.
 */
function gzipBomb(mebibytes: number): Buffer {
  const head = gzipSync(Buffer.from('{"file_metadata": {}, "annotations": [{"namespace": "tag_open", "data": []'));
  const block = gzipSync(Buffer.alloc(Math.min(mebibytes, 64) * 1024 * 1024, 0x20), { level: 9 });
  return Buffer.concat([head, ...Array.from({ length: Math.ceil(mebibytes / 64) }, () => block)]);
}

describe('compressed input (.jamz)', () => {
  const CHUNK = 64 * 1024;

  it('refuses a gzip bomb (4 MB inflating to 4 GiB) after inflating no more than its ratio limit allows, with the file and the limit', async () => {
    const bomb = gzipBomb(4096);
    expect(bomb.length).toBeLessThan(5 * 1024 * 1024);
    const error = await refusal(jamsCodec, 'bomb.jamz', bomb);
    expect(error).toBeInstanceOf(InputTooLargeError);
    expect(error.code).toBe('ANNOT_INPUT_TOO_LARGE');
    expect(error.message).toMatch(/^bomb\.jamz: gzip-compressed JAMS \(\.jamz\) that inflates more than 200 times its compressed size \(16 MiB from \d+(\.\d)? KiB so far\): refused as a gzip bomb/);
    // Inflation stopped at the first chunk past the point where the ratio is checked.
    expect((error as InputTooLargeError).bytes).toBeLessThanOrEqual(INFLATE_LIMITS.ratioAfterBytes + CHUNK);
  });

  it('stops at the output cap, one chunk past it at most, even when the ratio looks ordinary', async () => {
    const incompressible = gzipSync(randomBytes(3 * 1024 * 1024));
    const limits = { maxBytes: 1024 * 1024, maxRatio: 1000, ratioAfterBytes: 0 };
    const attempt = gunzipBounded(incompressible, 'noise.jamz', 'gzip-compressed JAMS (.jamz)', limits);
    await expect(attempt).rejects.toBeInstanceOf(InputTooLargeError);
    const error = (await attempt.catch((caught: unknown) => caught)) as InputTooLargeError;
    expect(error.message).toMatch(/^noise\.jamz: gzip-compressed JAMS \(\.jamz\) that inflates past 1\.0 MiB, the most text a reader can hold; refused after inflating/);
    expect(error.bytes).toBeGreaterThan(limits.maxBytes);
    expect(error.bytes).toBeLessThanOrEqual(limits.maxBytes + CHUNK);
  });

  it('inflates a real file that compresses as well as real files do (27 times), checking its ratio from the first chunk', async () => {
    const observations = Array.from({ length: 20_000 }, (_, i) => `{"time": ${(i * 0.01).toFixed(2)}, "duration": 0.005, "value": "x", "confidence": null}`);
    const text = `{"file_metadata": {}, "sandbox": {}, "annotations": [{"namespace": "tag_open", "annotation_metadata": {}, "sandbox": {}, "data": [${observations.join(',\n')}]}]}`;
    const compressed = gzipSync(Buffer.from(text), { level: 9 });
    expect(text.length / compressed.length).toBeGreaterThan(20);
    const inflated = await gunzipBounded(compressed, 'real.jamz', 'gzip-compressed JAMS (.jamz)', { ...INFLATE_LIMITS, ratioAfterBytes: 0 });
    expect(inflated.bytes.toString()).toBe(text);
    expect(inflated.consumed).toBe(compressed.length);
  });

  it('refuses a damaged gzip stream as a parse error naming the file', async () => {
    const good = gzipSync(Buffer.from('{"annotations": []}'));
    const error = await refusal(jamsCodec, 'bad.jamz', Buffer.concat([good.subarray(0, 12), Buffer.from('garbage here')]));
    expect(error.message).toMatch(/^bad\.jamz: expected gzip-compressed JAMS \(\.jamz\), but the gzip stream is damaged/);
  });

  it('refuses the bomb from the CLI in one line, writes nothing, and the reading process peaks far under 200 MB', async () => {
    const path = join(work, 'bomb.jamz');
    writeFileSync(path, gzipBomb(4096));
    const out = join(work, 'bomb.out.vtt');
    const converted = await runCli(['convert', path, out]);
    expect(converted.code).toBe(1);
    expect(converted.stderr).toMatch(/^annot: \S*bomb\.jamz: gzip-compressed JAMS \(\.jamz\) that inflates more than 200 times its compressed size .* \[ANNOT_INPUT_TOO_LARGE\]\n$/);
    expect(existsSync(out)).toBe(false);
    // The same read in a process of its own, which reports its own peak resident set: VmHWM, the
    // peak of its own memory map. Not getrusage's maxRSS: Linux keeps that across exec, so it starts
    // at the jest worker's size at the fork (216 MB once, after a worker's heavy earlier files).
    const codec = new URL('../../dist/src/adapters/jams/codec.js', import.meta.url).href;
    const script = `const { jamsCodec } = await import(${JSON.stringify(codec)});
      let code = 'accepted';
      try { await jamsCodec.load(${JSON.stringify(path)}, { sourceName: 'bomb.jamz', now: undefined, report: () => {} }); } catch (error) { code = error.code; }
      const { readFileSync } = await import('node:fs');
      const peakKb = Number(/VmHWM:\\s+(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))[1]);
      process.stdout.write(JSON.stringify({ code, maxRssBytes: peakKb * 1024 }));`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    const { code, maxRssBytes } = JSON.parse(child.stdout) as { code: string; maxRssBytes: number };
    expect(code).toBe('ANNOT_INPUT_TOO_LARGE');
    expect(maxRssBytes).toBeLessThan(200 * 1024 * 1024);
  }, 60_000);
});

it('leaves no file behind in the work directory but the inputs', () => {
  expect(existsSync(work)).toBe(true);
  expect(readdirSync(work).every((name) => /^(deep|nested|laughs|xxe|surrogate|nan|bad|latin1|cp1252|utf16|lone|cesu|escape|pair|bomb)\./.test(name))).toBe(true);
});

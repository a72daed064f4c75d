import { writeFileSync } from 'node:fs';
import { TextDecoder } from 'node:util';
import { join } from 'node:path';
import type { FormatCodec } from '../../src/adapters/adapter.js';
import { eafCodec } from '../../src/adapters/eaf/codec.js';
import { SAMPLE_BYTES } from '../../src/adapters/encoding/encoding-choice.js';
import { resolveEncoding } from '../../src/adapters/encoding/encoding-names.js';
import { TextDecodingError, UnknownEncodingError } from '../../src/adapters/errors.js';
import { jamsCodec } from '../../src/adapters/jams/codec.js';
import { srtCodec } from '../../src/adapters/srt/codec.js';
import { textgridCodec } from '../../src/adapters/textgrid/codec.js';
import { webvttCodec } from '../../src/adapters/webvtt/codec.js';
import { tempDir } from '../support/sample-annot.js';
import { loadWith } from './codec-harness.js';

/**
 * The one decoding layer every text reader goes through (src/adapters/source-text.ts and
 * encoding/): a byte-order mark decides, then --encoding, an XML declaration, UTF-16/32 told by
 * the zero bytes, UTF-8, a refusal of mixed encodings, and a detected legacy encoding reported as
 * a warning. Bytes that do not decode are an error naming the byte offset, never U+FFFD.
 */

const { dir, cleanup } = tempDir('annot-encodings-');
afterAll(cleanup);

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'encodings');
const SRT = '1\n00:00:01,000 --> 00:00:02,000\nÀ la fête, Noël — 5 €\n\n2\n00:00:03,000 --> 00:00:04,000\n日本語と中文\n';

function write(name: string, bytes: Buffer | string): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

async function read(codec: FormatCodec, path: string, encoding?: string) {
  const { annotations, warnings, document } = await loadWith(codec, path, { sourceName: path.slice(dir.length + 1), encoding });
  return { texts: annotations.map((a) => a.body.text as string), warnings, meta: document.meta };
}

async function refusal(codec: FormatCodec, path: string, encoding?: string): Promise<TextDecodingError> {
  try {
    await read(codec, path, encoding);
  } catch (error) {
    expect(error).toBeInstanceOf(TextDecodingError);
    expect((error as Error).message).not.toContain('\n');
    return error as TextDecodingError;
  }
  throw new Error(`${path} was read`);
}

function utf32(text: string, littleEndian: boolean): Buffer {
  const points = [...text].map((char) => char.codePointAt(0) as number);
  const bytes = Buffer.alloc(points.length * 4);
  points.forEach((point, at) => (littleEndian ? bytes.writeUInt32LE(point, at * 4) : bytes.writeUInt32BE(point, at * 4)));
  return bytes;
}

describe('a byte-order mark decides', () => {
  const marked: Array<[string, Buffer]> = [
    ['UTF-8', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SRT, 'utf8')])],
    ['UTF-16LE', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SRT, 'utf16le')])],
    ['UTF-16BE', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(SRT, 'utf16le').swap16()])],
    ['UTF-32LE', utf32(`\ufeff${SRT}`, true)],
    ['UTF-32BE', utf32(`\ufeff${SRT}`, false)],
  ];
  it.each(marked)('%s: the same cues, no finding', async (name, bytes) => {
    const { texts, warnings } = await read(srtCodec, write(`bom-${name}.srt`, bytes));
    expect(texts).toEqual(['À la fête, Noël — 5 €', '日本語と中文']);
    expect(warnings).toEqual([]);
  });

  it('over --encoding, with a warning that the flag was not used', async () => {
    const path = write('bom-forced.srt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SRT, 'utf8')]));
    const { texts, warnings } = await read(srtCodec, path, 'windows-1252');
    expect(texts[0]).toBe('À la fête, Noël — 5 €');
    expect(warnings).toEqual(['bom-forced.srt: warning: --encoding windows-1252 not used: the file starts with a UTF-8 byte-order mark, which decides (read as UTF-8) [encoding_bom_overrides]']);
  });

  it('UTF-32 with a code point past U+10FFFF is refused with its offset', async () => {
    const bytes = Buffer.concat([utf32('\ufeff1\n00:00:01,000 --> 00:00:02,000\nab', true), Buffer.from([0x00, 0x00, 0x11, 0x00]), utf32('\n', true)]);
    const error = await refusal(srtCodec, write('utf32-bad.srt', bytes));
    expect(error.message).toBe(`utf32-bad.srt:3:3: expected UTF-32LE text (as its byte-order mark says); bytes 0x00 0x00 0x11 0x00 at byte offset ${bytes.length - 8} are not UTF-32LE: name the file's encoding with --encoding (?encoding= over HTTP)`);
    expect(error.byteOffset).toBe(bytes.length - 8);
  });
});

describe('--encoding', () => {
  it('reads pysubs2\'s windows-1250 file as pysubs2 does with encoding="windows-1250", without a finding', async () => {
    const { texts, warnings } = await read(srtCodec, join(FIXTURES, 'pysubs2_win1250.srt'), 'windows-1250');
    expect(texts).toEqual(['The quick brown fox jumps over the lazy dog\nPříliš žluťoučký kůň úpěl ďábelské ódy']);
    expect(warnings).toEqual([]);
  });

  it('refuses a byte the named encoding cannot decode, with its offset, line and column (strict us-ascii, not the standard\'s windows-1252)', async () => {
    const path = write('ascii.srt', Buffer.from('1\n00:00:01,000 --> 00:00:02,000\ncaf\xe9\n', 'latin1'));
    const error = await refusal(srtCodec, path, 'ascii');
    expect(error.message).toBe('ascii.srt:3:4: expected us-ascii text (the encoding named with --encoding); byte 0xE9 at byte offset 35 is not us-ascii: name another with --encoding (?encoding= over HTTP)');
  });

  it('refuses UTF-8 cut short at the end of the file', async () => {
    const path = write('cut.srt', Buffer.concat([Buffer.from('1\n00:00:01,000 --> 00:00:02,000\nab'), Buffer.from([0xe2, 0x82])]));
    expect((await refusal(srtCodec, path, 'utf-8')).message).toContain('cut.srt:3:3: expected UTF-8 text (the encoding named with --encoding); bytes 0xE2 0x82 at byte offset 34 are not UTF-8');
  });

  it('an unknown name is a usage error that suggests the nearest name and lists some', () => {
    expect(() => resolveEncoding('latin-2')).toThrow(UnknownEncodingError);
    expect(() => resolveEncoding('latin-2')).toThrow(/^unknown encoding "latin-2" \(did you mean "latin2"\?\); known encodings include utf-8, utf-16le, .*windows-1252.*shift_jis.*gb18030/);
    expect(resolveEncoding('Latin1')).toBe('windows-1252');
    expect(resolveEncoding('UTF-32')).toBe('utf-32le');
  });
});

describe('UTF-16 and UTF-32 without a byte-order mark', () => {
  it.each([
    ['UTF-16BE', Buffer.from(SRT, 'utf16le').swap16()],
    ['UTF-32LE', utf32(SRT, true)],
  ])('%s is told by its zero bytes, with a warning', async (name, bytes) => {
    const { texts, warnings } = await read(srtCodec, write(`zeros-${name}.srt`, bytes));
    expect(texts[1]).toBe('日本語と中文');
    expect(warnings).toEqual([`zeros-${name}.srt: warning: no byte-order mark: read as ${name}, told by the zero bytes of its first characters (confidence 0.95); name another with --encoding if the text looks wrong [encoding_guessed]`]);
  });
});

describe('the XML declaration of an EAF file', () => {
  const eaf = (declaration: string, value: string) =>
    `${declaration}<ANNOTATION_DOCUMENT AUTHOR="x" DATE="2026-01-01T00:00:00+00:00" FORMAT="3.0" VERSION="3.0">\n<HEADER MEDIA_FILE="" TIME_UNITS="milliseconds"/>\n<TIME_ORDER><TIME_SLOT TIME_SLOT_ID="ts1" TIME_VALUE="0"/><TIME_SLOT TIME_SLOT_ID="ts2" TIME_VALUE="1000"/></TIME_ORDER>\n<TIER LINGUISTIC_TYPE_REF="t" TIER_ID="words"><ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" TIME_SLOT_REF1="ts1" TIME_SLOT_REF2="ts2"><ANNOTATION_VALUE>${value}</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION></TIER>\n<LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="t" TIME_ALIGNABLE="true"/>\n</ANNOTATION_DOCUMENT>\n`;

  it('is honoured: ISO-8859-1 declared is read so, without a finding', async () => {
    const path = write('latin1.eaf', Buffer.from(eaf('<?xml version="1.0" encoding="ISO-8859-1"?>\n', 'Müller à Zürich'), 'latin1'));
    const { texts, warnings } = await read(eafCodec, path);
    expect(texts).toEqual(['Müller à Zürich']);
    expect(warnings).toEqual([]);
  });

  it('loses to a byte-order mark that says otherwise, with a warning', async () => {
    const path = write('bom-latin1.eaf', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(eaf('<?xml version="1.0" encoding="ISO-8859-1"?>\n', 'Müller'), 'utf8')]));
    const { texts, warnings } = await read(eafCodec, path);
    expect(texts).toEqual(['Müller']);
    expect(warnings).toEqual(['bom-latin1.eaf: warning: the XML declaration says encoding="ISO-8859-1" but the file starts with a UTF-8 byte-order mark, which decides: read as UTF-8 [encoding_declaration_mismatch]']);
  });

  it('naming an encoding nobody knows is an error at the name', async () => {
    const path = write('unknown.eaf', eaf('<?xml version="1.0" encoding="x-klingon"?>\n', 'x'));
    expect((await refusal(eafCodec, path)).message).toBe('unknown.eaf:1:31: expected an encoding annot can decode in the XML declaration, found "x-klingon"; name the file\'s real encoding with --encoding (?encoding= over HTTP)');
  });

  it('declaring UTF-8 over a Latin-1 byte is an error that says the declaration chose the encoding', async () => {
    const path = write('lying.eaf', Buffer.from(eaf('<?xml version="1.0" encoding="UTF-8"?>\n', 'M\u00fcller'), 'latin1'));
    expect((await refusal(eafCodec, path)).message).toMatch(/^lying\.eaf:5:\d+: expected UTF-8 text \(as its XML declaration says\); byte 0xFC at byte offset \d+ is not UTF-8: name the file's encoding with --encoding/);
    // --encoding overrides a declaration that lies.
    expect((await read(eafCodec, path, 'windows-1252')).texts).toEqual(['Müller']);
  });
});

describe('WebVTT is UTF-8 by specification', () => {
  const VTT = 'WEBVTT\n\n00:00.000 --> 00:01.000\n日本語の字幕です。東京は晴れ。\n\n00:01.000 --> 00:02.000\nこんにちは、世界。\n';

  it('a Shift_JIS file is read in the encoding detected, with a warning that says so', async () => {
    const { texts, warnings } = await read(webvttCodec, write('sjis.vtt', new TextEncoderShiftJis().encode(VTT)));
    expect(texts).toEqual(['日本語の字幕です。東京は晴れ。', 'こんにちは、世界。']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^sjis\.vtt: warning: not UTF-8 and no byte-order mark: read as shift_jis, the encoding detected with confidence 0\.\d\d.* \(WebVTT files must be UTF-8: players read them so\); name another with --encoding if the text looks wrong \[encoding_guessed\]$/);
  });

  it('a UTF-16 file (by its byte-order mark) is read, with a warning', async () => {
    const { warnings } = await read(webvttCodec, write('utf16.vtt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(VTT, 'utf16le')])));
    expect(warnings).toEqual(['utf16.vtt: warning: WebVTT files are UTF-8 by specification; this one is UTF-16LE (its byte-order mark): read as such, but players read it as UTF-8 (annot writes UTF-8) [encoding_not_utf8]']);
  });
});

describe('readers that stream decide from the first 4 MiB', () => {
  const filler = (lines: number, cue: (n: number) => string) => Array.from({ length: lines }, (_, n) => cue(n)).join('');
  const srtCue = (n: number) => `${n + 1}\n${time(n)},000 --> ${time(n)},500\nLa niña está aquí, ¿verdad?\n\n`;
  const time = (n: number) => `${String(Math.floor(n / 3600)).padStart(2, '0')}:${String(Math.floor(n / 60) % 60).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}`;

  it.each([
    ['srt', srtCodec, (late: Buffer) => Buffer.concat([Buffer.from(filler(90_000, srtCue)), late, Buffer.from('\n')])],
    ['vtt', webvttCodec, (late: Buffer) => Buffer.concat([Buffer.from('WEBVTT\n\n'), Buffer.from(filler(90_000, srtCue).replaceAll(',', '.').replace(/^\d+\n/gm, '')), late, Buffer.from('\n')])],
    ['TextGrid', textgridCodec, (late: Buffer) => {
      const items = filler(120_000, (n) => `${n} ${n + 1} "La niña está aquí, ¿verdad?"\n`);
      return Buffer.concat([Buffer.from(`File type = "ooTextFile"\nObject class = "TextGrid"\n0 120001 <exists> 1 "IntervalTier" "t" 0 120001 120001\n${items}120000 120001 "`), late, Buffer.from('"\n')]);
    }],
  ])('a .%s file that is UTF-8 there and not after is refused at the offset of the first byte that is not', async (extension, codec, build) => {
    const bytes = build(Buffer.from('caf\xe9', 'latin1'));
    const offset = bytes.indexOf(Buffer.from('caf\xe9', 'latin1')) + 3;
    expect(offset).toBeGreaterThan(SAMPLE_BYTES);
    const error = await refusal(codec, write(`late.${extension}`, bytes));
    expect(error.byteOffset).toBe(offset);
    expect(error.message).toMatch(new RegExp(`^late\\.${extension}:\\d+:\\d+: expected UTF-8 text \\(as its first 4 MiB are: the file mixes encodings or is damaged\\); byte 0xE9 at byte offset ${offset} is not UTF-8`));
  }, 60_000);

  it('a legacy encoding guessed from the start and contradicted later is refused where, with the guess named', async () => {
    const sentence = new TextEncoderGreek().encode('Καλημέρα σας, πώς είστε σήμερα;\n\n');
    const cues = Array.from({ length: 80_000 }, (_, n) => [Buffer.from(`${n + 1}\n${time(n)},000 --> ${time(n)},500\n`), sentence]).flat();
    const bytes = Buffer.concat([...cues, Buffer.from('1\n00:00:00,000 --> 00:00:01,000\nx'), Buffer.from([0xd2]), Buffer.from('\n')]);
    const error = await refusal(srtCodec, write('greek.srt', bytes));
    expect(error.message).toMatch(/^greek\.srt:\d+:2: expected (windows-1253|iso-8859-7) text \(the encoding guessed from its first 4 MiB\); byte 0xD2 at byte offset \d+ is not (windows-1253|iso-8859-7): name the file's encoding with --encoding/);
    expect(error.byteOffset).toBe(bytes.length - 2);
  }, 60_000);
});

it('JSON formats read UTF-16 by a byte-order mark (RFC 8259 leaves the rest to the same rules)', async () => {
  const jams = '{"file_metadata": {"title": "Café"}, "annotations": [{"namespace": "tag_open", "data": [{"time": 0, "duration": 1, "value": "Æsop", "confidence": null}], "annotation_metadata": {}, "sandbox": {}}], "sandbox": {}}';
  const path = write('utf16be.jams', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(jams, 'utf16le').swap16()]));
  const { annotations, warnings, document } = await loadWith(jamsCodec, path, { sourceName: 'utf16be.jams' });
  expect(warnings).toEqual([]);
  expect(annotations.map((a) => a.body.value)).toEqual(['Æsop']);
  expect(JSON.stringify(document.meta)).toContain('Café');
});

/** Shift_JIS bytes for test text (Node has decoders for legacy encodings, not encoders): from a code table of the characters used. */
class TextEncoderShiftJis {
  encode(text: string): Buffer {
    const decoder = new TextDecoder('shift_jis');
    const table = new Map<string, Buffer>();
    for (let lead = 0x81; lead <= 0x9f; lead++) addPairs(table, decoder, lead);
    for (let lead = 0xe0; lead <= 0xef; lead++) addPairs(table, decoder, lead);
    return Buffer.concat([...text].map((char) => (char.charCodeAt(0) < 0x80 ? Buffer.from(char) : (table.get(char) ?? fail(char)))));
  }
}

function addPairs(table: Map<string, Buffer>, decoder: TextDecoder, lead: number): void {
  for (let trail = 0x40; trail <= 0xfc; trail++) {
    if (trail === 0x7f) continue;
    const char = decoder.decode(Uint8Array.of(lead, trail));
    if (!table.has(char)) table.set(char, Buffer.from([lead, trail]));
  }
}

/** windows-1253 bytes for Greek test text. */
class TextEncoderGreek {
  encode(text: string): Buffer {
    const decoder = new TextDecoder('windows-1253');
    const table = new Map<string, number>();
    for (let byte = 0x80; byte <= 0xff; byte++) table.set(decoder.decode(Uint8Array.of(byte)), byte);
    return Buffer.from([...text].map((char) => (char.charCodeAt(0) < 0x80 ? char.charCodeAt(0) : (table.get(char) ?? fail(char)))));
  }
}

function fail(char: string): never {
  throw new Error(`no byte for ${JSON.stringify(char)}`);
}

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILTIN_FORMATS } from '../../src/adapters/builtin.js';
import { TextDecodingError } from '../../src/adapters/errors.js';
import { tempDir } from '../support/sample-annot.js';
import { loadWith } from './codec-harness.js';

/**
 * No reader ever puts U+FFFD in place of bytes it could not decode (issue 21). Every text format
 * annot registers is walked (a new reader without a sample here fails the first test): its
 * sample read in UTF-8, in windows-1252, with one byte of another encoding among UTF-8 lines,
 * with --encoding utf-8 over windows-1252 bytes, and in UTF-16 with a lone surrogate. Each is
 * either read with no U+FFFD anywhere in what was read (annotations, tiers, metadata), or
 * refused with a TextDecodingError naming the byte.
 */

/** A line with "naïve", then a later line with "café": the one-byte variants change the é. */
const SAMPLES: Readonly<Record<string, { extension: string; text: string }>> = {
  srt: { extension: 'srt', text: '1\n00:00:01,000 --> 00:00:02,000\nna\u00efve\n\n2\n00:00:03,000 --> 00:00:04,000\ncaf\u00e9 cr\u00e8me\n' },
  webvtt: { extension: 'vtt', text: 'WEBVTT\n\n00:01.000 --> 00:02.000\nna\u00efve\n\n00:03.000 --> 00:04.000\ncaf\u00e9 cr\u00e8me\n' },
  textgrid: { extension: 'TextGrid', text: 'File type = "ooTextFile"\nObject class = "TextGrid"\n\n0\n4\n<exists>\n1\n"IntervalTier"\n"words"\n0\n4\n2\n0\n2\n"na\u00efve"\n2\n4\n"caf\u00e9 cr\u00e8me"\n' },
  eaf: {
    extension: 'eaf',
    // No XML declaration: one saying UTF-8 would make the windows-1252 variant an error (text-encodings.test.ts has that case).
    text: '<ANNOTATION_DOCUMENT AUTHOR="na\u00efve" DATE="2026-01-01T00:00:00+00:00" FORMAT="3.0" VERSION="3.0">\n<HEADER MEDIA_FILE="" TIME_UNITS="milliseconds"/>\n<TIME_ORDER><TIME_SLOT TIME_SLOT_ID="ts1" TIME_VALUE="0"/><TIME_SLOT TIME_SLOT_ID="ts2" TIME_VALUE="1000"/></TIME_ORDER>\n<TIER LINGUISTIC_TYPE_REF="t" TIER_ID="words"><ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" TIME_SLOT_REF1="ts1" TIME_SLOT_REF2="ts2"><ANNOTATION_VALUE>caf\u00e9 cr\u00e8me</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION></TIER>\n<LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="t" TIME_ALIGNABLE="true"/>\n</ANNOTATION_DOCUMENT>\n',
  },
  jams: { extension: 'jams', text: '{"file_metadata": {"title": "na\\u00efve", "artist": "na\u00efve"},\n "annotations": [{"namespace": "tag_open", "data": [{"time": 0, "duration": 1, "value": "caf\u00e9 cr\u00e8me", "confidence": null}], "annotation_metadata": {}, "sandbox": {}}], "sandbox": {}}' },
  label_studio: {
    extension: 'labelstudio.json',
    text: '[{"data": {"audio": "na\u00efve.wav"},\n "annotations": [{"result": [{"from_name": "label", "to_name": "audio", "type": "labels", "value": {"start": 1, "end": 2, "labels": ["caf\u00e9 cr\u00e8me"]}}]}]}]',
  },
  web_annotation: {
    extension: 'jsonld',
    text: '{"@context": "http://www.w3.org/ns/anno.jsonld", "type": "AnnotationCollection", "label": "na\u00efve",\n "first": {"type": "AnnotationPage", "items": [{"type": "Annotation", "body": {"type": "TextualBody", "value": "caf\u00e9 cr\u00e8me"}, "target": "a.wav#t=1,2"}]}}',
  },
  ass: {
    extension: 'ass',
    text: '[Script Info]\nTitle: na\u00efve\nScriptType: v4.00+\n\n[V4+ Styles]\nFormat: Name, Fontname, Fontsize\nStyle: Default,Arial,20\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,caf\u00e9 cr\u00e8me\n',
  },
  sbv: { extension: 'sbv', text: '0:00:01.000,0:00:02.000\nna\u00efve\n\n0:00:03.000,0:00:04.000\ncaf\u00e9 cr\u00e8me\n' },
  ttml: {
    extension: 'ttml',
    // No XML declaration, as for EAF.
    text: '<tt xmlns="http://www.w3.org/ns/ttml" xml:lang="fr"><head><metadata/></head><!-- na\u00efve -->\n<body><div><p begin="1s" end="2s">caf\u00e9 cr\u00e8me</p></div></body></tt>\n',
  },
  otio: {
    extension: 'otio',
    text: '{"OTIO_SCHEMA": "Timeline.1", "name": "na\u00efve", "metadata": {},\n "tracks": {"OTIO_SCHEMA": "Stack.1", "name": "caf\u00e9 cr\u00e8me", "children": [], "metadata": {}}}',
  },
};

const TEXT_FORMATS = BUILTIN_FORMATS.filter((format) => format.name !== 'annot');

/** The ways a file's bytes can fail to be UTF-8, and whether the reader must refuse them. */
const VARIANTS: Array<{ name: string; bytes: (text: string) => Buffer; encoding?: string; refused: boolean }> = [
  { name: 'UTF-8', bytes: (text) => Buffer.from(text, 'utf8'), refused: false },
  { name: 'windows-1252 (a guess)', bytes: (text) => Buffer.from(text, 'latin1'), refused: false },
  { name: 'one windows-1252 byte among UTF-8 lines', bytes: (text) => oneLatin1Byte(text), refused: true },
  { name: 'windows-1252 read with --encoding utf-8', bytes: (text) => Buffer.from(text, 'latin1'), encoding: 'utf-8', refused: true },
  { name: 'UTF-16 with a lone surrogate', bytes: (text) => Buffer.from(`\ufeff${text.replace('\u00e9', '\ud800')}`, 'utf16le'), refused: true },
  { name: 'UTF-8 cut in the middle of its last character', bytes: (text) => Buffer.concat([Buffer.from(text.trimEnd(), 'utf8'), Buffer.from([0xe2, 0x82])]), refused: true },
];

function oneLatin1Byte(text: string): Buffer {
  const utf8 = Buffer.from(text, 'utf8');
  const at = utf8.indexOf(Buffer.from('\u00e9', 'utf8'));
  return Buffer.concat([utf8.subarray(0, at), Buffer.from([0xe9]), utf8.subarray(at + 2)]);
}

describe('no reader puts U+FFFD in place of bytes', () => {
  const { dir, cleanup } = tempDir('annot-no-fffd-');
  afterAll(cleanup);

  it('walks every text format annot registers', () => {
    expect(TEXT_FORMATS.map((format) => format.name).sort()).toEqual(Object.keys(SAMPLES).sort());
  });

  const cases = TEXT_FORMATS.flatMap((format) => VARIANTS.map((variant) => [format.name, variant.name, format, variant] as const));
  it.each(cases)('%s in %s', async (name, variantName, format, variant) => {
    const sample = SAMPLES[name];
    const file = `${name}-${VARIANTS.indexOf(variant)}.${sample.extension}`;
    const path = join(dir, file);
    writeFileSync(path, variant.bytes(sample.text));
    let read: Awaited<ReturnType<typeof loadWith>>;
    try {
      read = await loadWith(await format.codec(), path, { sourceName: file, encoding: variant.encoding });
    } catch (error) {
      expect(error).toBeInstanceOf(TextDecodingError);
      expect((error as Error).message).toMatch(new RegExp(`^${file.replace(/\./g, '\\.')}:\\d+:\\d+: expected .* at byte offset \\d+`));
      expect(variant.refused).toBe(true);
      return;
    }
    expect(variant.refused).toBe(false);
    const everything = JSON.stringify([read.annotations.map((annotation) => annotation.body), await read.store.listTiers(), await read.store.listMeta()]);
    expect(everything).not.toContain('\ufffd');
    expect(everything).toContain('cr\u00e8me');
    if (variantName !== 'UTF-8') expect(read.warnings.some((warning) => warning.endsWith('[encoding_guessed]'))).toBe(true);
  });
});

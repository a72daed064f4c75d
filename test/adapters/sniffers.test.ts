import { inferFormat } from '../../src/adapters/registry.js';

const sniff = (path: string, text: string | Buffer) => inferFormat({ path, head: Buffer.isBuffer(text) ? text : Buffer.from(text) }).name;

describe('format inference', () => {
  it('prefers an explicit format over everything else', () => {
    expect(inferFormat({ explicit: 'srt', path: 'x.vtt', head: Buffer.from('WEBVTT\n') }).name).toBe('srt');
  });

  it('takes the longest matching extension, so x.labelstudio.json is Label Studio', () => {
    expect(inferFormat({ path: 'export.labelstudio.json' }).name).toBe('label_studio');
    expect(inferFormat({ path: 'talk.VTT' }).name).toBe('webvtt');
    expect(inferFormat({ path: 'song.jamz' }).name).toBe('jams');
  });

  it('decides a plain .json by its content', () => {
    expect(sniff('a.json', '{"@context": "http://www.w3.org/ns/anno.jsonld", "type": "Annotation"}')).toBe('web_annotation');
    expect(sniff('a.json', '{"annotations": [{"namespace": "beat", "data": [], "annotation_metadata": {}}], "file_metadata": {}}')).toBe('jams');
    expect(sniff('a.json', '[{"id": 1, "data": {"audio": "a.wav"}, "annotations": [{"result": []}]}]')).toBe('label_studio');
    expect(sniff('a.json', '{"annotations": [{"id": "1001", "result": []}]}')).toBe('label_studio');
  });

  it('sniffs files without a telling extension', () => {
    expect(sniff('input', 'WEBVTT\n\n00:01.000 --> 00:02.000\nhi\n')).toBe('webvtt');
    expect(sniff('input', 'File type = "ooTextFile"\nObject class = "TextGrid"\n')).toBe('textgrid');
    expect(sniff('input', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('File type = "ooTextFile"\n', 'utf16le')]))).toBe('textgrid');
    expect(sniff('input', '<?xml version="1.0"?>\n<ANNOTATION_DOCUMENT AUTHOR="">')).toBe('eaf');
    expect(sniff('input', '{"OTIO_SCHEMA": "Timeline.1", "tracks": {}}')).toBe('otio');
    expect(sniff('input', '1\n00:00:01,000 --> 00:00:02,000\nhello\n')).toBe('srt');
    expect(sniff('input', Buffer.concat([Buffer.from('SQLite format 3\u0000'), Buffer.alloc(84)]))).toBe('annot');
    expect(sniff('input', '[Script Info]\nScriptType: v4.00+\n')).toBe('ass');
    expect(sniff('input', '<?xml version="1.0"?>\n<tt xmlns="http://www.w3.org/ns/ttml" xml:lang="en">')).toBe('ttml');
    expect(sniff('input', '0:00:01.000,0:00:03.500\nhello\n')).toBe('sbv');
  });

  it('takes .xml for TTML only when the content is TTML', () => {
    expect(sniff('captions.xml', '<tt xmlns="http://www.w3.org/ns/ttml">')).toBe('ttml');
    expect(sniff('elan.xml', '<ANNOTATION_DOCUMENT>')).toBe('eaf');
    expect(() => sniff('config.xml', '<config/>')).toThrow(/cannot tell the format of "config.xml"/);
    expect(inferFormat({ path: 'out.xml' }).name).toBe('ttml');
  });

  it('names the known formats when nothing matches', () => {
    expect(() => sniff('notes.txt', 'just some text')).toThrow(/cannot tell the format of "notes.txt".*annot, ass \(ssa\), eaf \(elan\), jams, label_studio \(ls, labelstudio\), otio, sbv, srt \(subrip\), textgrid \(tg, praat\), ttml \(dfxp, imsc\), web_annotation \(wa, w3c, webannotation\), webvtt \(vtt\)/);
    expect(() => inferFormat({ explicit: 'docx' })).toThrow(/unknown format "docx"; known formats: annot, ass \(ssa\), eaf/);
  });
});

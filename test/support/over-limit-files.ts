/**
 * Small files of every format, each with one value past the model's limits (src/model/limits.ts)
 * at a place the test knows: a body over 1 MiB, a tier name over 256 characters, an asset id or a
 * provenance agent over 4096, a metadata value over 1 MiB. What keeps a file (a `.annot`, a
 * database project, a served file, POST /import) refuses it, naming the file and that place.
 */

/** Past LIMITS.bodyChars and LIMITS.metaValueChars (1 MiB). */
export const HUGE_TEXT = 'x'.repeat(1024 * 1024 + 10);
/** Past LIMITS.nameChars (256). */
export const LONG_NAME = 'n'.repeat(300);
/** Past LIMITS.idChars (4096). */
export const LONG_ID = 'i'.repeat(5000);

export interface OverLimitFile {
  /** `webvtt: body of the second cue`: the test's name. */
  readonly title: string;
  /** The file name, whose extension says the format. */
  readonly name: string;
  readonly content: string;
  /** What the refusal says after `annot: <path>`: the place, then the model's words. */
  readonly refusal: string;
  /** Whether a conversion into another text format refuses it too (the reader builds it with the model's checks), or converts it. */
  readonly refusedByConversion: boolean;
}

const BODY = 'body: at most 1048576 characters as JSON text (1 MiB); this body is longer';
const TIER = `name: a tier name of at most 256 characters, got ${LONG_NAME.length}`;
const ASSET = `reference.asset_id: an asset id of at most 4096 characters, got ${LONG_ID.length}`;
const META_VALUE = (key: string) => `meta value for "${key}": at most 1048576 characters, got `;

function vtt(): OverLimitFile[] {
  const second = `WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhello\n\n00:00:03.000 --> 00:00:04.000\n${HUGE_TEXT}\n`;
  const first = `WEBVTT\n\n00:00:03.000 --> 00:00:04.000\n${HUGE_TEXT}\n`;
  const style = `WEBVTT\n\nSTYLE\n::cue { color: red }\n/* ${HUGE_TEXT} */\n\n00:00:01.000 --> 00:00:02.000\nhello\n`;
  return [
    { title: 'webvtt: the body of the second cue', name: 'second.vtt', content: second, refusal: `:6: ${BODY}`, refusedByConversion: false },
    { title: 'webvtt: the body of the first cue', name: 'first.vtt', content: first, refusal: `:3: ${BODY}`, refusedByConversion: true },
    { title: 'webvtt: a STYLE block (the preamble metadata)', name: 'style.vtt', content: style, refusal: `:4: ${META_VALUE('webvtt.preamble')}`, refusedByConversion: false },
  ];
}

function subtitles(): OverLimitFile[] {
  return [
    {
      title: 'srt: the body of the second cue',
      name: 'second.srt',
      content: `1\n00:00:01,000 --> 00:00:02,000\nhello\n\n2\n00:00:03,000 --> 00:00:04,000\n${HUGE_TEXT}\n`,
      refusal: `:6: ${BODY}`,
      refusedByConversion: false,
    },
    {
      title: 'sbv: the body of the second caption',
      name: 'second.sbv',
      content: `0:00:01.000,0:00:02.000\nhello\n\n0:00:03.000,0:00:04.000\n${HUGE_TEXT}\n`,
      refusal: `:4: ${BODY}`,
      refusedByConversion: false,
    },
    {
      title: 'ass: the body of the second event',
      name: 'second.ass',
      content: `[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,hello\nDialogue: 0,0:00:03.00,0:00:04.00,Default,,0,0,0,,${HUGE_TEXT}\n`,
      refusal: `:7: ${BODY}`,
      refusedByConversion: false,
    },
    {
      title: 'ass: [Script Info] (metadata)',
      name: 'info.ass',
      content: `[Script Info]\nScriptType: v4.00+\nTitle: ${HUGE_TEXT}\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,hello\n`,
      refusal: ` ([Script Info]): ${META_VALUE('ass.script_info')}`,
      refusedByConversion: false,
    },
  ];
}

function textGrid(tierName: string, label: string): string {
  return (
    'File type = "ooTextFile"\nObject class = "TextGrid"\n\nxmin = 0\nxmax = 2\ntiers? <exists>\nsize = 1\nitem []:\n' +
    `    item [1]:\n        class = "IntervalTier"\n        name = "${tierName}"\n        xmin = 0\n        xmax = 2\n        intervals: size = 2\n` +
    '        intervals [1]:\n            xmin = 0\n            xmax = 1\n            text = "hi"\n' +
    `        intervals [2]:\n            xmin = 1\n            xmax = 2\n            text = "${label}"\n`
  );
}

function textGrids(): OverLimitFile[] {
  return [
    { title: 'textgrid: a tier name', name: 'tier.TextGrid', content: textGrid(LONG_NAME, 'there'), refusal: `:11: ${TIER}`, refusedByConversion: true },
    { title: 'textgrid: the label of the second interval', name: 'label.TextGrid', content: textGrid('words', HUGE_TEXT), refusal: `:20: ${BODY}`, refusedByConversion: true },
  ];
}

function ttml(head: string, second: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<tt xmlns="http://www.w3.org/ns/ttml" xml:lang="en">\n' +
    `<head>${head}</head>\n<body>\n<div>\n<p begin="00:00:01.000" end="00:00:02.000">hello</p>\n` +
    `<p begin="00:00:03.000" end="00:00:04.000">${second}</p>\n</div>\n</body>\n</tt>\n`
  );
}

function ttmls(): OverLimitFile[] {
  return [
    { title: 'ttml: the body of the second paragraph', name: 'second.ttml', content: ttml('', HUGE_TEXT), refusal: `:7: ${BODY}`, refusedByConversion: true },
    {
      title: 'ttml: the head (metadata)',
      name: 'head.ttml',
      content: ttml(`<metadata xmlns:ttm="http://www.w3.org/ns/ttml#metadata"><ttm:title>${HUGE_TEXT}</ttm:title></metadata>`, 'there'),
      refusal: ` (tt/head): ${META_VALUE('ttml.head')}`,
      refusedByConversion: false,
    },
  ];
}

function eaf(options: { tier?: string; value?: string; media?: string; annotator?: string; property?: string }): string {
  const media = options.media === undefined ? '' : `\n        <MEDIA_DESCRIPTOR MEDIA_URL="${options.media}" MIME_TYPE="audio/x-wav"/>`;
  const property = options.property === undefined ? '' : `\n        <PROPERTY NAME="note">${options.property}</PROPERTY>`;
  const annotator = options.annotator === undefined ? '' : ` ANNOTATOR="${options.annotator}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<ANNOTATION_DOCUMENT AUTHOR="" DATE="2024-01-01T00:00:00+00:00" FORMAT="3.0" VERSION="3.0">
    <HEADER MEDIA_FILE="" TIME_UNITS="milliseconds">${media}${property}
    </HEADER>
    <TIME_ORDER>
        <TIME_SLOT TIME_SLOT_ID="ts1" TIME_VALUE="1000"/>
        <TIME_SLOT TIME_SLOT_ID="ts2" TIME_VALUE="2000"/>
        <TIME_SLOT TIME_SLOT_ID="ts3" TIME_VALUE="3000"/>
    </TIME_ORDER>
    <TIER LINGUISTIC_TYPE_REF="default" TIER_ID="${options.tier ?? 'words'}"${annotator}>
        <ANNOTATION>
            <ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" TIME_SLOT_REF1="ts1" TIME_SLOT_REF2="ts2">
                <ANNOTATION_VALUE>hello</ANNOTATION_VALUE>
            </ALIGNABLE_ANNOTATION>
        </ANNOTATION>
        <ANNOTATION>
            <ALIGNABLE_ANNOTATION ANNOTATION_ID="a2" TIME_SLOT_REF1="ts2" TIME_SLOT_REF2="ts3">
                <ANNOTATION_VALUE>${options.value ?? 'there'}</ANNOTATION_VALUE>
            </ALIGNABLE_ANNOTATION>
        </ANNOTATION>
    </TIER>
    <LINGUISTIC_TYPE GRAPHIC_REFERENCES="false" LINGUISTIC_TYPE_ID="default" TIME_ALIGNABLE="true"/>
</ANNOTATION_DOCUMENT>
`;
}

function eafs(): OverLimitFile[] {
  const second = 'TIER[1]/ANNOTATION[2]/ALIGNABLE_ANNOTATION';
  const first = 'TIER[1]/ANNOTATION[1]/ALIGNABLE_ANNOTATION';
  return [
    { title: 'eaf: a TIER_ID', name: 'tier.eaf', content: eaf({ tier: LONG_NAME }), refusal: `:10:5 (TIER[1]): ${TIER}`, refusedByConversion: true },
    { title: 'eaf: the value of the second annotation', name: 'value.eaf', content: eaf({ value: HUGE_TEXT }), refusal: `:17:13 (${second}): ${BODY}`, refusedByConversion: true },
    { title: 'eaf: the MEDIA_URL (the asset id)', name: 'media.eaf', content: eaf({ media: LONG_ID }), refusal: `:13:13 (${first}): ${ASSET}`, refusedByConversion: true },
    {
      title: 'eaf: a tier ANNOTATOR (the provenance)',
      name: 'annotator.eaf',
      content: eaf({ annotator: LONG_ID }),
      refusal: `:12:13 (${first}): provenance.was_attributed_to: at most 4096 characters, got ${LONG_ID.length}`,
      refusedByConversion: true,
    },
    { title: 'eaf: a header PROPERTY (metadata)', name: 'property.eaf', content: eaf({ property: HUGE_TEXT }), refusal: ` (ANNOTATION_DOCUMENT): ${META_VALUE('eaf:document')}`, refusedByConversion: false },
  ];
}

function jams(options: { namespace?: string; value?: string; title?: string; annotator?: string; sandbox?: string }): string {
  const document = {
    file_metadata: { title: options.title ?? 'song', duration: 10, identifiers: {} },
    sandbox: options.sandbox === undefined ? {} : { note: options.sandbox },
    annotations: [
      {
        namespace: options.namespace ?? 'tag_open',
        annotation_metadata: options.annotator === undefined ? {} : { annotator: { name: options.annotator } },
        data: [
          { time: 1, duration: 1, value: 'hello', confidence: null },
          { time: 2, duration: 1, value: options.value ?? 'there', confidence: null },
        ],
        sandbox: {},
        time: 0,
        duration: 10,
      },
    ],
  };
  return JSON.stringify(document);
}

function jamses(): OverLimitFile[] {
  return [
    { title: 'jams: a namespace (the tier name)', name: 'tier.jams', content: jams({ namespace: LONG_NAME }), refusal: ` ($.annotations[0]): ${TIER}`, refusedByConversion: true },
    { title: 'jams: the value of the second observation', name: 'value.jams', content: jams({ value: HUGE_TEXT }), refusal: ` ($.annotations[0].data[1]): ${BODY}`, refusedByConversion: true },
    { title: 'jams: the title (the asset id)', name: 'title.jams', content: jams({ title: LONG_ID }), refusal: ` ($.file_metadata): reference.asset_id: an asset id of at most 4096 characters, got ${LONG_ID.length + 11}`, refusedByConversion: true },
    {
      title: 'jams: an annotator (the provenance)',
      name: 'annotator.jams',
      content: jams({ annotator: LONG_ID }),
      refusal: ` ($.annotations[0].annotation_metadata): provenance.was_attributed_to: at most 4096 characters, got ${LONG_ID.length}`,
      refusedByConversion: true,
    },
    { title: 'jams: the sandbox (metadata)', name: 'sandbox.jams', content: jams({ sandbox: HUGE_TEXT }), refusal: ` ($.sandbox): ${META_VALUE('jams.sandbox')}`, refusedByConversion: false },
  ];
}

function labelStudio(options: { fromName?: string; label?: string; audio?: string }): string {
  const region = (id: string, start: number, label: string) => ({
    id,
    from_name: options.fromName ?? 'label',
    to_name: 'audio',
    type: 'labels',
    value: { start, end: start + 1, labels: [label] },
  });
  return JSON.stringify([{ id: 1, data: { audio: options.audio ?? 'song.mp3' }, annotations: [{ id: 10, result: [region('r1', 1, 'hello'), region('r2', 3, options.label ?? 'there')] }] }]);
}

function labelStudios(): OverLimitFile[] {
  const second = '$[0].annotations[0].result[1]';
  return [
    { title: 'label_studio: a from_name (the tier name)', name: 'tier.labelstudio.json', content: labelStudio({ fromName: LONG_NAME }), refusal: ` ($[0].annotations[0].result[0]): ${TIER}`, refusedByConversion: true },
    { title: 'label_studio: the label of the second region', name: 'label.labelstudio.json', content: labelStudio({ label: HUGE_TEXT }), refusal: ` (${second}): ${BODY}`, refusedByConversion: true },
    { title: 'label_studio: the audio (the asset id)', name: 'audio.labelstudio.json', content: labelStudio({ audio: LONG_ID }), refusal: ` ($[0].annotations[0].result[0]): ${ASSET}`, refusedByConversion: true },
  ];
}

function webAnnotation(options: { value?: string; source?: string; creator?: string }): string {
  const annotation = (id: string, t: string, value: string) => ({
    '@context': 'http://www.w3.org/ns/anno.jsonld',
    id,
    type: 'Annotation',
    ...(options.creator === undefined ? {} : { creator: options.creator }),
    body: { type: 'TextualBody', value },
    target: { source: options.source ?? 'http://example.org/song.mp3', selector: { type: 'FragmentSelector', value: t } },
  });
  return JSON.stringify([annotation('urn:uuid:0b9a8f7e-1d2c-4b3a-8e9f-0a1b2c3d4e51', 't=1,2', 'hello'), annotation('urn:uuid:0b9a8f7e-1d2c-4b3a-8e9f-0a1b2c3d4e52', 't=3,4', options.value ?? 'there')]);
}

function webAnnotations(): OverLimitFile[] {
  return [
    { title: 'web_annotation: the body of the second annotation', name: 'value.wa.json', content: webAnnotation({ value: HUGE_TEXT }), refusal: ` ($[1]): ${BODY}`, refusedByConversion: true },
    { title: 'web_annotation: the target source (the asset id)', name: 'source.wa.json', content: webAnnotation({ source: `http://example.org/${LONG_ID}` }), refusal: ` ($[0]): reference.asset_id: an asset id of at most 4096 characters, got ${LONG_ID.length + 19}`, refusedByConversion: true },
    { title: 'web_annotation: the creator (the provenance)', name: 'creator.wa.json', content: webAnnotation({ creator: LONG_ID }), refusal: ` ($[0]): provenance.was_attributed_to: at most 4096 characters, got ${LONG_ID.length}`, refusedByConversion: true },
  ];
}

function otio(options: { track?: string; clip?: string; url?: string; metadata?: string }): string {
  const time = (value: number) => ({ OTIO_SCHEMA: 'RationalTime.1', rate: 24, value });
  const clip = (name: string) => ({
    OTIO_SCHEMA: 'Clip.2',
    name,
    metadata: {},
    source_range: { OTIO_SCHEMA: 'TimeRange.1', start_time: time(0), duration: time(24) },
    media_references: { DEFAULT_MEDIA: { OTIO_SCHEMA: 'ExternalReference.1', target_url: options.url ?? 'file:///song.wav', metadata: {} } },
    active_media_reference_key: 'DEFAULT_MEDIA',
    effects: [],
    markers: [],
    enabled: true,
  });
  return JSON.stringify({
    OTIO_SCHEMA: 'Timeline.1',
    name: 'timeline',
    metadata: options.metadata === undefined ? {} : { note: options.metadata },
    tracks: {
      OTIO_SCHEMA: 'Stack.1',
      name: 'tracks',
      metadata: {},
      children: [{ OTIO_SCHEMA: 'Track.1', kind: 'Video', name: options.track ?? 'V1', metadata: {}, children: [clip('hello'), clip(options.clip ?? 'there')], markers: [], effects: [], enabled: true }],
      markers: [],
      effects: [],
      enabled: true,
    },
  });
}

function otios(): OverLimitFile[] {
  return [
    { title: 'otio: a track name (the tier name)', name: 'track.otio', content: otio({ track: LONG_NAME }), refusal: ` ($.tracks.children[0]): ${TIER}`, refusedByConversion: true },
    { title: 'otio: the name of the second clip (its body)', name: 'clip.otio', content: otio({ clip: HUGE_TEXT }), refusal: ` ($.tracks.children[0].children[1]): ${BODY}`, refusedByConversion: true },
    { title: 'otio: a target_url (the asset id)', name: 'url.otio', content: otio({ url: `file:///${LONG_ID}` }), refusal: ` ($.tracks.children[0].children[0]): reference.asset_id: an asset id of at most 4096 characters`, refusedByConversion: true },
    { title: 'otio: the timeline metadata (metadata)', name: 'metadata.otio', content: otio({ metadata: HUGE_TEXT }), refusal: ` ($): ${META_VALUE('otio:timeline')}`, refusedByConversion: false },
  ];
}

/** Every case, by format. */
export function overLimitFiles(): OverLimitFile[] {
  return [...vtt(), ...subtitles(), ...textGrids(), ...ttmls(), ...eafs(), ...jamses(), ...labelStudios(), ...webAnnotations(), ...otios()];
}

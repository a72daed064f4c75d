import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { LoadOptions } from '../../src/adapters/adapter.js';
import { eafCodec } from '../../src/adapters/eaf/codec.js';
import { EAF_DOCUMENT_META, type DocumentParts } from '../../src/adapters/eaf/eaf-model.js';
import { asEaf30 } from '../../src/adapters/eaf/eaf-write-version.js';
import { eafFormat } from '../../src/adapters/eaf/format.js';
import { FormatParseError } from '../../src/adapters/errors.js';
import { loadIntoStore } from '../../src/adapters/load-into-store.js';
import { annotationRef, makeAnnotation, mediaRef, type Annotation } from '../../src/model/annotation.js';
import { makeTier, type Tier } from '../../src/model/tier.js';
import { validateBody } from '../../src/schemas/registry.js';
import type { AnnotationStore } from '../../src/store/store.js';
import { MemoryStore } from '../../src/store/memory.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { loadOptions, loadWith } from './codec-harness.js';

const FIXTURES = new URL('../../fixtures/eaf/', import.meta.url).pathname;
const CORPUS = new URL('../../fixtures/corpus/eaf/', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'annot-eaf-'));

const options = (extra: Partial<LoadOptions> = {}): LoadOptions => loadOptions({ sourceName: 'in.eaf', ...extra });

const load = (path: string, extra: Partial<LoadOptions> = {}) => loadWith(eafCodec, path, extra);


function loadText(text: string, name = 'case.eaf') {
  const path = join(work, name);
  writeFileSync(path, text);
  return load(path, { sourceName: name });
}

/** What EAF keeps of an annotation: tier, time, asset, body, and the ELAN id of what it refers to. */
function kept(annotations: readonly Annotation[]) {
  const eafId = new Map(annotations.map((annotation) => [annotation.id, annotation.body.annotation_id]));
  return annotations.map((annotation) => ({
    tier: annotation.tier,
    interval: annotation.reference.kind === 'media' ? annotation.reference.interval.valueKey() : null,
    asset: annotation.reference.kind === 'media' ? annotation.reference.asset_id : null,
    target: annotation.reference.kind === 'annotation' ? eafId.get(annotation.reference.target_id) : null,
    body: annotation.body,
  }));
}

function tierView(tiers: readonly Tier[]) {
  return tiers.map((tier) => ({ name: tier.name, stereotype: tier.stereotype, parent: tier.parent, metadata: tier.metadata }));
}

async function dump(store: AnnotationStore, name = 'out.eaf') {
  const target = join(work, name);
  const report = await eafCodec.dump(store, target, { targetName: target, warn: () => undefined });
  return { target, report, text: readFileSync(target, 'utf8') };
}

function byEafId(annotations: readonly Annotation[], id: string): Annotation {
  const found = annotations.find((annotation) => annotation.body.annotation_id === id);
  if (!found) throw new Error(`no annotation ${id}`);
  return found;
}

describe('the eaf format descriptor', () => {
  it('sniffs an ELAN document and not other XML', () => {
    expect(eafFormat.sniff(readFileSync(join(FIXTURES, 'all-stereotypes.eaf')))).toBe(true);
    expect(eafFormat.sniff(Buffer.from('<?xml version="1.0"?><TextGrid/>'))).toBe(false);
    expect(eafFormat.extensions).toEqual(['.eaf']);
    expect(eafFormat.bodySchemas).toEqual(['annot://schema/eaf-annotation/v1']);
  });
});

describe('loading an EAF document', () => {
  it('maps the four constraints to stereotypes, with parents, participants, annotators and vocabularies in tier metadata', async () => {
    const { store } = await load(join(FIXTURES, 'all-stereotypes.eaf'));
    const tiers = await store.listTiers();
    const byName = new Map(tiers.map((tier) => [tier.name, tier]));
    expect(byName.get('A-utt')).toMatchObject({ stereotype: 'NONE', parent: null, metadata: { linguistic_type: 'utterance', participant: 'Speaker A', annotator: 'Ann', default_locale: 'en', lang_ref: 'eng' } });
    expect(byName.get('A-words')).toMatchObject({ stereotype: 'TIME_SUBDIVISION', parent: 'A-utt' });
    expect(byName.get('A-gesture')).toMatchObject({ stereotype: 'INCLUDED_IN', parent: 'A-utt', metadata: { controlled_vocabulary: 'gestures' } });
    expect(byName.get('A-morph')).toMatchObject({ stereotype: 'SYMBOLIC_SUBDIVISION', parent: 'A-words' });
    expect(byName.get('A-translation')).toMatchObject({ stereotype: 'SYMBOLIC_ASSOCIATION', parent: 'A-utt' });
    expect(byName.get('empty')).toMatchObject({ stereotype: 'NONE' });
  });

  it('reads time-aligned annotations exactly at rate 1000 on the first media url, with entities and CDATA decoded', async () => {
    const { annotations } = await load(join(FIXTURES, 'all-stereotypes.eaf'));
    const first = byEafId(annotations, 'a1');
    expect(first.reference).toEqual(mediaRef('file:///media/session.wav', new TimeInterval(new RationalTime(0, 1000), new RationalTime(1500, 1000))));
    expect(first.body).toEqual({ text: 'the cat & the dog', speaker: 'Speaker A', annotation_id: 'a1', time_slots: ['ts1', 'ts4'] });
    expect(byEafId(annotations, 'a2').body).toEqual({ text: '<laughs>', speaker: 'Speaker A', annotation_id: 'a2', ext_ref: 'er1' });
    expect(byEafId(annotations, 'a6').body).toEqual({ text: 'point', annotation_id: 'a6', cve_ref: 'cve_point' });
    expect(byEafId(annotations, 'a10').body.text).toBe('the <dog>');
    expect(first.provenance.was_generated_by).toBe('adapter:eaf');
    expect(first.provenance.was_attributed_to).toBe('Ann');
    for (const annotation of annotations) expect(validateBody(annotation.body_schema_uri, annotation.body).errors).toEqual([]);
  });

  it('spreads unaligned slots evenly between the aligned ones around them and remembers they were unaligned', async () => {
    const { annotations } = await load(join(FIXTURES, 'all-stereotypes.eaf'));
    const seconds = (id: string) => {
      const reference = byEafId(annotations, id).reference;
      return reference.kind === 'media' ? [reference.interval.start.toSecondsString(), reference.interval.end.toSecondsString()] : null;
    };
    expect(seconds('a3')).toEqual(['0', '0.5']);
    expect(seconds('a4')).toEqual(['0.5', '1']);
    expect(seconds('a5')).toEqual(['1', '1.5']);
    expect(byEafId(annotations, 'a4').body).toMatchObject({ time_slots: ['ts2', 'ts3'], unaligned: { start: 500, end: 1000 } });
    expect(byEafId(annotations, 'a3').body).toMatchObject({ unaligned: { end: 500 } });
  });

  it('keeps REF_ANNOTATIONs as references to their parent annotation, in PREVIOUS_ANNOTATION order', async () => {
    const { annotations } = await load(join(FIXTURES, 'all-stereotypes.eaf'));
    const morphs = annotations.filter((annotation) => annotation.tier === 'A-morph');
    expect(morphs.map((annotation) => annotation.body.annotation_id)).toEqual(['a8', 'a9', 'a10']);
    expect(morphs[0].reference).toEqual(annotationRef(byEafId(annotations, 'a3').id));
    expect(morphs[2].reference).toEqual(annotationRef(byEafId(annotations, 'a5').id));
    expect(byEafId(annotations, 'a11')).toMatchObject({ reference: annotationRef(byEafId(annotations, 'a1').id), body: { lang_ref: 'fra' } });
    // parents come before the annotations that refer to them
    const position = new Map(annotations.map((annotation, index) => [annotation.id, index]));
    for (const annotation of annotations) {
      if (annotation.reference.kind === 'annotation') expect(position.get(annotation.reference.target_id)).toBeLessThan(position.get(annotation.id) as number);
    }
  });

  it('keeps the header, vocabularies, languages, locales, licence and external refs in store meta', async () => {
    const { store } = await load(join(FIXTURES, 'all-stereotypes.eaf'));
    const parts = JSON.parse((await store.getMeta(EAF_DOCUMENT_META)) as string) as { attributes: Record<string, string>; elements: Array<{ name: string }> };
    expect(parts.attributes.VERSION).toBe('3.0');
    expect(parts.elements.map((element) => element.name)).toEqual([
      'LICENSE', 'HEADER', 'LINGUISTIC_TYPE', 'LINGUISTIC_TYPE', 'LINGUISTIC_TYPE', 'LINGUISTIC_TYPE', 'LINGUISTIC_TYPE', 'LINGUISTIC_TYPE',
      'LOCALE', 'LANGUAGE', 'LANGUAGE', 'CONSTRAINT', 'CONSTRAINT', 'CONSTRAINT', 'CONSTRAINT', 'CONTROLLED_VOCABULARY', 'EXTERNAL_REF',
    ]);
  });

  it('uses the asset id given instead of the media url, and eaf:unspecified when the file names no media', async () => {
    const given = await load(join(FIXTURES, 'all-stereotypes.eaf'), { assetId: 'sha256:abc' });
    expect(given.annotations[0].reference).toMatchObject({ asset_id: 'sha256:abc' });
    const none = await load(join(FIXTURES, 'old-style-cv.eaf'));
    expect(none.annotations[0].reference).toMatchObject({ asset_id: 'eaf:unspecified' });
  });

  it('honours --rate, quantizing and counting, and --strict-time refuses to', async () => {
    const document = await eafCodec.load(join(FIXTURES, 'old-style-cv.eaf'), options({ rate: 3 }));
    const got: Annotation[] = [];
    for await (const annotation of document.annotations) got.push(annotation);
    expect(got[0].reference).toMatchObject({ interval: new TimeInterval(new RationalTime(0, 3), new RationalTime(2, 3)) });
    expect(document.quantization().count).toBe(2);
    await expect(eafCodec.load(join(FIXTURES, 'old-style-cv.eaf'), options({ rate: 3, strictTime: true }))).rejects.toThrow(/strict-time/);
  });

  it('coerces a constrained tier without an existing parent to an independent tier and remembers what it said', async () => {
    const text = readFileSync(join(FIXTURES, 'all-stereotypes.eaf'), 'utf8').replace('PARENT_REF="A-utt" TIER_ID="A-gesture"', 'PARENT_REF="nowhere" TIER_ID="A-gesture"');
    const { store } = await loadText(text, 'coerced.eaf');
    expect(await store.getTier('A-gesture')).toMatchObject({ stereotype: 'NONE', parent: null, metadata: { stereotype_coerced: true, parent_ref: 'nowhere' } });
    const back = await dump(store, 'coerced-out.eaf');
    expect(back.text).toContain('LINGUISTIC_TYPE_REF="gesture" PARENT_REF="nowhere"');
  });
});

describe('malformed EAF input', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['an unclosed element', '<ANNOTATION_DOCUMENT>\n<HEADER>\n</ANNOTATION_DOCUMENT>', /bad\.eaf:3:1 \(ANNOTATION_DOCUMENT\): expected <\/HEADER> to close <HEADER> \(line 2\), found <\/ANNOTATION_DOCUMENT>/],
    ['a truncated file', '<ANNOTATION_DOCUMENT>\n<TIER TIER_ID="x"', /bad\.eaf:2:\d+.*the end of <TIER>/],
    ['an unknown entity', '<ANNOTATION_DOCUMENT>\n  <LICENSE>&nbsp;</LICENSE></ANNOTATION_DOCUMENT>', /bad\.eaf:2:\d+.*entities/],
    ['another root', '<?xml version="1.0"?>\n<TextGrid/>', /bad\.eaf:2:1 \(TextGrid\): expected an ELAN document/],
    ['a slot reference to nothing', '<ANNOTATION_DOCUMENT><TIME_ORDER/>\n<TIER TIER_ID="t" LINGUISTIC_TYPE_REF="x"><ANNOTATION>\n  <ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" TIME_SLOT_REF1="ts1" TIME_SLOT_REF2="ts2"/></ANNOTATION></TIER></ANNOTATION_DOCUMENT>', /bad\.eaf:3:3 \(TIER\[1\]\/ANNOTATION\[1\]\/ALIGNABLE_ANNOTATION\): expected TIME_SLOT_REF1 naming a TIME_SLOT/],
    ['a non-numeric TIME_VALUE', '<ANNOTATION_DOCUMENT><TIME_ORDER>\n<TIME_SLOT TIME_SLOT_ID="ts1" TIME_VALUE="soon"/></TIME_ORDER></ANNOTATION_DOCUMENT>', /bad\.eaf:2:1 .*TIME_VALUE in milliseconds/],
    ['an end before the start', '<ANNOTATION_DOCUMENT><TIME_ORDER><TIME_SLOT TIME_SLOT_ID="ts1" TIME_VALUE="9"/><TIME_SLOT TIME_SLOT_ID="ts2" TIME_VALUE="1"/></TIME_ORDER>\n<TIER TIER_ID="t"><ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" TIME_SLOT_REF1="ts1" TIME_SLOT_REF2="ts2"/></ANNOTATION></TIER></ANNOTATION_DOCUMENT>', /not before the start/],
  ];
  it.each(cases)('rejects %s with a FormatParseError naming the file, line, column and element', async (_what, text, message) => {
    const attempt = loadText(text, 'bad.eaf');
    await expect(attempt).rejects.toBeInstanceOf(FormatParseError);
    await expect(attempt).rejects.toThrow(message);
  });
});

describe('reading EAF as it is scanned', () => {
  // The reader takes time slots and annotations from the scanner one by one instead of from a tree;
  // what a walk of the whole tree gave must not depend on where things are in the file.
  const document = (timeOrderFirst: boolean, slotRef = 'ts2') => {
    const timeOrder = '<TIME_ORDER><TIME_SLOT TIME_SLOT_ID="ts1" TIME_VALUE="100"/><TIME_SLOT TIME_SLOT_ID="ts2"/><TIME_SLOT TIME_SLOT_ID="ts3" TIME_VALUE="900"/></TIME_ORDER>\n';
    const tier =
      '<TIER TIER_ID="words" LINGUISTIC_TYPE_REF="w">\n' +
      `<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" TIME_SLOT_REF1="ts1" TIME_SLOT_REF2="${slotRef}"><ANNOTATION_VALUE>a value longer than thirteen characters</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>\n` +
      '<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a2" TIME_SLOT_REF1="ts2" TIME_SLOT_REF2="ts3"><ANNOTATION_VALUE>two</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>\n</TIER>\n';
    return `<ANNOTATION_DOCUMENT>\n${timeOrderFirst ? timeOrder + tier : tier + timeOrder}<LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="w"/></ANNOTATION_DOCUMENT>\n`;
  };

  it('reads a TIME_ORDER written after the tiers that use it as one written before them', async () => {
    const before = await loadText(document(true), 'before.eaf');
    const after = await loadText(document(false), 'after.eaf');
    expect(kept(after.annotations)).toEqual(kept(before.annotations));
    const seconds = (annotation: Annotation) => (annotation.reference.kind === 'media' ? [annotation.reference.interval.start.toSeconds(), annotation.reference.interval.end.toSeconds()] : null);
    expect(before.annotations.map((annotation) => [annotation.body.text, seconds(annotation), annotation.body.unaligned])).toEqual([
      ['a value longer than thirteen characters', [0.1, 0.5], { end: 500 }],
      ['two', [0.5, 0.9], { start: 500 }],
    ]);
  });

  it('names a slot that no TIME_ORDER of the file defines, wherever the TIME_ORDER is', async () => {
    for (const [first, name] of [[true, 'missing-before.eaf'], [false, 'missing-after.eaf']] as const) {
      await expect(loadText(document(first, 'ts9'), name)).rejects.toThrow(/:\d+:13 \(TIER\[1\]\/ANNOTATION\[1\]\/ALIGNABLE_ANNOTATION\): expected TIME_SLOT_REF2 naming a TIME_SLOT of the TIME_ORDER; "ts9" is not one/);
    }
  });

  it('reports a syntax error anywhere in the file before a broken annotation earlier in it', async () => {
    const text = document(true, 'ts9').replace('</ANNOTATION_DOCUMENT>', '<LICENSE>&nbsp;</LICENSE></ANNOTATION_DOCUMENT>');
    await expect(loadText(text, 'late-syntax.eaf')).rejects.toThrow(/entities/);
  });
});

describe('dumping EAF', () => {
  it('writes a valid-shaped EAF 3.0 document with declaration, namespace, generated slots and linguistic types', async () => {
    const store = new MemoryStore();
    await store.addTier(makeTier({ name: 'words' }));
    await store.addTier(makeTier({ name: 'gloss', stereotype: 'SYMBOLIC_ASSOCIATION', parent: 'words' }));
    const word = makeAnnotation({ tier: 'words', reference: mediaRef('clip.wav', TimeInterval.fromSeconds('0.5', '1.25', 1000)), body: { text: 'hello' }, body_schema_uri: 'annot://schema/label/v1', provenance: { was_generated_by: 'x', generated_at_time: RationalTime.now(1000) }, confidence: 0.5 });
    await store.addMany([word, makeAnnotation({ tier: 'gloss', reference: annotationRef(word.id), body: { text: 'salut' }, body_schema_uri: 'annot://schema/label/v1', provenance: { was_generated_by: 'x', generated_at_time: RationalTime.now(1000) } })]);
    const { text, report, target } = await dump(store);
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<ANNOTATION_DOCUMENT')).toBe(true);
    expect(text).toContain('xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="http://www.mpi.nl/tools/elan/EAFv3.0.xsd"');
    expect(text).toContain('<MEDIA_DESCRIPTOR MEDIA_URL="clip.wav" MIME_TYPE="audio/x-wav"/>');
    expect(text).toContain('<TIME_SLOT TIME_SLOT_ID="ts1" TIME_VALUE="500"/>');
    expect(text).toContain('<REF_ANNOTATION ANNOTATION_ID="a2" ANNOTATION_REF="a1">');
    expect(text).toContain('CONSTRAINTS="Symbolic_Association"');
    expect(text).toContain('TIME_ALIGNABLE="false"');
    expect(report.dropped).toEqual(expect.arrayContaining([{ what: 'provenance', count: 2 }, { what: 'confidence', count: 1 }]));
    const back = await load(target);
    expect(back.annotations.map((annotation) => annotation.body.text)).toEqual(['hello', 'salut']);
    expect((await back.store.getTier('gloss'))?.stereotype).toBe('SYMBOLIC_ASSOCIATION');
  });

  it('writes unaligned slots back without TIME_VALUE, unless their neighbours no longer give their time', async () => {
    const { store, annotations } = await load(join(FIXTURES, 'all-stereotypes.eaf'));
    const { text } = await dump(store, 'unaligned.eaf');
    expect(text).toContain('<TIME_SLOT TIME_SLOT_ID="ts2"/>');
    expect(text).toContain('<TIME_SLOT TIME_SLOT_ID="ts3"/>');
    const moved = byEafId(annotations, 'a4');
    await store.update(makeAnnotation({ ...moved, reference: mediaRef('file:///media/session.wav', TimeInterval.fromSeconds('0.6', '1', 1000)) }));
    const after = await dump(store, 'moved.eaf');
    // a4 now starts on an aligned slot of its own at 600 ms. Between 0, 600 and 1500, unaligned
    // ts2 and ts3 would read back at 300 and 1050 ms, not 500 and 1000: they are written aligned.
    expect(after.text).toMatch(/<TIME_SLOT TIME_SLOT_ID="ts\d+" TIME_VALUE="600"\/>/);
    expect(after.text).toContain('<TIME_SLOT TIME_SLOT_ID="ts2" TIME_VALUE="500"/>');
    expect(after.text).toContain('<TIME_SLOT TIME_SLOT_ID="ts3" TIME_VALUE="1000"/>');
    expect(after.report.dropped).toContainEqual({ what: 'unaligned time slots whose time the neighbouring slots no longer give (written aligned)', count: 2 });
    const back = await load(after.target);
    expect(byEafId(back.annotations, 'a3').reference).toEqual(mediaRef('file:///media/session.wav', TimeInterval.fromSeconds('0', '0.5', 1000)));
    expect(byEafId(back.annotations, 'a4').reference).toEqual(mediaRef('file:///media/session.wav', TimeInterval.fromSeconds('0.6', '1', 1000)));
  });
});

describe('EAF round trips', () => {
  it('keeps every tier, type, constraint, parent, value, alignment and reference of the hand-written fixtures', async () => {
    for (const name of ['all-stereotypes.eaf', 'old-style-cv.eaf']) {
      const first = await load(join(FIXTURES, name));
      const { target } = await dump(first.store, `rt-${name}`);
      const second = await load(target);
      expect(tierView(await second.store.listTiers())).toEqual(tierView(await first.store.listTiers()));
      expect(kept(second.annotations)).toEqual(kept(first.annotations));
      // The parts come back as they were, written as EAF 3.0 where an older file's were not (eaf-write-version.ts).
      expect(JSON.parse((await second.store.getMeta(EAF_DOCUMENT_META)) as string)).toEqual(asEaf30(JSON.parse((await first.store.getMeta(EAF_DOCUMENT_META)) as string) as DocumentParts));
    }
  });

  it('round-trips random stores through EAF (property)', async () => {
    // eslint-disable-next-line no-control-regex -- XML 1.0 cannot carry these characters
    const text = fc.string({ maxLength: 12 }).filter((value) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/.test(value));
    const span = fc.tuple(fc.integer({ min: 0, max: 100000 }), fc.integer({ min: 0, max: 5000 }));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(span, text, fc.array(text, { maxLength: 3 })), { minLength: 0, maxLength: 8 }), fc.boolean(), async (items, subdivision) => {
        const store = new MemoryStore();
        await store.addTier(makeTier({ name: 'main', metadata: { participant: 'P' } }));
        await store.addTier(makeTier({ name: 'sub', stereotype: subdivision ? 'SYMBOLIC_SUBDIVISION' : 'SYMBOLIC_ASSOCIATION', parent: 'main' }));
        const annotations: Annotation[] = [];
        for (const [[start, length], value, children] of items) {
          const parent = makeAnnotation({ tier: 'main', reference: mediaRef('m.wav', new TimeInterval(new RationalTime(start, 1000), new RationalTime(start + length, 1000))), body: { text: value }, body_schema_uri: 'annot://schema/eaf-annotation/v1', provenance: { was_generated_by: 't', generated_at_time: RationalTime.now(1000) } });
          annotations.push(parent);
          for (const child of subdivision ? children : children.slice(0, 1)) {
            annotations.push(makeAnnotation({ tier: 'sub', reference: annotationRef(parent.id), body: { text: child }, body_schema_uri: 'annot://schema/eaf-annotation/v1', provenance: { was_generated_by: 't', generated_at_time: RationalTime.now(1000) } }));
          }
        }
        await store.addMany(annotations);
        const { target } = await dump(store, 'property.eaf');
        const back = await load(target);
        const strip = (list: readonly Annotation[]) => {
          const parents = list.filter((annotation) => annotation.tier === 'main').map((annotation) => annotation.id);
          return list.map((annotation) => ({
            tier: annotation.tier,
            interval: annotation.reference.kind === 'media' ? annotation.reference.interval.valueKey() : null,
            asset: annotation.reference.kind === 'media' ? annotation.reference.asset_id : null,
            parent: annotation.reference.kind === 'annotation' ? parents.indexOf(annotation.reference.target_id) : null,
            text: annotation.body.text,
          }));
        };
        const sortKey = (list: ReturnType<typeof strip>) => list.map((item) => JSON.stringify(item)).sort();
        expect(sortKey(strip(back.annotations))).toEqual(sortKey(strip(annotations)));
        // the order of children of one parent is kept
        const childOrder = (list: readonly Annotation[]) => list.filter((annotation) => annotation.tier === 'sub').map((annotation) => annotation.body.text);
        expect(childOrder(back.annotations)).toEqual(childOrder(annotations));
        expect((await back.store.getTier('main'))?.metadata).toMatchObject({ participant: 'P' });
      }),
      { numRuns: 40 },
    );
  });
});

/**
 * Every corpus file loads, goes into a .annot file, comes back out as EAF and loads again with
 * the same tiers, annotations and document parts. None of them is invalid, so no file is expected
 * to be rejected. (GPL files are read here, never copied into fixtures/.)
 */
const corpusFiles = readdirSync(CORPUS).filter((name) => name.endsWith('.eaf'));
describe('the EAF corpus', () => {
  it.each(corpusFiles.length > 0 ? corpusFiles : ['none'])('%s round-trips through .annot and back to EAF', async (name) => {
    const first = await load(join(CORPUS, name));
    for (const annotation of first.annotations) expect(validateBody(annotation.body_schema_uri, annotation.body).errors).toEqual([]);
    const annotPath = join(work, `${name}.annot`);
    const sqlite = await SqliteStore.open(annotPath);
    try {
      await loadIntoStore({ tiers: await first.store.listTiers(), meta: await first.store.listMeta(), annotations: first.store.all(), quantization: () => ({ count: 0, maxErrorSeconds: 0 }) }, sqlite);
      const { target } = await dump(sqlite, `corpus-${name}`);
      const second = await load(target);
      expect(tierView(await second.store.listTiers())).toEqual(tierView(await first.store.listTiers()));
      expect(kept(second.annotations)).toEqual(kept(first.annotations));
      // The parts come back as they were, written as EAF 3.0 where an older file's were not (eaf-write-version.ts).
      expect(JSON.parse((await second.store.getMeta(EAF_DOCUMENT_META)) as string)).toEqual(asEaf30(JSON.parse((await first.store.getMeta(EAF_DOCUMENT_META)) as string) as DocumentParts));
      expect(first.document.quantization().count).toBe(0);
    } finally {
      await sqlite.close();
    }
  }, 60000);
});

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eafCodec } from '../../src/adapters/eaf/codec.js';
import { FormatParseError } from '../../src/adapters/errors.js';
import { jamsCodec } from '../../src/adapters/jams/codec.js';
import { otioCodec } from '../../src/adapters/otio/codec.js';
import { textgridCodec } from '../../src/adapters/textgrid/codec.js';
import { makeAnnotation, mediaRef, type Annotation } from '../../src/model/annotation.js';
import { makeTier } from '../../src/model/tier.js';
import { validateBody } from '../../src/schemas/registry.js';
import { MemoryStore } from '../../src/store/memory.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { loadWith } from './codec-harness.js';

const FIXTURES = new URL('../../fixtures/', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'annot-fidelity-'));
const provenance = { was_generated_by: 'test', generated_at_time: new RationalTime(0, 1000) };
const dumpOptions = (target: string) => ({ targetName: target, warn: () => undefined });
const frames = (annotation: Annotation, rate = 24): [number, number] => {
  const interval = (annotation.reference as { interval: TimeInterval }).interval;
  return [(interval.start.v / interval.start.r) * rate, (interval.end.v / interval.end.r) * rate];
};

describe('OTIO', () => {
  it("honours a track's own source_range: multiple_track.otio's third track is trimmed by -7 frames", async () => {
    const { annotations } = await loadWith(otioCodec, join(FIXTURES, 'otio/otio_multiple_track.otio'));
    const byName = new Map(annotations.map((annotation) => [annotation.body.name as string, annotation]));
    // As OTIO's range_of_child_at_index / trimmed_range_in_parent give them.
    expect(frames(byName.get('Clip-005') as Annotation)).toEqual([7, 16]);
    expect(frames(byName.get('Clip-003') as Annotation)).toEqual([7, 16]);
    expect(frames(byName.get('Clip-001') as Annotation)).toEqual([0, 3]);
    expect(frames(byName.get('Clip-004') as Annotation)).toEqual([13, 19]);
  });

  it('writes the trimmed track back with its trim, and reads the same times again', async () => {
    const { store } = await loadWith(otioCodec, join(FIXTURES, 'otio/otio_multiple_track.otio'));
    const target = join(work, 'multiple_track.otio');
    await otioCodec.dump(store, target, dumpOptions(target));
    const written = JSON.parse(readFileSync(target, 'utf8')) as { tracks: { children: Array<{ source_range: { start_time: { value: number } } | null }> } };
    expect(written.tracks.children[2].source_range?.start_time.value).toBe(-7);
    const again = await loadWith(otioCodec, target);
    expect(frames(again.annotations.find((annotation) => annotation.body.name === 'Clip-005') as Annotation)).toEqual([7, 16]);
  });

  it("cuts a track at the end of its own source_range, as OTIO's track_trimmed_to_range does", async () => {
    // fixtures/otio/track-end-trim.otio, by hand: track "trimmed" has source_range start 2, duration
    // 10 (frames at 24), so it shows its local frames 2-12 at 0-10. Its children sit at local
    // A 0-5, gap 5-7, B 7-11, C 11-17, a transition on the cut at 17, D 17-20 (with a marker).
    // Minus 2: A -2-3 is cut to 0-3 (source 10 becomes 12, 3 frames), B 5-9 stays, C 9-15 is cut
    // to 9-10 (source 50, 1 frame), and the transition (14-16) and D (15-18) lie wholly past the end.
    const path = join(FIXTURES, 'otio/track-end-trim.otio');
    const { annotations, warnings } = await loadWith(otioCodec, path);
    const trimmed = annotations.filter((annotation) => annotation.tier === 'trimmed');
    expect(trimmed.map((annotation) => [annotation.body.kind, annotation.body.name, ...frames(annotation)])).toEqual([
      ['clip', 'A', 0, 3],
      ['clip', 'B', 5, 9],
      ['clip', 'C', 9, 10],
    ]);
    const sourceRange = (name: string) => {
      const range = trimmed.find((annotation) => annotation.body.name === name)?.body.source_range as { start_time: { value: number; rate: number }; duration: { value: number; rate: number } };
      return [range.start_time.value, range.duration.value, range.start_time.rate];
    };
    expect(sourceRange('A')).toEqual([12, 3, 24]);
    expect(sourceRange('B')).toEqual([30, 4, 24]);
    expect(sourceRange('C')).toEqual([50, 1, 24]);
    expect(annotations.some((annotation) => annotation.body.kind === 'marker' || annotation.body.kind === 'transition')).toBe(false);
    // The untrimmed track beside it is laid out whole.
    expect(annotations.filter((annotation) => annotation.tier === 'untrimmed').map((annotation) => frames(annotation))).toEqual([[0, 20]]);
    expect(warnings).toEqual([expect.stringMatching(/\(\$\.tracks\.children\[0\]\.source_range\): warning: track "trimmed" is trimmed by its source_range: 2 item\(s\) wholly outside it left out, 2 cut to it.*\[otio_track_trimmed\]$/)]);

    const { store } = await loadWith(otioCodec, path);
    const target = join(work, 'track-end-trim.otio');
    await otioCodec.dump(store, target, dumpOptions(target));
    const again = await loadWith(otioCodec, target);
    expect(again.annotations.filter((annotation) => annotation.tier === 'trimmed').map((annotation) => [annotation.body.name, ...frames(annotation)])).toEqual([
      ['A', 0, 3],
      ['B', 5, 9],
      ['C', 9, 10],
    ]);
    expect(again.warnings).toEqual([]);
  });

  it('refuses an .otio file that holds no timeline, only a bare SerializableObject', async () => {
    const path = join(work, 'bare.otio');
    writeFileSync(path, '{\n    "OTIO_SCHEMA": "SerializableObject.1",\n    "metadata": {},\n    "name": ""\n}\n');
    await expect(loadWith(otioCodec, path, { sourceName: 'bare.otio' })).rejects.toThrow(FormatParseError);
    await expect(loadWith(otioCodec, path, { sourceName: 'bare.otio' })).rejects.toThrow(/^bare\.otio \(\$\.OTIO_SCHEMA\): an OTIO timeline .*a bare SerializableObject\.1/);
  });
});

describe('JAMS labels in text-only formats', () => {
  const source = join(FIXTURES, 'jams/mirdata_filosax_backing_01.jams');

  it('writes chord and segment values as EAF annotation values', async () => {
    const { store } = await loadWith(jamsCodec, source);
    const target = join(work, 'filosax.eaf');
    const report = await eafCodec.dump(store, target, dumpOptions(target));
    const xml = readFileSync(target, 'utf8');
    expect(xml).toContain('<ANNOTATION_VALUE>C#:7(b9)</ANNOTATION_VALUE>');
    expect(xml).toContain('<ANNOTATION_VALUE>C:7(b9)</ANNOTATION_VALUE>');
    expect(xml).toContain('<ANNOTATION_VALUE>head</ANNOTATION_VALUE>');
    expect(report.dropped.map((entry) => entry.what).join('\n')).not.toMatch(/body fields/);
    const { annotations } = await loadWith(eafCodec, target);
    expect(annotations.filter((annotation) => annotation.tier === 'chord').map((annotation) => annotation.body.text)).toEqual(['C#:7(b9)', 'C#:7(b9)', 'C:7(b9)']);
  });

  it('writes them as TextGrid labels', async () => {
    const { store } = await loadWith(jamsCodec, source);
    const target = join(work, 'filosax.TextGrid');
    await textgridCodec.dump(store, target, dumpOptions(target));
    const { annotations } = await loadWith(textgridCodec, target);
    const segments = annotations.filter((annotation) => annotation.tier === 'segment_open' && annotation.body.text !== '');
    expect(segments.map((annotation) => annotation.body.text)).toEqual(['improvised solo', 'head', 'written solo', 'improvised solo']);
    expect(annotations.filter((annotation) => annotation.tier === 'beat' && annotation.body.text !== '').map((annotation) => annotation.body.text)).toEqual(['1', '1', '1', '1']);
  });
});

describe('symbolic tiers to TextGrid', () => {
  it("keeps all 8,778 annotations of pympi's sample_3.0.eaf, with times from their parents", async () => {
    const { store, annotations } = await loadWith(eafCodec, join(FIXTURES, 'eaf/pympi_sample_3.0.eaf'));
    expect(annotations).toHaveLength(8778);
    const target = join(work, 'sample_3.0.TextGrid');
    const report = await textgridCodec.dump(store, target, dumpOptions(target));
    expect(report.dropped.map((entry) => entry.what).join('\n')).not.toMatch(/symbolic/);
    const back = await loadWith(textgridCodec, target);
    const labelled = (list: Annotation[]) => list.filter((annotation) => annotation.body.text !== '').length;
    expect(labelled(back.annotations)).toBe(labelled(annotations));
  });

  it('divides a parent equally among SYMBOLIC_SUBDIVISION children and gives SYMBOLIC_ASSOCIATION children the whole interval', async () => {
    const store = new MemoryStore();
    await store.addTier(makeTier({ name: 'words' }));
    await store.addTier(makeTier({ name: 'morphs', stereotype: 'SYMBOLIC_SUBDIVISION', parent: 'words' }));
    await store.addTier(makeTier({ name: 'gloss', stereotype: 'SYMBOLIC_ASSOCIATION', parent: 'morphs' }));
    const word = makeAnnotation({ tier: 'words', reference: mediaRef('a', new TimeInterval(new RationalTime(1000, 1000), new RationalTime(2000, 1000))), body: { text: 'houses' }, body_schema_uri: 'annot://schema/label/v1', provenance });
    const morphs = ['house', 's', '!'].map((text) => makeAnnotation({ tier: 'morphs', reference: { kind: 'annotation', target_id: word.id }, body: { text }, body_schema_uri: 'annot://schema/label/v1', provenance }));
    const gloss = makeAnnotation({ tier: 'gloss', reference: { kind: 'annotation', target_id: morphs[1].id }, body: { text: 'PL' }, body_schema_uri: 'annot://schema/label/v1', provenance });
    await store.addMany([word, ...morphs, gloss]);
    const target = join(work, 'symbolic.TextGrid');
    const report = await textgridCodec.dump(store, target, dumpOptions(target));
    expect(report.dropped.find((entry) => /symbolic/.test(entry.what))).toBeUndefined();
    const { annotations } = await loadWith(textgridCodec, target);
    const timesOf = (tier: string) =>
      annotations.filter((annotation) => annotation.tier === tier && annotation.body.text !== '').map((annotation) => [annotation.body.text, ...frames(annotation, 1000)]);
    expect(timesOf('morphs')).toEqual([['house', 1000, 1333], ['s', 1333, 1667], ['!', 1667, 2000]]);
    expect(timesOf('gloss')).toEqual([['PL', 1333, 1667]]);
  });
});

describe('EAF speakers', () => {
  it('puts each body.speaker on a tier of its own with PARTICIPANT, and reads it back as body.speaker', async () => {
    const store = new MemoryStore();
    await store.addTier(makeTier({ name: 'cues' }));
    const cue = (ms: number, text: string, speaker?: string) =>
      makeAnnotation({ tier: 'cues', reference: mediaRef('a', new TimeInterval(new RationalTime(ms, 1000), new RationalTime(ms + 500, 1000))), body: speaker ? { text, speaker } : { text }, body_schema_uri: 'annot://schema/word/v1', provenance });
    await store.addMany([cue(0, 'Hello', 'Mara'), cue(1000, 'Hi', 'Joe'), cue(2000, 'Who?'), cue(3000, 'Me', 'Mara')]);
    const target = join(work, 'speakers.eaf');
    const report = await eafCodec.dump(store, target, dumpOptions(target));
    expect(report.dropped.map((entry) => entry.what).join('\n')).not.toMatch(/body fields/);
    const xml = readFileSync(target, 'utf8');
    expect(xml).toMatch(/<TIER TIER_ID="cues \(Mara\)"[^>]* PARTICIPANT="Mara"/);
    expect(xml).toMatch(/<TIER TIER_ID="cues \(Joe\)"[^>]* PARTICIPANT="Joe"/);
    const { annotations } = await loadWith(eafCodec, target);
    const said = annotations.map((annotation) => [annotation.body.text, annotation.body.speaker ?? null]).sort();
    expect(said).toEqual([['Hello', 'Mara'], ['Hi', 'Joe'], ['Me', 'Mara'], ['Who?', null]]);
    expect(annotations.every((annotation) => validateBody(annotation.body_schema_uri, annotation.body).valid)).toBe(true);
  });

  it('a tier of one speaker keeps its name and takes the speaker as PARTICIPANT', async () => {
    const store = new MemoryStore();
    await store.addTier(makeTier({ name: 'mara' }));
    await store.add(makeAnnotation({ tier: 'mara', reference: mediaRef('a', new TimeInterval(new RationalTime(0, 1000), new RationalTime(500, 1000))), body: { text: 'Hello', speaker: 'Mara' }, body_schema_uri: 'annot://schema/word/v1', provenance }));
    const target = join(work, 'one-speaker.eaf');
    await eafCodec.dump(store, target, dumpOptions(target));
    expect(readFileSync(target, 'utf8')).toMatch(/<TIER TIER_ID="mara"[^>]* PARTICIPANT="Mara"/);
  });
});

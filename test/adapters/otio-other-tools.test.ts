import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FormatParseError } from '../../src/adapters/errors.js';
import { otioCodec } from '../../src/adapters/otio/codec.js';
import type { Annotation } from '../../src/model/annotation.js';
import type { TimeInterval } from '../../src/time/time-interval.js';
import { loadWith } from './codec-harness.js';

/**
 * OpenTimelineIO's own sample files (fixtures/otio and fixtures/corpus/otio, Apache-2.0, see
 * fixtures/SOURCES.md), asserted as OTIO's tests and algorithms place their items:
 * - transition_test.otio: test_composition.py's test_track_range_of_all_children (the first clip
 *   at 0, the second at the first's duration) and test_neighbors_of (the track is
 *   [t, clip, t, clip, clip, t]); a transition spans in_offset before its cut to out_offset after,
 *   as range_of_child_at_index gives it;
 * - multitrack.otio and preflattened.otio: test_stack_algo.py's test_flatten_example_code
 *   (flatten_stack of multitrack's tracks is preflattened's track);
 * - nested_example.otio: nested stacks and a nested track, trimmed by their source_range;
 * - transition.otio (OTIO's "Figure 2 - Transitions"), premiere_example.otio and
 *   screening_example.otio: gaps, a clip without source_range, markers on the stack and on
 *   clips (at the clip's place plus the marker's offset in the clip's media, OTIO's transformed_time),
 *   and a track trimmed by -86243 frames.
 * Times are computed by hand from the files, in frames.
 */
const FIXTURES = new URL('../../fixtures/otio/', import.meta.url).pathname;
const CORPUS = new URL('../../fixtures/corpus/otio/', import.meta.url).pathname;
let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'annot-otio-others-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const frames = (annotation: Annotation, rate: number): [number, number] => {
  const { start, end } = (annotation.reference as { interval: TimeInterval }).interval;
  return [(start.v * rate) / start.r, (end.v * rate) / end.r];
};
const laid = (annotations: Annotation[], tier: string, rate: number): Array<[unknown, unknown, number, number]> =>
  annotations.filter((a) => a.tier === tier).map((a) => [a.body.kind, a.body.name, ...frames(a, rate)]);

describe("OpenTimelineIO's sample files", () => {
  it('transition_test.otio: [t, clip, t, clip, clip, t], clips end to end from 0, transitions around their cuts', async () => {
    const { annotations, warnings } = await loadWith(otioCodec, join(FIXTURES, 'otio_transition_test.otio'));
    expect(laid(annotations, 'Sequence1', 24)).toEqual([
      ['transition', 't0', -10, 10],
      ['clip', 'A', 0, 50],
      ['transition', 't1', 40, 60],
      ['clip', 'B', 50, 100],
      ['clip', 'C', 100, 150],
      ['transition', 't3', 140, 160],
    ]);
    expect(warnings).toEqual([]);
  });

  it('transition.otio (Figure 2): a transition over a cut between trimmed clips, and a clip timed by its media\'s available_range', async () => {
    const { annotations } = await loadWith(otioCodec, join(FIXTURES, 'otio_transition.otio'));
    expect(laid(annotations, 'untitled', 24)).toEqual([
      ['clip', 'Clip-001', 0, 3],
      ['clip', 'Clip-002', 3, 9],
      ['transition', 'Transition', 7, 12],
      ['clip', 'Clip-003', 9, 13],
      ['clip', 'Clip-004', 13, 19],
    ]);
    expect(annotations.find((a) => a.body.name === 'Clip-004')?.reference).toMatchObject({ asset_id: 'file:///folder/credits.mov' });
  });

  it('multitrack.otio flattened as flatten_stack does gives preflattened.otio (test_flatten_example_code)', async () => {
    const multitrack = await loadWith(otioCodec, join(CORPUS, 'otio_multitrack.otio'));
    const tiers = (await multitrack.store.listTiers()).map((tier) => tier.name);
    expect(tiers).toEqual(['Sequence', 'Sequence 2', 'Sequence 3']);
    // The top track wins wherever it has a clip; gaps let the tracks below show through.
    const clips = multitrack.annotations.filter((a) => a.body.kind === 'clip');
    const cuts = [...new Set(clips.flatMap((a) => frames(a, 24)))].sort((a, b) => a - b);
    const flattened: Array<[unknown, number, number]> = [];
    for (let i = 0; i + 1 < cuts.length; i++) {
      const [from, to] = [cuts[i], cuts[i + 1]];
      const top = [...tiers].reverse().map((tier) => clips.find((a) => a.tier === tier && frames(a, 24)[0] <= from && frames(a, 24)[1] >= to)).find((a) => a !== undefined);
      if (!top) continue;
      const last = flattened[flattened.length - 1];
      if (last && last[0] === top.body.name && last[2] === from) last[2] = to;
      else flattened.push([top.body.name, from, to]);
    }
    const preflattened = await loadWith(otioCodec, join(FIXTURES, 'otio_preflattened.otio'));
    expect(flattened).toEqual(preflattened.annotations.filter((a) => a.body.kind === 'clip').map((a) => [a.body.name, ...frames(a, 24)]));
    expect(flattened).toEqual([
      ['tech.fux (loop)-HD.mp4', 0, 482],
      ['t-hawk (loop)-HD.mp4', 482, 962],
      ['out-b (loop)-HD.mp4', 962, 1198],
      ['KOLL-HD.mp4', 1198, 1838],
      ['brokchrd (loop)-HD.mp4', 1957, 2677],
    ]);
    // preflattened's out-b starts 159 frames into its media: 962 - 803, where multitrack places it.
    const outB = multitrack.annotations.find((a) => a.body.name === 'out-b (loop)-HD.mp4') as Annotation;
    expect(frames(outB, 24)).toEqual([803, 1525]);
  });

  it('nested_example.otio: nested stacks and a nested track in place, each showing only its own source_range', async () => {
    const { store, annotations, warnings } = await loadWith(otioCodec, join(FIXTURES, 'otio_nested_example.otio'));
    expect(laid(annotations, 'Top Level Track', 24)).toEqual([
      ['clip', 'Normal Clip 1', 0, 238],
      ['item', 'Nested Stack 1', 238, 269],
      ['clip', 'Normal Clip 2', 269, 302],
      ['item', 'Nested Stack 2 (with effects)', 302, 331],
      ['clip', 'Normal Clip 3', 331, 394],
      ['item', 'Nested Track', 394, 398],
      ['clip', 'Normal Clip 4', 398, 636],
    ]);
    const nested = (await store.listTiers()).filter((tier) => tier.metadata.nested_in === 'Top Level Track').map((tier) => tier.name);
    expect(nested).toEqual([
      'Top Level Track / Nested Stack 1 / Clip Inside A Stack 1',
      'Top Level Track / Nested Stack 2 (with effects) / Clip Inside A Stack 2',
      'Top Level Track / Nested Track',
    ]);
    // Clip Inside A Stack 1 is 37 frames, its stack shows 31 of them: cut to 238-269.
    expect(laid(annotations, nested[0], 24)).toEqual([['clip', 'Clip Inside A Stack 1', 238, 269]]);
    expect(laid(annotations, nested[1], 24)).toEqual([['clip', 'Clip Inside A Stack 2', 302, 326]]);
    expect(laid(annotations, nested[2], 24)).toEqual([['clip', 'Clip Inside A Track', 394, 395]]);
    expect(warnings).toEqual([expect.stringMatching(/track "Clip Inside A Stack 1" is trimmed by the nested item holding it: 0 item\(s\) wholly outside it left out, 1 cut to it/)]);
  });

  it('premiere_example.otio: markers on the stack at their time, and a clip marker at the clip\'s place plus its offset', async () => {
    const { annotations } = await loadWith(otioCodec, join(CORPUS, 'otio_premiere_example.otio'));
    const markers = annotations.filter((a) => a.body.kind === 'marker');
    expect(markers.filter((a) => a.body.owner === 'timeline').map((a) => [a.body.name, ...frames(a, 30)])).toEqual([
      ['My MArker 1', 113, 113],
      ['dsf', 492, 492],
      ['', 298, 298],
    ]);
    // Track 2: gap 13, clip 100, gap 52, sh020 157, then sh030 at 322; its marker is 73 frames in.
    const sh030 = annotations.find((a) => a.body.name === 'sc01_sh030_anim.mov') as Annotation;
    expect(frames(sh030, 30)).toEqual([322, 557]);
    const onClip = markers.filter((a) => a.body.owner === 'clip');
    expect(onClip.map((a) => [a.body.owner_annotation_id === sh030.id, ...frames(a, 30)])).toEqual([[true, 395, 395]]);
  });

  it('screening_example.otio: a track trimmed by -86243 frames starts there, its clip markers placed through the clip\'s media time', async () => {
    // The trim (local -86243 to -85194) shows none of the items (local 0 to 1049): OTIO's
    // trimmed_range would hide them all, but otiotool lists them, and the marker "global" times it
    // prints (00:59:49:13 = 86149 frames) place them from 86243. Read as an offset, with a warning.
    const { annotations, warnings } = await loadWith(otioCodec, join(CORPUS, 'otio_screening_example.otio'));
    expect(warnings).toEqual([expect.stringMatching(/track "V" has a source_range that shows none of its items .*read as an offset of its items only, none left out \[otio_track_offset\]$/)]);
    const clips = laid(annotations, 'V', 24).filter(([kind]) => kind === 'clip');
    expect(clips[0]).toEqual(['clip', 'ZZ100_501 (LAY3)', 86243, 86274]);
    expect(clips[3]).toEqual(['clip', 'ZZ100_504C (LAY1)', 86352, 86467]);
    expect(clips[clips.length - 1]).toEqual(['clip', 'ZZ100_510B (LAY1)', 87035, 87292]);
    expect(clips).toHaveLength(9);
    // ZZ100_504C's media starts at 86641; its markers at media 86438 and 86462 play at 86352 - 203 and + 24 - 203.
    const markers = laid(annotations, 'V', 24).filter(([kind]) => kind === 'marker');
    expect(markers.slice(0, 2)).toEqual([
      ['marker', 'ANIM FIX NEEDED', 86149, 86149],
      ['marker', 'ANIM FIX NEEDED', 86173, 86173],
    ]);
  });

  it('refuses a transition_test.otio whose in_offset has no rate, naming the JSON path', async () => {
    const text = readFileSync(join(FIXTURES, 'otio_transition_test.otio'), 'utf8').replace(/"in_offset": \{\s*"OTIO_SCHEMA" : "RationalTime.1",\s*"rate" : 24,/, '"in_offset": {\n"OTIO_SCHEMA" : "RationalTime.1",');
    const path = join(work, 'no-rate.otio');
    writeFileSync(path, text);
    await expect(loadWith(otioCodec, path, { sourceName: 'no-rate.otio' })).rejects.toBeInstanceOf(FormatParseError);
    await expect(loadWith(otioCodec, path, { sourceName: 'no-rate.otio' })).rejects.toThrow(
      'no-rate.otio ($.tracks.children[0].children[0].in_offset): an OTIO RationalTime: {"OTIO_SCHEMA": "RationalTime.1", "value": <number>, "rate": <number above 0>}',
    );
  });
});

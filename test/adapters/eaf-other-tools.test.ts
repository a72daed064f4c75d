import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eafCodec } from '../../src/adapters/eaf/codec.js';
import { EAF_DOCUMENT_META, type DocumentParts, type PlainElement } from '../../src/adapters/eaf/eaf-model.js';
import type { Annotation } from '../../src/model/annotation.js';
import type { TimeInterval } from '../../src/time/time-interval.js';
import { validateAnnotationFile } from '../../src/service/validate-file.js';
import type { Tier } from '../../src/model/tier.js';
import { allOf, loadIntoAnnot, loadWith } from './codec-harness.js';

/**
 * pympi's sample_3.0.eaf (fixtures/eaf, MIT, see fixtures/SOURCES.md): five controlled
 * vocabularies and REF_ANNOTATIONs two levels deep (words-pos refers into words-symsub, which
 * refers into text). pympi's own tests only load its samples, write them back valid against the
 * EAF schema and convert them to TextGrid; the counts, first and last entries asserted here are
 * what pympi 1.70's get_annotation_data_for_tier, get_ref_annotation_data_for_tier and
 * get_cv_entries return for the same file.
 */
const SAMPLE = new URL('../../fixtures/eaf/pympi_sample_3.0.eaf', import.meta.url).pathname;
let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'annot-eaf-others-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Entry = [number, number, unknown];

/** [start ms, end ms, value] of an annotation; a symbolic one takes its time from its parent chain, as pympi does. */
function entryOf(annotation: Annotation, byId: Map<string, Annotation>): Entry {
  let at: Annotation = annotation;
  while (at.reference.kind === 'annotation') at = byId.get(at.reference.target_id) as Annotation;
  const { start, end } = (at.reference as { interval: TimeInterval }).interval;
  return [(start.v * 1000) / start.r, (end.v * 1000) / end.r, annotation.body.text];
}

describe("pympi's sample_3.0.eaf", () => {
  it('has the tiers, parents, constraints and per-tier counts pympi reads', async () => {
    const { store, annotations, warnings } = await loadWith(eafCodec, SAMPLE);
    const tiers = await store.listTiers();
    expect(Object.fromEntries(tiers.map((tier) => [tier.name, [tier.stereotype, tier.parent]]))).toEqual({
      text: ['NONE', null],
      'words-timesub': ['TIME_SUBDIVISION', 'text'],
      'words-symsub': ['SYMBOLIC_SUBDIVISION', 'text'],
      gestures: ['NONE', null],
      gest_included: ['INCLUDED_IN', 'text'],
      'words-pos': ['SYMBOLIC_ASSOCIATION', 'words-symsub'],
    });
    const count = (tier: string): number => annotations.filter((a) => a.tier === tier).length;
    expect(Object.fromEntries(tiers.map((tier) => [tier.name, count(tier.name)]))).toEqual({
      text: 399,
      'words-timesub': 1995,
      'words-symsub': 1995,
      gestures: 1197,
      gest_included: 1197,
      'words-pos': 1995,
    });
    expect(annotations).toHaveLength(8778);
    expect(warnings).toEqual([]);
  });

  it('gives the first and last annotation of each tier, symbolic ones at their parents\' times (get_annotation_data_for_tier)', async () => {
    const { annotations } = await loadWith(eafCodec, SAMPLE);
    const byId = new Map(annotations.map((a) => [a.id, a]));
    const ends = (tier: string): [Entry, Entry] => {
      const list = annotations.filter((a) => a.tier === tier).map((a) => entryOf(a, byId));
      return [list[0], list[list.length - 1]];
    };
    expect(ends('text')).toEqual([[2000, 5000, 'The quick brown fox 001'], [1196000, 1199000, 'The quick brown fox 399']]);
    expect(ends('words-timesub')).toEqual([[2000, 2470, 'The'], [1198386, 1199000, '399']]);
    expect(ends('words-symsub')).toEqual([[2000, 5000, 'The'], [1196000, 1199000, '399']]);
    expect(ends('gestures')).toEqual([[1800, 2400, 'prep'], [1198200, 1198800, 'stroke']]);
    expect(ends('gest_included')).toEqual([[2000, 2400, 'hold'], [1198200, 1198800, 'stroke']]);
    expect(ends('words-pos')).toEqual([[2000, 5000, ''], [1196000, 1199000, '']]);
    const times = annotations.filter((a) => a.reference.kind === 'media').map((a) => entryOf(a, byId));
    expect([Math.min(...times.map(([start]) => start)), Math.max(...times.map(([, end]) => end))]).toEqual([1800, 1199000]); // get_full_time_interval
  });

  it('keeps the nested REF_ANNOTATIONs: words-pos "adj" refers to "quick", which refers to the first text annotation', async () => {
    const { annotations } = await loadWith(eafCodec, SAMPLE);
    const byId = new Map(annotations.map((a) => [a.id, a]));
    const pos = annotations.filter((a) => a.tier === 'words-pos');
    const values = new Map<string, number>();
    for (const a of pos) values.set(a.body.text as string, (values.get(a.body.text as string) ?? 0) + 1);
    expect(Object.fromEntries(values)).toEqual({ '': 1992, adj: 2, n: 1 });
    const adj = pos.find((a) => a.body.annotation_id === 'a6785') as Annotation;
    expect(adj.body).toMatchObject({ text: 'adj', cve_ref: 'cveid6', ext_ref: 'er3' });
    const word = byId.get((adj.reference as { target_id: string }).target_id) as Annotation;
    expect([word.tier, word.body.annotation_id, word.body.text]).toEqual(['words-symsub', 'a2396', 'quick']);
    const line = byId.get((word.reference as { target_id: string }).target_id) as Annotation;
    expect([line.tier, line.body.annotation_id, line.body.text]).toEqual(['text', 'a1', 'The quick brown fox 001']);
  });

  it('keeps the controlled vocabularies with their multilingual entries (get_cv_entries) and which tiers use them', async () => {
    const { store } = await loadWith(eafCodec, SAMPLE);
    const tiers = await store.listTiers();
    expect(tiers.filter((tier) => tier.metadata.controlled_vocabulary !== undefined).map((tier) => [tier.name, tier.metadata.controlled_vocabulary])).toEqual([
      ['gestures', 'Gesture'],
      ['words-pos', 'POS'],
    ]);
    const parts = JSON.parse((await store.getMeta(EAF_DOCUMENT_META)) as string) as DocumentParts;
    const vocabularies = parts.elements.filter((element) => element.name === 'CONTROLLED_VOCABULARY');
    const entries = (element: PlainElement): PlainElement[] => (element.children ?? []).filter((child) => child.name === 'CV_ENTRY_ML');
    expect(vocabularies.map((element) => [element.attributes.CV_ID, entries(element).length])).toEqual([
      ['Contact 2011', 0],
      ['Function 2011', 0],
      ['Formal Relation 2011', 0],
      ['POS', 3],
      ['Gesture', 4],
    ]);
    const pos = vocabularies.find((element) => element.attributes.CV_ID === 'POS') as PlainElement;
    expect(
      entries(pos).map((entry) => [entry.attributes.CVE_ID, entry.attributes.EXT_REF, (entry.children ?? []).map((value) => [value.text, value.attributes.LANG_REF, value.attributes.DESCRIPTION])]),
    ).toEqual([
      ['cveid0', 'er6', [['v', 'eng', 'verb'], ['ww', 'nld', 'werkwoord']]],
      ['cveid2', 'er2', [['n', 'eng', 'noun'], ['zn', 'nld', 'zelfstandig naamwoord']]],
      ['cveid6', 'er3', [['adj', 'eng', 'adjective'], ['bn', 'nld', 'bijv naamwoord']]],
    ]);
  });

  it('writes it back (as pympi\'s test_to_file_to_eaf does) with the same tiers, references and vocabularies', async () => {
    const first = await loadWith(eafCodec, SAMPLE);
    const target = join(work, 'sample_3.0.eaf');
    await eafCodec.dump(first.store, target, { targetName: target, warn: () => undefined });
    const second = await loadWith(eafCodec, target);
    const view = async (loaded: typeof first) => {
      const byId = new Map(loaded.annotations.map((a) => [a.id, a]));
      return loaded.annotations.map((a) => [a.tier, a.body.annotation_id, a.reference.kind, ...entryOf(a, byId)]);
    };
    expect(await view(second)).toEqual(await view(first));
    expect(readFileSync(target, 'utf8').match(/<CONTROLLED_VOCABULARY /g)).toHaveLength(5);
    expect(second.warnings).toEqual([]);
  });

  it('keeps a words-pos REF_ANNOTATION that points at a text annotation (not its parent tier), as ELAN does, with an error at its XPath', async () => {
    const text = readFileSync(SAMPLE, 'utf8').replace('ANNOTATION_ID="a6785" ANNOTATION_REF="a2396"', 'ANNOTATION_ID="a6785" ANNOTATION_REF="a1"');
    const path = join(work, 'wrong-parent.eaf');
    writeFileSync(path, text);
    const { warnings, annotations, store } = await loadWith(eafCodec, path, { sourceName: 'wrong-parent.eaf' });
    expect(warnings).toEqual([
      expect.stringMatching(
        /^wrong-parent\.eaf:\d+:\d+ \(TIER\[6\]\/ANNOTATION\[2\]\/REF_ANNOTATION\): error: REF_ANNOTATION a6785 on tier "words-pos" refers to ANNOTATION_REF="a1", an annotation of tier "text", not of its parent tier "words-symsub"; kept as ELAN reads it .*\[unknown_target\]$/,
      ),
    ]);
    const kept = annotations.find((a) => a.body.annotation_id === 'a6785') as Annotation;
    const byId = new Map(annotations.map((a) => [a.id, a]));
    expect(byId.get((kept.reference as { target_id: string }).target_id)?.body.annotation_id).toBe('a1');
    // validate reports it once (the reader's finding), and the way back keeps it.
    const { findings } = await validateAnnotationFile(path, { sourceName: 'wrong-parent.eaf' });
    expect(findings.filter((finding) => finding.severity === 'error').map((finding) => finding.code)).toEqual(['unknown_target']);
    const target = join(work, 'wrong-parent-out.eaf');
    await eafCodec.dump(store, target, { targetName: target, warn: () => undefined });
    expect(readFileSync(target, 'utf8')).toMatch(/<REF_ANNOTATION ANNOTATION_ID="a6785" ANNOTATION_REF="a1"/);
  });
});

describe('an EAF whose annotations break their tier constraints', () => {
  it('is reported once per break, at the annotation\'s element and by its ANNOTATION_ID', async () => {
    // all-stereotypes.eaf with the last slot's TIME_VALUE gone: "<laughs>" (a2) now ends where it
    // starts, so the gesture a6 included in it lies outside every A-utt annotation.
    const path = join(work, 'lost-slot.eaf');
    const fixture = new URL('../../fixtures/eaf/all-stereotypes.eaf', import.meta.url).pathname;
    writeFileSync(path, readFileSync(fixture, 'utf8').replace('<TIME_SLOT TIME_SLOT_ID="ts8" TIME_VALUE="3000"/>', '<TIME_SLOT TIME_SLOT_ID="ts8"/>'));
    const { findings } = await validateAnnotationFile(path, { sourceName: 'lost-slot.eaf' });
    const errors = findings.filter((finding) => finding.severity === 'error');
    expect(errors).toEqual([
      expect.objectContaining({
        code: 'outside_parent',
        file: 'lost-slot.eaf',
        location: { line: 50, column: 13, path: 'TIER[3]/ANNOTATION[1]/ALIGNABLE_ANNOTATION' },
        message: expect.stringMatching(/^tier "A-gesture": annotation a6 \[2\.25, 2\.6\) .* is not inside any annotation of parent tier "A-utt"$/),
      }),
    ]);
  });
});

/**
 * SLEXIL's inferno-threeLines.eaf (fixtures/eaf, MIT, see fixtures/SOURCES.md): the
 * morpheme-gloss REF_ANNOTATIONs refer to annotations of tier morphemes, while the tier's
 * PARENT_REF says italianSpeech. ELAN opens it with every reference in place (it finds an
 * ANNOTATION_REF on any tier), and so does SLEXIL: its test_eafParserInferno.py asserts
 * depthFirstTierTraversal("a2") == ['a6', 'a10', 'a14'].
 */
describe("SLEXIL's inferno-threeLines.eaf: REF_ANNOTATIONs that point past their tier's PARENT_REF", () => {
  const INFERNO = new URL('../../fixtures/eaf/slexil_inferno-threeLines.eaf', import.meta.url).pathname;

  /** SLEXIL's depthFirstTierTraversal: the annotations under one, child tiers in tier order, each followed by its own. */
  function depthFirst(tiers: readonly Tier[], annotations: readonly Annotation[], eafId: string): string[] {
    const start = annotations.find((a) => a.body.annotation_id === eafId) as Annotation;
    const out: string[] = [];
    const visit = (parent: Annotation): void => {
      for (const tier of tiers.filter((t) => t.parent === parent.tier)) {
        for (const child of annotations.filter((a) => a.tier === tier.name && a.reference.kind === 'annotation' && a.reference.target_id === parent.id)) {
          out.push(child.body.annotation_id as string);
          visit(child);
        }
      }
    };
    visit(start);
    return out;
  }

  it('reads all nine references, morpheme-gloss under morphemes, with a warning naming the tier, its references and the tier they point into', async () => {
    const { store, annotations, warnings } = await loadWith(eafCodec, INFERNO, { sourceName: 'inferno.eaf' });
    expect(annotations.filter((a) => a.reference.kind === 'annotation')).toHaveLength(9);
    expect(warnings).toEqual([
      'inferno.eaf:58:5 (TIER[@TIER_ID="morpheme-gloss"]): warning: tier "morpheme-gloss" has PARENT_REF="italianSpeech", but its REF_ANNOTATIONs refer to annotations of tier "morphemes" (a9 → a5, a10 → a6, a11 → a7); ' +
        'read with "morphemes" as its parent tier, as ELAN finds an ANNOTATION_REF on any tier; PARENT_REF="italianSpeech" is written back as it was [parent_ref_mismatch]',
    ]);
    const tiers = await store.listTiers();
    expect(tiers.map((tier) => [tier.name, tier.stereotype, tier.parent])).toEqual([
      ['italianSpeech', 'NONE', null],
      ['morphemes', 'SYMBOLIC_ASSOCIATION', 'italianSpeech'],
      ['morpheme-gloss', 'SYMBOLIC_ASSOCIATION', 'morphemes'],
      ['english', 'SYMBOLIC_ASSOCIATION', 'italianSpeech'],
    ]);
    expect(tiers[2].metadata).toEqual(expect.objectContaining({ parent_ref: 'italianSpeech', parent_from_references: 'morphemes' }));
  });

  it("gives SLEXIL's depth-first traversals (test_eafParserInferno.py test_depthFirstTierTraversal)", async () => {
    const { store, annotations } = await loadWith(eafCodec, INFERNO);
    const tiers = await store.listTiers();
    expect(depthFirst(tiers, annotations, 'a2')).toEqual(['a6', 'a10', 'a14']);
    expect(depthFirst(tiers, annotations, 'a6')).toEqual(['a10']);
    expect(depthFirst(tiers, annotations, 'a10')).toEqual([]);
    expect(depthFirst(tiers, annotations, 'a1')).toEqual(['a5', 'a9', 'a13']);
  });

  it('is valid (the warning aside): the tiers agree with the references', async () => {
    const { findings } = await validateAnnotationFile(INFERNO, { sourceName: 'inferno.eaf' });
    expect(findings.map((finding) => [finding.severity, finding.code])).toEqual([['warning', 'parent_ref_mismatch']]);
  });

  it('EAF → .annot → EAF keeps every reference and the PARENT_REF as it was', async () => {
    const annotPath = join(work, 'inferno.annot');
    const annot = await loadIntoAnnot(eafCodec, INFERNO, annotPath);
    const first = await allOf(annot);
    const target = join(work, 'inferno-back.eaf');
    await eafCodec.dump(annot, target, { targetName: target, warn: () => undefined });
    await annot.close();
    const written = readFileSync(target, 'utf8');
    expect(written).toMatch(/<TIER TIER_ID="morpheme-gloss" [^>]*PARENT_REF="italianSpeech"/);
    expect(written).toMatch(/<TIER TIER_ID="morphemes" [^>]*PARENT_REF="italianSpeech"/);
    const refs = [...written.matchAll(/<REF_ANNOTATION ANNOTATION_ID="(a\d+)" ANNOTATION_REF="(a\d+)"/g)].map((match) => `${match[1]}→${match[2]}`);
    expect(refs).toEqual(['a5→a1', 'a6→a2', 'a7→a3', 'a9→a5', 'a10→a6', 'a11→a7', 'a13→a1', 'a14→a2', 'a15→a3']);
    const again = await loadWith(eafCodec, target, { sourceName: 'back.eaf' });
    const view = (annotations: readonly Annotation[]) => {
      const byId = new Map(annotations.map((a) => [a.id, a]));
      return annotations.map((a) => [a.tier, a.body.annotation_id, a.body.text, a.reference.kind === 'annotation' ? byId.get(a.reference.target_id)?.body.annotation_id : null]);
    };
    expect(view(again.annotations)).toEqual(view(first));
    expect(again.warnings).toEqual([expect.stringContaining('[parent_ref_mismatch]')]);
  });
});

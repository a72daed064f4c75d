import type { LoadOptions } from '../../src/adapters/adapter.js';
import { readAlignableAnnotations } from '../../src/adapters/eaf/eaf-read-alignable.js';
import { reportTierViolations } from '../../src/adapters/eaf/eaf-read-constraints.js';
import { readHeader } from '../../src/adapters/eaf/eaf-read-header.js';
import { readReferences } from '../../src/adapters/eaf/eaf-read-references.js';
import { EafReadState } from '../../src/adapters/eaf/eaf-read-state.js';
import { readTiers } from '../../src/adapters/eaf/eaf-read-tiers.js';
import { readTimeSlots } from '../../src/adapters/eaf/eaf-read-time-slots.js';
import { FormatParseError } from '../../src/adapters/errors.js';
import type { Finding } from '../../src/adapters/finding.js';
import type { Annotation } from '../../src/model/annotation.js';
import { RationalTime } from '../../src/time/rational-time.js';

/**
 * The EAF reader's passes, each on its own: header → time slots → tiers → alignable annotations
 * → references → constraints, each a function of one EafReadState (see eaf-reader.ts).
 */

const PASSES = [readHeader, readTimeSlots, readTiers, readAlignableAnnotations, readReferences, reportTierViolations] as const;

/** The state after the passes up to and including `last`, and what they reported. */
function after(last: (typeof PASSES)[number], text: string, extra: Partial<LoadOptions> = {}) {
  const findings: Finding[] = [];
  const state = new EafReadState(text, { sourceName: 'p.eaf', now: new RationalTime(0, 1000), report: (finding) => findings.push(finding), ...extra });
  for (const pass of PASSES) {
    pass(state);
    if (pass === last) break;
  }
  return { state, findings };
}

const TYPES = [
  '<LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="lt" TIME_ALIGNABLE="true"/>',
  '<LINGUISTIC_TYPE CONSTRAINTS="Symbolic_Association" LINGUISTIC_TYPE_ID="assoc" TIME_ALIGNABLE="false"/>',
  '<LINGUISTIC_TYPE CONSTRAINTS="Symbolic_Subdivision" LINGUISTIC_TYPE_ID="subdiv" TIME_ALIGNABLE="false"/>',
  '<LINGUISTIC_TYPE CONSTRAINTS="Included_In" LINGUISTIC_TYPE_ID="incl" TIME_ALIGNABLE="true"/>',
].join('\n');

/** An EAF document: slots as [id, ms or null], then the tiers' XML and anything else. */
function eaf(slots: Array<[string, number | null]>, body: string, header = '<HEADER MEDIA_FILE="" TIME_UNITS="milliseconds"/>'): string {
  const order = slots.map(([id, ms]) => `<TIME_SLOT TIME_SLOT_ID="${id}"${ms === null ? '' : ` TIME_VALUE="${ms}"`}/>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<ANNOTATION_DOCUMENT AUTHOR="" FORMAT="3.0" VERSION="3.0">\n${header}\n<TIME_ORDER>\n${order}\n</TIME_ORDER>\n${body}\n${TYPES}\n</ANNOTATION_DOCUMENT>\n`;
}
const tier = (id: string, type: string, parent: string | null, ...annotations: string[]) =>
  `<TIER LINGUISTIC_TYPE_REF="${type}"${parent === null ? '' : ` PARENT_REF="${parent}"`} TIER_ID="${id}">\n${annotations.join('\n')}\n</TIER>`;
const align = (id: string, ts1: string, ts2: string, value = id) =>
  `<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="${id}" TIME_SLOT_REF1="${ts1}" TIME_SLOT_REF2="${ts2}"><ANNOTATION_VALUE>${value}</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>`;
const ref = (id: string, target: string, previous?: string) =>
  `<ANNOTATION><REF_ANNOTATION ANNOTATION_ID="${id}" ANNOTATION_REF="${target}"${previous ? ` PREVIOUS_ANNOTATION="${previous}"` : ''}><ANNOTATION_VALUE>${id}</ANNOTATION_VALUE></REF_ANNOTATION></ANNOTATION>`;

const SLOTS: Array<[string, number | null]> = [['t1', 0], ['t2', 1000], ['t3', 2000]];
/** The ELAN ids of the annotations in the order the store gets them. */
const placed = (state: EafReadState) => Array.from(state.order.subarray(0, state.emittedCount), (record) => state.records.eafId[record]);
const summary = (findings: readonly Finding[]) => findings.map((finding) => `${finding.severity} ${finding.code}`);

describe('EAF pass 1: the header', () => {
  it('keeps every top-level part but the time order and the tiers, reads the linguistic types and takes the media as the asset', () => {
    const text = eaf(SLOTS, tier('w', 'lt', null), '<LICENSE>CC0</LICENSE>\n<HEADER MEDIA_FILE="" TIME_UNITS="milliseconds"><MEDIA_DESCRIPTOR RELATIVE_MEDIA_URL="./a.wav"/></HEADER>');
    const { state } = after(readHeader, text);
    expect(state.parts.elements.map((element) => element.name)).toEqual(['LICENSE', 'HEADER', 'LINGUISTIC_TYPE', 'LINGUISTIC_TYPE', 'LINGUISTIC_TYPE', 'LINGUISTIC_TYPE']);
    expect(state.tierElements.map((element) => element.attributes.TIER_ID)).toEqual(['w']);
    expect(state.types.get('subdiv')).toEqual({ constraint: 'Symbolic_Subdivision', controlledVocabulary: null });
    expect(state.asset).toBe('./a.wav');
    expect(after(readHeader, text, { assetId: 'given' }).state.asset).toBe('given');
  });

  it('refuses a document whose root is not ANNOTATION_DOCUMENT', () => {
    expect(() => after(readHeader, '<?xml version="1.0"?>\n<TEI/>\n')).toThrow('p.eaf:2:1 (TEI): expected an ELAN document: root element <ANNOTATION_DOCUMENT>');
  });
});

describe('EAF pass 2: the time slots', () => {
  it('throws the first broken slot', () => {
    expect(() => after(readTimeSlots, eaf([['t1', 0], ['t1', 5]], ''))).toThrow(/\(TIME_ORDER\/TIME_SLOT\[2\]\): expected a unique TIME_SLOT_ID; "t1" is used twice/);
  });

  it('resolves the slots of annotations written before the TIME_ORDER', () => {
    const text = eaf(SLOTS, '').replace('<TIME_ORDER>', `${tier('w', 'lt', null, align('a1', 't2', 't3'))}\n<TIME_ORDER>`);
    const { state } = after(readTimeSlots, text);
    expect([state.records.slot1[0], state.records.slot2[0]].map((slot) => state.slots.ids[slot])).toEqual(['t2', 't3']);
  });
});

describe('EAF pass 3: the tiers', () => {
  it('takes stereotypes from the constraints and parents from PARENT_REF, and makes a tier with a missing parent independent', () => {
    const text = eaf(SLOTS, [tier('w', 'lt', null, align('a1', 't1', 't2')), tier('g', 'assoc', 'w', ref('a2', 'a1')), tier('lost', 'incl', 'nowhere')].join('\n'));
    const { state } = after(readTiers, text);
    expect(state.tiers.map((t) => [t.name, t.stereotype, t.parent])).toEqual([['w', 'NONE', null], ['g', 'SYMBOLIC_ASSOCIATION', 'w'], ['lost', 'NONE', null]]);
    expect(state.tiers[2].metadata).toEqual({ linguistic_type: 'incl', stereotype_coerced: true, parent_ref: 'nowhere' });
  });

  it('guesses a symbolic stereotype for a dependent tier without a known constraint (a warning)', () => {
    const { state, findings } = after(readTiers, eaf(SLOTS, [tier('w', 'lt', null, align('a1', 't1', 't2')), tier('g', 'missing', 'w', ref('a2', 'a1'), ref('a3', 'a1'))].join('\n')));
    expect(state.tiers[1].stereotype).toBe('SYMBOLIC_SUBDIVISION');
    expect(summary(findings)).toEqual(['warning stereotype_guessed']);
  });

  it('names a repeated TIER_ID before a broken annotation', () => {
    const text = eaf(SLOTS, [tier('w', 'lt', null, align('a1', 't1', 'nope')), tier('w', 'lt', null)].join('\n'));
    expect(() => after(readTiers, text)).toThrow('a unique TIER_ID; "w" is used twice');
  });

  it('hangs a symbolic tier under the one tier its references point into, remembering PARENT_REF (as ELAN reads it)', () => {
    const text = eaf(SLOTS, [tier('w', 'lt', null, align('a1', 't1', 't2')), tier('m', 'assoc', 'w', ref('a2', 'a1')), tier('g', 'assoc', 'w', ref('a3', 'a2'))].join('\n'));
    const { state, findings } = after(readTiers, text);
    expect(state.tiers.map((t) => t.parent)).toEqual([null, 'w', 'm']);
    expect(state.tiers[2].metadata).toEqual({ linguistic_type: 'assoc', parent_ref: 'w', parent_from_references: 'm' });
    expect(findings).toEqual([
      expect.objectContaining({ code: 'parent_ref_mismatch', severity: 'warning', location: { line: 15, column: 1, path: 'TIER[@TIER_ID="g"]' }, message: expect.stringContaining('its REF_ANNOTATIONs refer to annotations of tier "m" (a3 → a2)') }),
    ]);
  });

  it('keeps PARENT_REF when the references point into several tiers, into a tier below, or would make a cycle', () => {
    const text = eaf(SLOTS, [
      tier('w', 'lt', null, align('a1', 't1', 't2')),
      tier('m', 'assoc', 'w', ref('a2', 'a1')),
      tier('mixed', 'subdiv', 'w', ref('a3', 'a1'), ref('a4', 'a2')),
      tier('b', 'assoc', 'w', ref('a5', 'a6')),
      tier('c', 'assoc', 'w', ref('a6', 'a5')),
    ].join('\n'));
    const { state, findings } = after(readTiers, text);
    // b points into c and hangs under it; c then points into b, which hangs below it: c keeps w.
    expect(state.tiers.map((t) => [t.name, t.parent])).toEqual([['w', null], ['m', 'w'], ['mixed', 'w'], ['b', 'c'], ['c', 'w']]);
    expect(findings.map((finding) => finding.message.slice(0, 12))).toEqual(['tier "b" has']);
    expect(state.ordered.map((t) => t.name)).toEqual(['w', 'm', 'mixed', 'c', 'b']);
  });
});

describe('EAF pass 4: the time-aligned annotations', () => {
  it('gives unaligned slots the times ELAN shows and refuses an aligned end before its start', () => {
    const { state } = after(readAlignableAnnotations, eaf([['t1', 0], ['t2', null], ['t3', null], ['t4', 1500]], tier('w', 'lt', null, align('a1', 't1', 't2'), align('a2', 't2', 't3'), align('a3', 't3', 't4'))));
    expect([...state.interpolated]).toEqual([[1, 500], [2, 1000]]);
    expect(() => after(readAlignableAnnotations, eaf(SLOTS, tier('w', 'lt', null, align('a1', 't2', 't1'))))).toThrow(FormatParseError);
  });

  it('builds the annotations of related tiers now, and only the first of an independent tier', () => {
    const text = eaf(SLOTS, [tier('w', 'lt', null, align('a1', 't1', 't2'), align('a2', 't2', 't3')), tier('free', 'lt', null, align('a3', 't1', 't2'), align('a4', 't2', 't3')), tier('g', 'assoc', 'w', ref('a5', 'a1'))].join('\n'));
    const { state } = after(readAlignableAnnotations, text);
    expect([...state.prebuilt.values()].map((annotation) => annotation.body.annotation_id)).toEqual(['a1', 'a2', 'a3']);
    expect([...state.related].sort()).toEqual(['g', 'w']);
  });
});

describe('EAF pass 5: the references', () => {
  it('places each tier parents first, its time-aligned annotations, then its references in PREVIOUS_ANNOTATION order', () => {
    const text = eaf(SLOTS, [tier('s', 'subdiv', 'w', ref('a4', 'a1', 'a3'), ref('a3', 'a1')), tier('w', 'lt', null, align('a1', 't1', 't2'), align('a2', 't2', 't3'))].join('\n'));
    const { state, findings } = after(readReferences, text);
    expect(placed(state)).toEqual(['a1', 'a2', 'a3', 'a4']);
    expect(findings).toEqual([]);
  });

  it('keeps a reference into a tier other than its parent (ELAN finds it by id) with an error, placed once its target is', () => {
    const text = eaf(SLOTS, [
      tier('w', 'lt', null, align('a1', 't1', 't2')),
      tier('mixed', 'subdiv', 'w', ref('a2', 'a1'), ref('a3', 'a4')),
      tier('later', 'assoc', 'w', ref('a4', 'a1')),
    ].join('\n'));
    const { state, findings } = after(readReferences, text);
    expect(placed(state)).toEqual(['a1', 'a2', 'a4', 'a3']);
    expect(findings).toEqual([
      expect.objectContaining({ code: 'unknown_target', severity: 'error', location: expect.objectContaining({ path: 'TIER[2]/ANNOTATION[2]/REF_ANNOTATION' }), message: expect.stringMatching(/^REF_ANNOTATION a3 on tier "mixed" refers to ANNOTATION_REF="a4", an annotation of tier "later", not of its parent tier "w"; kept/) }),
    ]);
  });

  it('leaves out, with an error each, a reference to no annotation, to itself, to one left out, and one on a tier without a parent', () => {
    const text = eaf(SLOTS, [
      tier('w', 'lt', null, align('a1', 't1', 't2'), ref('a2', 'a1')),
      tier('g', 'subdiv', 'w', ref('a3', 'a99'), ref('a4', 'a4'), ref('a5', 'a3'), ref('a6', 'a2')),
    ].join('\n'));
    const { state, findings } = after(readReferences, text);
    expect(placed(state)).toEqual(['a1']);
    expect(findings.map((finding) => finding.message)).toEqual([
      'REF_ANNOTATION a2 is on tier "w", which has no parent tier (PARENT_REF) for it to refer into; left out',
      'REF_ANNOTATION a3 refers to ANNOTATION_REF="a99", which no annotation of the document has; left out',
      'REF_ANNOTATION a4 refers to itself; left out',
      'REF_ANNOTATION a5 refers to a3, which cannot be placed either (its own reference is missing or circular); left out',
      'REF_ANNOTATION a6 refers to a2, which was left out (see its finding); left out too',
    ]);
  });
});

describe('EAF pass 6: the tier constraints', () => {
  it('reports each broken constraint once, at the annotation, by its ANNOTATION_ID', () => {
    const text = eaf(SLOTS, [tier('w', 'lt', null, align('a1', 't1', 't2')), tier('inc', 'incl', 'w', align('a2', 't2', 't3')), tier('m', 'subdiv', 'w', ref('a3', 'a1'), ref('a4', 'a2'))].join('\n'));
    const { state, findings } = after(reportTierViolations, text);
    const id = (eafId: string) => ([...state.prebuilt.values()].find((annotation: Annotation) => annotation.body.annotation_id === eafId) as Annotation).id;
    expect(findings.map((finding) => [finding.code, finding.annotation_id, finding.location.path])).toEqual([
      ['unknown_target', id('a4'), 'TIER[3]/ANNOTATION[2]/REF_ANNOTATION'],
      ['outside_parent', id('a2'), 'TIER[2]/ANNOTATION[1]/ALIGNABLE_ANNOTATION'],
    ]);
    expect(findings[1].message).toContain('annotation a2 [1, 2)');
  });
});

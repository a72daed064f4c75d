import fc from 'fast-check';
import { intersects } from '../../src/time/allen.js';
import { annotationRef, makeAnnotation, mediaRef, type Annotation } from '../../src/model/annotation.js';
import { validateTierConstraint } from '../../src/model/tier-constraint.js';
import { makeTier } from '../../src/model/tier.js';
import { UNKNOWN_GENERATED_AT } from '../../src/model/provenance.js';
import { TimeInterval } from '../../src/time/time-interval.js';

let counter = 0;
function id(): string {
  counter += 1;
  return `00000000-0000-4000-8000-${counter.toString().padStart(12, '0')}`;
}

function timed(tier: string, start: string, end: string, asset = 'a'): Annotation {
  return makeAnnotation({
    id: id(),
    tier,
    reference: mediaRef(asset, TimeInterval.fromSeconds(start, end, 10)),
    body: { text: `${start}-${end}` },
    body_schema_uri: 'annot://schema/label/v1',
    provenance: { was_generated_by: 'test', generated_at_time: UNKNOWN_GENERATED_AT },
  });
}

function symbolic(tier: string, target: Annotation): Annotation {
  return makeAnnotation({
    id: id(),
    tier,
    reference: annotationRef(target.id),
    body: { text: 'gloss' },
    body_schema_uri: 'annot://schema/label/v1',
    provenance: { was_generated_by: 'test', generated_at_time: UNKNOWN_GENERATED_AT },
  });
}

const lines = makeTier({ name: 'lines' });

describe('validateTierConstraint', () => {
  it('finds nothing to check on a NONE tier, whatever overlaps', () => {
    const tier = makeTier({ name: 'free' });
    expect(validateTierConstraint(tier, [timed('free', '0', '2'), timed('free', '1', '3')])).toEqual([]);
  });

  it('reports a missing parent tier once and stops', () => {
    const tier = makeTier({ name: 'words', stereotype: 'INCLUDED_IN', parent: 'lines' });
    const violations = validateTierConstraint(tier, [timed('words', '0', '1')]);
    expect(violations.map((v) => v.code)).toEqual(['parent_tier_missing']);
  });

  it('reports a parent tier other than the declared one and annotations of another tier', () => {
    const tier = makeTier({ name: 'words', stereotype: 'INCLUDED_IN', parent: 'lines' });
    const other = makeTier({ name: 'sections' });
    const violations = validateTierConstraint(tier, [timed('glosses', '0', '1')], other, [timed('sections', '0', '5')]);
    expect(violations.map((v) => v.code).sort()).toEqual(['parent_tier_mismatch', 'wrong_tier']);
  });

  describe('TIME_SUBDIVISION', () => {
    const tier = makeTier({ name: 'words', stereotype: 'TIME_SUBDIVISION', parent: 'lines' });

    it('accepts children that tile each parent exactly, across rates', () => {
      const p1 = timed('lines', '0', '2');
      const p2 = timed('lines', '3', '4');
      const children = [
        timed('words', '0', '0.5'),
        makeAnnotation({ ...timed('words', '0', '1'), id: id(), reference: mediaRef('a', TimeInterval.fromSeconds('0.5', '2', 1000)) }),
        timed('words', '3', '4'),
      ];
      expect(validateTierConstraint(tier, children, lines, [p1, p2])).toEqual([]);
    });

    it('reports every gap, overlap, empty parent, stray child and point, each with its intervals', () => {
      const p1 = timed('lines', '0', '10');
      const p2 = timed('lines', '20', '30');
      const p3 = timed('lines', '40', '50');
      const late = timed('words', '1', '3'); // gap [0, 1) at the start
      const overlapping = timed('words', '2', '5'); // overlaps `late`
      const afterGap = timed('words', '6', '9'); // gap [5, 6), and [9, 10) left at the end
      const stray = timed('words', '12', '14'); // in no parent
      const otherAsset = timed('words', '20', '30', 'b'); // p2 is on asset a
      const point = timed('words', '25', '25');
      const p2child = timed('words', '20', '30');
      const violations = validateTierConstraint(tier, [late, overlapping, afterGap, stray, otherAsset, point, p2child], lines, [p1, p2, p3]);
      const summary = violations.map((v) => [v.code, v.annotation_id]);
      expect(summary).toEqual([
        ['outside_parent', stray.id],
        ['outside_parent', otherAsset.id],
        ['point_in_subdivision', point.id],
        ['gap', late.id],
        ['overlap', overlapping.id],
        ['gap', afterGap.id],
        ['gap', afterGap.id],
      ]); // p3 has no children yet: not subdivided is not a violation
      const overlap = violations.find((v) => v.code === 'overlap')!;
      expect(overlap.related_ids).toEqual([late.id, p1.id]);
      expect(overlap.intervals.map((i) => i.toString())).toEqual(['[1, 3)', '[2, 5)']);
      expect(overlap.message).toContain('tier "words"');
      expect(violations.every((v) => v.tier === 'words')).toBe(true);
    });

    it('reports an AnnotationRef child as the wrong kind of reference', () => {
      const p = timed('lines', '0', '1');
      const violations = validateTierConstraint(tier, [timed('words', '0', '1'), symbolic('words', p)], lines, [p]);
      expect(violations.map((v) => v.code)).toEqual(['wrong_reference_kind']);
    });
  });

  describe('INCLUDED_IN', () => {
    const tier = makeTier({ name: 'words', stereotype: 'INCLUDED_IN', parent: 'lines' });

    it('accepts gaps and touching children inside parents', () => {
      const p = timed('lines', '0', '10');
      const children = [timed('words', '1', '2'), timed('words', '2', '3'), timed('words', '5', '6'), timed('words', '7', '7')];
      expect(validateTierConstraint(tier, children, lines, [p])).toEqual([]);
    });

    it('reports every overlapping pair and every child outside all parents', () => {
      const p = timed('lines', '0', '10');
      const a = timed('words', '0', '5');
      const b = timed('words', '1', '2');
      const c = timed('words', '3', '4');
      const across = timed('words', '9', '11');
      const violations = validateTierConstraint(tier, [a, b, c, across], lines, [p]);
      expect(violations.map((v) => [v.code, v.annotation_id, ...v.related_ids])).toEqual([
        ['outside_parent', across.id],
        ['overlap', b.id, a.id],
        ['overlap', c.id, a.id],
      ]);
    });

    it('does not let children on different assets overlap each other', () => {
      const parents = [timed('lines', '0', '10', 'a'), timed('lines', '0', '10', 'b')];
      expect(validateTierConstraint(tier, [timed('words', '0', '5', 'a'), timed('words', '0', '5', 'b')], lines, parents)).toEqual([]);
    });
  });

  describe('SYMBOLIC_SUBDIVISION and SYMBOLIC_ASSOCIATION', () => {
    it('accepts several ordered children per parent for a subdivision', () => {
      const tier = makeTier({ name: 'morphs', stereotype: 'SYMBOLIC_SUBDIVISION', parent: 'lines' });
      const p = timed('lines', '0', '1');
      expect(validateTierConstraint(tier, [symbolic('morphs', p), symbolic('morphs', p)], lines, [p])).toEqual([]);
    });

    it('reports a second association, an unknown target and a time-aligned child', () => {
      const tier = makeTier({ name: 'glosses', stereotype: 'SYMBOLIC_ASSOCIATION', parent: 'lines' });
      const p = timed('lines', '0', '1');
      const stranger = timed('elsewhere', '0', '1');
      const first = symbolic('glosses', p);
      const second = symbolic('glosses', p);
      const lost = symbolic('glosses', stranger);
      const aligned = timed('glosses', '0', '1');
      const violations = validateTierConstraint(tier, [first, second, lost, aligned], lines, [p]);
      expect(violations.map((v) => [v.code, v.annotation_id])).toEqual([
        ['duplicate_association', second.id],
        ['unknown_target', lost.id],
        ['wrong_reference_kind', aligned.id],
      ]);
      expect(violations[0].related_ids).toEqual([first.id, p.id]);
    });
  });

  describe('laws', () => {
    const included = makeTier({ name: 'words', stereotype: 'INCLUDED_IN', parent: 'lines' });
    const subdivided = makeTier({ name: 'words', stereotype: 'TIME_SUBDIVISION', parent: 'lines' });
    const span = fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 5 })).map(([s, d]) => [s, s + d] as const);

    it('reports one overlap per intersecting pair of INCLUDED_IN children, as brute force counts them', () => {
      fc.assert(
        fc.property(fc.array(span, { maxLength: 12 }), (spans) => {
          const parent = timed('lines', '0', '30');
          const children = spans.map(([s, e]) => timed('words', String(s), String(e)));
          let pairs = 0;
          for (let i = 0; i < children.length; i++) {
            for (let j = i + 1; j < children.length; j++) {
              if (intersects((children[i].reference as { interval: TimeInterval }).interval, (children[j].reference as { interval: TimeInterval }).interval)) pairs++;
            }
          }
          const violations = validateTierConstraint(included, children, lines, [parent]);
          expect(violations.filter((v) => v.code === 'overlap')).toHaveLength(pairs);
          expect(violations).toHaveLength(pairs);
        }),
        { numRuns: 150 },
      );
    });

    it('accepts any partition of a parent and finds exactly one gap when one inner piece is removed', () => {
      fc.assert(
        fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 99 }), { minLength: 2, maxLength: 10 }), fc.nat(), (cuts, pick) => {
          const bounds = [0, ...[...cuts].sort((a, b) => a - b), 100];
          const parent = timed('lines', '0', '100');
          const pieces = bounds.slice(1).map((end, i) => timed('words', String(bounds[i]), String(end)));
          expect(validateTierConstraint(subdivided, pieces, lines, [parent])).toEqual([]);
          const removed = pick % pieces.length;
          const violations = validateTierConstraint(subdivided, pieces.filter((_, i) => i !== removed), lines, [parent]);
          expect(violations.map((v) => v.code)).toEqual(['gap']);
        }),
        { numRuns: 150 },
      );
    });
  });
});

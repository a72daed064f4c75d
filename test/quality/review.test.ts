import { annotationBodyDigest } from '../../src/digest/digests.js';
import { makeApprovalReview, REVIEW_BODY_SCHEMA_URI } from '../../src/quality/review.js';
import { annotationInterval } from '../../src/model/annotation.js';
import { validateBody } from '../../src/schemas/registry.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { sampleAnnotation } from '../model/arbitraries.js';

describe('makeApprovalReview', () => {
  it('builds a review on tier review that refers to the reviewed annotation without an interval', () => {
    const reviewed = sampleAnnotation();
    const at = new RationalTime(1_700_000_123_456, 1000);
    const review = makeApprovalReview(reviewed, { reviewer: 'user:bob', accept: true, at, note: 'looks right' });
    expect(review.tier).toBe('review');
    expect(review.reference).toEqual({ kind: 'annotation', target_id: reviewed.id });
    expect(annotationInterval(review)).toBeNull();
    expect(review.body_schema_uri).toBe(REVIEW_BODY_SCHEMA_URI);
    expect(review.body).toEqual({ kind: 'approval', accepted: true, note: 'looks right', reviewed_body_digest: annotationBodyDigest(reviewed) });
    expect(review.provenance).toEqual({ was_generated_by: 'user:bob', was_attributed_to: 'user:bob', was_derived_from: [reviewed.id], generated_at_time: at });
    expect(review.id).not.toBe(reviewed.id);
    expect(validateBody(review.body_schema_uri, review.body).valid).toBe(true);
  });

  it('records a rejection and stamps the wall clock at rate 1000 when no time is given', () => {
    const before = Date.now();
    const review = makeApprovalReview(sampleAnnotation(), { reviewer: 'agent:x', accept: false });
    expect(review.body.accepted).toBe(false);
    expect(review.provenance.generated_at_time.r).toBe(1000);
    expect(review.provenance.generated_at_time.v).toBeGreaterThanOrEqual(before);
    expect(review.provenance.generated_at_time.v).toBeLessThanOrEqual(Date.now() + 1);
  });

  it('leaves the reviewed annotation untouched', () => {
    const reviewed = sampleAnnotation();
    makeApprovalReview(reviewed, { reviewer: 'user:bob', accept: true });
    expect(reviewed.confidence).toBe(0.75);
    expect(reviewed.provenance.was_generated_by).toBe('user:alice');
  });

  it('refuses a decision that is not a boolean', () => {
    expect(() => makeApprovalReview(sampleAnnotation(), { reviewer: 'u', accept: 'yes' as unknown as boolean })).toThrow('accept');
  });
});

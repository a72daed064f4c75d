import { annotationRef, makeAnnotation, mediaRef, type Annotation, type Reference } from '../model/annotation.js';
import { makeTier } from '../model/tier.js';
import type { Mutation } from '../oplog/mutation.js';
import type { AnnotationService } from '../service/annotation-service.js';
import { AnnotationNotFoundError } from '../store/errors.js';
import { RationalTime } from '../time/rational-time.js';
import { applyPlan } from './apply-plan.js';
import { derivedId } from './derived-id.js';
import type { Processor, ProcessorContext } from './processor.js';

export const REVIEW_CANDIDATE_SCHEMA_URI = 'annot://schema/review-candidate/v1';

/** Progress is reported every this many annotations scanned. */
const PROGRESS_EVERY = 1000;

interface Params {
  readonly threshold: number;
  readonly review_tier: string;
  readonly tier?: string;
}

/**
 * `low_confidence_review`: flags every annotation whose confidence is below `threshold` with a
 * review-candidate annotation on the review tier (created when missing). A candidate covers the
 * flagged annotation's stretch of media (a MediaRef to the same asset and interval, so it shows
 * on the timeline, as the review-candidate schema says); an annotation without an interval is
 * flagged with an AnnotationRef to it. Either way the body's `source_id` names the flagged
 * annotation and the candidate's id is derived from it, so a second run flags nothing new, even
 * when two workers run at once. Annotations without a confidence are never flagged; a confidence
 * equal to the threshold is not under it.
 */
export const lowConfidenceReview: Processor = {
  name: 'low_confidence_review',
  description: 'Flag annotations whose confidence is under a threshold with review-candidate annotations on a review tier (idempotent)',
  paramsSchema: {
    type: 'object',
    properties: {
      threshold: { type: 'number', minimum: 0, maximum: 1, default: 0.5, description: 'a confidence in [0, 1]: annotations under it are flagged' },
      review_tier: { type: 'string', minLength: 1, default: 'for-review', description: 'a tier name: where the review candidates go (created when missing)' },
      tier: { type: 'string', minLength: 1, description: 'a tier name: only annotations on this tier are considered (default: every tier)' },
    },
    additionalProperties: false,
  },
  checkParams(params) {
    if (params.tier !== undefined && params.tier === params.review_tier) {
      return [{ path: 'params.tier', message: `is the review tier "${String(params.review_tier)}"; name the tier whose annotations should be reviewed`, keyword: 'semantic' }];
    }
    return [];
  },
  run: (service, params, context) => run(service, params as unknown as Params, context),
};

async function run(service: AnnotationService, params: Params, context: ProcessorContext) {
  const { store } = service;
  if (params.tier !== undefined && !(await store.getTier(params.tier))) {
    throw new AnnotationNotFoundError(`low_confidence_review: tier "${params.tier}" not found; omit tier to consider every tier`);
  }
  let scanned = 0;
  let alreadyFlagged = 0;
  const generatedAt = RationalTime.now(1000);

  const plan = async (): Promise<Mutation[]> => {
    scanned = 0;
    alreadyFlagged = 0;
    const mutations: Mutation[] = [];
    const reviewTierExists = (await store.getTier(params.review_tier)) !== null;
    if (!reviewTierExists) mutations.push({ kind: 'add_tier', tier: makeTier({ name: params.review_tier }) });
    const flagged = new Set<string>();
    if (reviewTierExists) {
      for (const existing of await store.byTier(params.review_tier)) {
        const sourceId = existing.body.source_id;
        if (existing.body_schema_uri === REVIEW_CANDIDATE_SCHEMA_URI && typeof sourceId === 'string') flagged.add(sourceId);
      }
    }
    const source = params.tier !== undefined ? await store.byTier(params.tier) : store.all();
    for await (const annotation of source) {
      context.signal.throwIfAborted();
      if (annotation.tier === params.review_tier) continue;
      scanned++;
      if (scanned % PROGRESS_EVERY === 0) context.onProgress({ phase: 'scan', done: scanned, total: null });
      if (annotation.confidence === null || !(annotation.confidence < params.threshold)) continue;
      if (flagged.has(annotation.id)) {
        alreadyFlagged++;
        continue;
      }
      flagged.add(annotation.id);
      mutations.push({ kind: 'add_annotation', annotation: candidateFor(annotation, params, context.actor, generatedAt) });
    }
    context.onProgress({ phase: 'scan', done: scanned, total: scanned });
    return mutations;
  };

  const applied = await applyPlan(service, context, plan);
  return { flagged: applied.added, already_flagged: alreadyFlagged, scanned, review_tier: params.review_tier, clock: applied.clock };
}

function candidateFor(source: Annotation, params: Params, actor: string, generatedAt: RationalTime): Annotation {
  const reference: Reference =
    source.reference.kind === 'media' ? mediaRef(source.reference.asset_id, source.reference.interval) : annotationRef(source.id);
  return makeAnnotation({
    id: derivedId('review-candidate', params.review_tier, source.id),
    tier: params.review_tier,
    reference,
    body: {
      reason: 'low_confidence',
      source_id: source.id,
      source_tier: source.tier,
      source_confidence: source.confidence,
      threshold: params.threshold,
    },
    body_schema_uri: REVIEW_CANDIDATE_SCHEMA_URI,
    provenance: { was_generated_by: actor, was_attributed_to: actor, was_derived_from: [source.id], generated_at_time: generatedAt },
    confidence: null,
  });
}

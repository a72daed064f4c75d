import { makeAnnotation, mediaRef, type Annotation } from '../model/annotation.js';
import { makeTier } from '../model/tier.js';
import type { Mutation } from '../oplog/mutation.js';
import type { ValidationIssue } from '../schemas/validation-issue.js';
import type { AnnotationService } from '../service/annotation-service.js';
import { AnnotationNotFoundError } from '../store/errors.js';
import { divideRounding, fractionToDecimal, parseSeconds, type Fraction } from '../time/decimal.js';
import { RationalTime } from '../time/rational-time.js';
import { TimeInterval } from '../time/time-interval.js';
import { applyPlan } from './apply-plan.js';
import { derivedId } from './derived-id.js';
import { REVIEW_CANDIDATE_SCHEMA_URI } from './low-confidence-review.js';
import { ProcessorFailedError } from './errors.js';
import type { Processor, ProcessorContext } from './processor.js';

export const DENSITY_CHANGE_POINT_SCHEMA_URI = 'annot://schema/density-change-point/v1';

const PROGRESS_EVERY = 1000;

interface Params {
  readonly asset_id?: string;
  readonly bucket_seconds: string | number;
  readonly min_delta: number;
  readonly target_tier: string;
  readonly tier?: string;
}

/** Annotation starts counted per bucket index, for one asset. */
type Counts = Map<bigint, number>;

/**
 * `detect_density_change_points`: counts the annotations starting in each time bucket
 * `[k·b, (k+1)·b)` (exact rationals: the bucket of a start v/r is floor(v·den / (r·num)) for
 * b = num/den, no floats anywhere), asset by asset, and writes a point annotation at the start of
 * every bucket whose count differs from the bucket before by at least `min_delta`. Buckets are
 * walked from an asset's first non-empty bucket to its last, empty ones counting 0; the first
 * bucket has no bucket before it, so it is never a change point. Review candidates are not
 * counted (each mirrors an annotation that is). Runs are idempotent: a point
 * already on the target tier at the same instant for the same asset is not written again, and a
 * point's id is derived from its tier, asset and instant, so racing workers cannot both write it.
 */
export const densityChangePoints: Processor = {
  name: 'detect_density_change_points',
  description: 'Mark the instants where the number of annotations per time bucket changes by at least min_delta (idempotent)',
  paramsSchema: {
    type: 'object',
    properties: {
      asset_id: { type: 'string', minLength: 1, description: 'an asset id: only annotations on this asset (default: every asset, each counted on its own)' },
      bucket_seconds: {
        type: ['string', 'number'],
        default: '1',
        description: 'a positive bucket length in seconds, exact: a decimal like "0.5" or a ratio like "1/3"',
      },
      min_delta: { type: 'integer', minimum: 1, default: 3, description: 'a positive whole number: the smallest change of count that makes a change point' },
      target_tier: { type: 'string', minLength: 1, default: 'density-change-points', description: 'a tier name: where the change points go (created when missing)' },
      tier: { type: 'string', minLength: 1, description: 'a tier name: only annotations on this tier are counted (default: every tier)' },
    },
    additionalProperties: false,
  },
  checkParams(params) {
    const issues: ValidationIssue[] = [];
    const bucket = bucketOf(params.bucket_seconds as string | number);
    if (typeof bucket === 'string') issues.push({ path: 'params.bucket_seconds', message: bucket, keyword: 'semantic' });
    if (params.tier !== undefined && params.tier === params.target_tier) {
      issues.push({ path: 'params.tier', message: `is the target tier "${String(params.target_tier)}"; name the tier whose annotations should be counted`, keyword: 'semantic' });
    }
    return issues;
  },
  run: (service, params, context) => run(service, params as unknown as Params, context),
};

/** The bucket length as an exact positive fraction, or what is wrong with it. */
function bucketOf(value: string | number): Fraction | string {
  let fraction: Fraction;
  try {
    fraction = parseSeconds(value);
  } catch {
    return `expected a positive number of seconds like "1", "0.25" or "1/3", got ${JSON.stringify(value)}`;
  }
  if (fraction.num <= 0n) return `expected a positive number of seconds, got ${JSON.stringify(value)}`;
  return fraction;
}

async function run(service: AnnotationService, params: Params, context: ProcessorContext) {
  const { store } = service;
  if (params.tier !== undefined && !(await store.getTier(params.tier))) {
    throw new AnnotationNotFoundError(`detect_density_change_points: tier "${params.tier}" not found; omit tier to count every tier`);
  }
  const bucket = bucketOf(params.bucket_seconds) as Fraction;
  const bucketText = fractionToDecimal(bucket.num, bucket.den) ?? `${bucket.num}/${bucket.den}`;
  const generatedAt = RationalTime.now(1000);
  let buckets = 0;
  let alreadyPresent = 0;
  let assets = 0;

  const plan = async (): Promise<Mutation[]> => {
    const counts = new Map<string, Counts>();
    const source = params.tier !== undefined ? await store.byTier(params.tier) : store.all();
    let scanned = 0;
    for await (const annotation of source) {
      context.signal.throwIfAborted();
      if (++scanned % PROGRESS_EVERY === 0) context.onProgress({ phase: 'count', done: scanned, total: null });
      if (annotation.tier === params.target_tier || annotation.reference.kind !== 'media') continue;
      // A review candidate mirrors the annotation it flags; counting it would count that one twice.
      if (annotation.body_schema_uri === REVIEW_CANDIDATE_SCHEMA_URI) continue;
      const { asset_id: asset, interval } = annotation.reference;
      if (params.asset_id !== undefined && asset !== params.asset_id) continue;
      const index = divideRounding(BigInt(interval.start.v) * bucket.den, BigInt(interval.start.r) * bucket.num, 'floor');
      let perAsset = counts.get(asset);
      if (!perAsset) counts.set(asset, (perAsset = new Map()));
      perAsset.set(index, (perAsset.get(index) ?? 0) + 1);
    }
    context.onProgress({ phase: 'count', done: scanned, total: scanned });

    const mutations: Mutation[] = [];
    const targetExists = (await store.getTier(params.target_tier)) !== null;
    if (!targetExists) mutations.push({ kind: 'add_tier', tier: makeTier({ name: params.target_tier }) });
    const present = targetExists ? pointsOn(await store.byTier(params.target_tier)) : new Set<string>();
    buckets = 0;
    alreadyPresent = 0;
    assets = counts.size;
    for (const [asset, perAsset] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const changes = changesOf(perAsset, params.min_delta);
      const indices = [...perAsset.keys()];
      buckets += Number(indices.reduce((max, k) => (k > max ? k : max)) - indices.reduce((min, k) => (k < min ? k : min)) + 1n);
      for (const change of changes) {
        const at = instantOf(change.index, bucket);
        if (present.has(pointKey(asset, at))) {
          alreadyPresent++;
          continue;
        }
        mutations.push({ kind: 'add_annotation', annotation: changePoint(asset, at, change, params, bucketText, context.actor, generatedAt) });
      }
    }
    return mutations;
  };

  const applied = await applyPlan(service, context, plan);
  return {
    change_points: applied.added,
    already_present: alreadyPresent,
    buckets,
    assets,
    bucket_seconds: bucketText,
    target_tier: params.target_tier,
    clock: applied.clock,
  };
}

interface Change {
  readonly index: bigint;
  readonly before: number;
  readonly after: number;
}

/**
 * The buckets whose count differs from the previous bucket's by at least minDelta. Only
 * non-empty buckets are visited: across a run of empty buckets the count can only change where
 * the run starts (down to 0) and where it ends (up from 0), so a sparse timeline with tiny
 * buckets costs no more than a dense one.
 */
export function changesOf(counts: ReadonlyMap<bigint, number>, minDelta: number): Change[] {
  const indices = [...counts.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const changes: Change[] = [];
  const consider = (index: bigint, before: number, after: number) => {
    if (Math.abs(after - before) >= minDelta) changes.push({ index, before, after });
  };
  for (let i = 1; i < indices.length; i++) {
    const previous = indices[i - 1];
    const current = indices[i];
    const before = counts.get(previous) as number;
    const after = counts.get(current) as number;
    if (current === previous + 1n) {
      consider(current, before, after);
    } else {
      consider(previous + 1n, before, 0);
      consider(current, 0, after);
    }
  }
  return changes;
}

/** The start of bucket `index`: index·num/den seconds, exact at rate den. */
function instantOf(index: bigint, bucket: Fraction): RationalTime {
  const ticks = index * bucket.num;
  if (ticks > BigInt(Number.MAX_SAFE_INTEGER) || ticks < BigInt(Number.MIN_SAFE_INTEGER) || bucket.den > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new ProcessorFailedError(`detect_density_change_points: bucket ${index} of ${bucket.num}/${bucket.den} s is too far out to be written as a time`);
  }
  return new RationalTime(Number(ticks), Number(bucket.den));
}

function pointKey(asset: string, at: RationalTime): string {
  return JSON.stringify([asset, at.valueKey()]);
}

/** Assets and instants of the points already on the target tier. */
function pointsOn(annotations: readonly Annotation[]): Set<string> {
  const keys = new Set<string>();
  for (const annotation of annotations) {
    const reference = annotation.reference;
    if (reference.kind === 'media' && reference.interval.isPoint) keys.add(pointKey(reference.asset_id, reference.interval.start));
  }
  return keys;
}

function changePoint(asset: string, at: RationalTime, change: Change, params: Params, bucketText: string, actor: string, generatedAt: RationalTime): Annotation {
  return makeAnnotation({
    id: derivedId('density-change-point', params.target_tier, asset, at.valueKey()),
    tier: params.target_tier,
    reference: mediaRef(asset, TimeInterval.point(at)),
    body: {
      bucket_seconds: bucketText,
      count_before: change.before,
      count_after: change.after,
      delta: change.after - change.before,
      source_tier: params.tier ?? null,
    },
    body_schema_uri: DENSITY_CHANGE_POINT_SCHEMA_URI,
    provenance: { was_generated_by: actor, was_attributed_to: actor, was_derived_from: [], generated_at_time: generatedAt },
    confidence: null,
  });
}

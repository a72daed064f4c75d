import type { Mutation } from '../oplog/mutation.js';
import { assertValidBody } from '../schemas/registry.js';
import type { AnnotationService } from '../service/annotation-service.js';
import { DuplicateAnnotationIdError } from '../store/errors.js';
import type { ProcessorContext } from './processor.js';

/** Mutations per logged batch: one batch for ordinary runs, bounded transactions for huge ones. */
export const PLAN_BATCH_SIZE = 10_000;

/** Plans made before giving up when other writers keep taking the same work. */
const MAX_PLANS = 3;

export interface AppliedPlan {
  /** The clock of the last entry written, or the store's latest clock when nothing was written. */
  readonly clock: number;
  /** How many annotations this run added. */
  readonly added: number;
}

/**
 * Writes what `plan` decides, through the service (so it is in the op-log), as one logged batch
 * per PLAN_BATCH_SIZE mutations. Processors derive their annotation ids from what the
 * annotations are about, so when another worker wrote the same annotations between planning and
 * writing, the store refuses the batch as a duplicate id; the plan is then made again from the
 * store as it now is, and finds only what is still missing.
 */
export async function applyPlan(
  service: AnnotationService,
  context: ProcessorContext,
  plan: () => Promise<readonly Mutation[]>,
): Promise<AppliedPlan> {
  let added = 0;
  for (let attempt = 1; ; attempt++) {
    context.signal.throwIfAborted();
    const mutations = await plan();
    // The service checks bodies of annotations it builds from wire input; planned ones are checked here.
    for (const mutation of mutations) if (mutation.kind === 'add_annotation') assertValidBody(mutation.annotation.body_schema_uri, mutation.annotation.body);
    try {
      let clock: number | undefined;
      for (let from = 0; from < mutations.length; from += PLAN_BATCH_SIZE) {
        context.signal.throwIfAborted();
        const batch = mutations.slice(from, from + PLAN_BATCH_SIZE);
        clock = await service.apply(batch, context.actor);
        added += batch.filter((mutation) => mutation.kind === 'add_annotation').length;
        context.onProgress({ phase: 'write', done: Math.min(from + PLAN_BATCH_SIZE, mutations.length), total: mutations.length });
      }
      return { clock: clock ?? (await service.latestClock()), added };
    } catch (error) {
      if (!(error instanceof DuplicateAnnotationIdError) || attempt >= MAX_PLANS) throw error;
    }
  }
}

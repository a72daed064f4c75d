import type { Annotation } from '../model/annotation.js';
import type { Tier } from '../model/tier.js';

/**
 * A change to a store, as data. Every mutation a surface makes (HTTP, MCP, CLI import,
 * processors) is one of these, applied by the store together with its op-log entry in one
 * transaction, so the log and the data never disagree.
 */
export type Mutation =
  | {
      /** Registers a tier, or replaces the one of the same name. */
      readonly kind: 'add_tier';
      /** The tier. */
      readonly tier: Tier;
      /** See AddTierOptions.enforceNoOverlap. */
      readonly enforceNoOverlap?: boolean;
    }
  | {
      /** Adds an annotation. */
      readonly kind: 'add_annotation';
      /** The annotation. */
      readonly annotation: Annotation;
    }
  | {
      /** Replaces the annotation with the same id. */
      readonly kind: 'update_annotation';
      /** The annotation as it is to be. */
      readonly annotation: Annotation;
      /** The ETag the writer read; checked inside the transaction (PreconditionFailedError). */
      readonly ifMatch?: string;
    }
  | {
      /** Removes an annotation. */
      readonly kind: 'delete_annotation';
      /** Its id. */
      readonly id: string;
      /** The ETag the writer read; checked inside the transaction (PreconditionFailedError). */
      readonly ifMatch?: string;
    }
  | {
      /** Sets a metadata value of the store. */
      readonly kind: 'set_meta';
      /** Its key. */
      readonly key: string;
      /** Its value. */
      readonly value: string;
    };

/** The kinds of Mutation. */
export type MutationKind = Mutation['kind'];

export const MUTATION_KINDS: readonly MutationKind[] = Object.freeze(['add_tier', 'add_annotation', 'update_annotation', 'delete_annotation', 'set_meta']);

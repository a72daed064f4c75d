import type { Annotation } from '../model/annotation.js';
import type { Tier } from '../model/tier.js';

/**
 * A change to a store, as data. Every mutation a surface makes (HTTP, MCP, CLI import,
 * processors) is one of these, applied by the store together with its op-log entry in one
 * transaction, so the log and the data never disagree.
 */
export type Mutation =
  | { readonly kind: 'add_tier'; readonly tier: Tier; readonly enforceNoOverlap?: boolean }
  | { readonly kind: 'add_annotation'; readonly annotation: Annotation }
  /** Replaces the annotation with the same id. `ifMatch`: the ETag the writer read; checked inside the transaction. */
  | { readonly kind: 'update_annotation'; readonly annotation: Annotation; readonly ifMatch?: string }
  | { readonly kind: 'delete_annotation'; readonly id: string; readonly ifMatch?: string }
  | { readonly kind: 'set_meta'; readonly key: string; readonly value: string };

export type MutationKind = Mutation['kind'];

export const MUTATION_KINDS: readonly MutationKind[] = Object.freeze(['add_tier', 'add_annotation', 'update_annotation', 'delete_annotation', 'set_meta']);

import { checkAnnotationBounds, checkTierBounds } from '../model/bounds.js';
import { checkMetaEntry } from '../model/limits.js';
import type { Mutation } from '../oplog/mutation.js';

/**
 * Holds every name and text a batch would keep to the model's LIMITS, before anything is
 * applied: annotations and tiers that did not come through makeAnnotation or makeTier (a
 * processor's, an import's, a library caller's) are refused as the wire forms are.
 */
export function checkMutationBounds(mutations: readonly Mutation[]): void {
  for (const mutation of mutations) {
    switch (mutation.kind) {
      case 'add_tier':
        checkTierBounds(mutation.tier);
        break;
      case 'add_annotation':
      case 'update_annotation':
        checkAnnotationBounds(mutation.annotation);
        break;
      case 'set_meta':
        checkMetaEntry(mutation.key, mutation.value);
        break;
      case 'delete_annotation':
        break;
    }
  }
}

import { annotationEtag, ifMatchSatisfied } from '../digest/etag.js';
import { AnnotationNotFoundError } from '../store/errors.js';
import type { AnnotationStore } from '../store/store.js';
import { PreconditionFailedError } from './errors.js';
import type { Mutation } from './mutation.js';

/**
 * Applies one mutation through the plain store contract. Stores use it inside their own
 * transaction; replay uses it on a fresh memory store. An `ifMatch` precondition is checked
 * against the annotation as it is now, so a stale writer loses and nothing changes.
 */
export async function applyMutation(store: AnnotationStore, mutation: Mutation): Promise<void> {
  switch (mutation.kind) {
    case 'add_tier':
      return store.addTier(mutation.tier, { enforceNoOverlap: mutation.enforceNoOverlap });
    case 'add_annotation':
      return store.add(mutation.annotation);
    case 'update_annotation': {
      if (mutation.ifMatch !== undefined) await checkPrecondition(store, mutation.annotation.id, mutation.ifMatch);
      return store.update(mutation.annotation);
    }
    case 'delete_annotation': {
      if (mutation.ifMatch !== undefined) await checkPrecondition(store, mutation.id, mutation.ifMatch);
      const removed = await store.delete(mutation.id);
      if (!removed) throw new AnnotationNotFoundError(`annotation ${mutation.id} not found`);
      return;
    }
    case 'set_meta':
      return store.setMeta(mutation.key, mutation.value);
  }
}

async function checkPrecondition(store: AnnotationStore, id: string, ifMatch: string): Promise<void> {
  const current = await store.get(id);
  if (!current) throw new AnnotationNotFoundError(`annotation ${id} not found`);
  const etag = annotationEtag(current);
  if (!ifMatchSatisfied(ifMatch, etag)) throw new PreconditionFailedError(id, etag, ifMatch);
}

import { annotationEtag, ifMatchSatisfied } from '../digest/etag.js';
import type { Annotation } from '../model/annotation.js';
import { AnnotationNotFoundError, DuplicateAnnotationIdError, UnknownTierError } from '../store/errors.js';
import type { AnnotationStore } from '../store/store.js';
import { PreconditionFailedError } from './errors.js';
import type { Mutation } from './mutation.js';

/**
 * Checks that a whole batch of mutations will succeed, in order, before any of them is applied:
 * stores without transactions (memory, mapping) apply a batch only after this passes, which
 * makes the batch all or nothing. Each check sees the effects of the mutations before it.
 */
export async function checkBatch(store: AnnotationStore, mutations: readonly Mutation[]): Promise<void> {
  const annotations = new Map<string, Annotation | null>();
  const tiers = new Set<string>();
  const current = async (id: string): Promise<Annotation | null> => (annotations.has(id) ? annotations.get(id)! : await store.get(id));
  const tierExists = async (name: string): Promise<boolean> => tiers.has(name) || (await store.getTier(name)) !== null;

  for (const mutation of mutations) {
    switch (mutation.kind) {
      case 'add_tier':
        if (mutation.tier.parent !== null && !(await tierExists(mutation.tier.parent))) {
          throw new UnknownTierError(`tier "${mutation.tier.name}" names parent "${mutation.tier.parent}", which is not registered; add the parent first`);
        }
        tiers.add(mutation.tier.name);
        break;
      case 'add_annotation':
        if (await current(mutation.annotation.id)) throw new DuplicateAnnotationIdError(`annotation id ${mutation.annotation.id} is already in the store`);
        if (!(await tierExists(mutation.annotation.tier))) throw unknownTier(mutation.annotation);
        annotations.set(mutation.annotation.id, mutation.annotation);
        break;
      case 'update_annotation': {
        const before = await existing(current, mutation.annotation.id);
        if (mutation.ifMatch !== undefined) precondition(before, mutation.ifMatch);
        if (!(await tierExists(mutation.annotation.tier))) throw unknownTier(mutation.annotation);
        annotations.set(mutation.annotation.id, mutation.annotation);
        break;
      }
      case 'delete_annotation': {
        const before = await existing(current, mutation.id);
        if (mutation.ifMatch !== undefined) precondition(before, mutation.ifMatch);
        annotations.set(mutation.id, null);
        break;
      }
      case 'set_meta':
        break;
    }
  }
}

async function existing(current: (id: string) => Promise<Annotation | null>, id: string): Promise<Annotation> {
  const annotation = await current(id);
  if (!annotation) throw new AnnotationNotFoundError(`annotation ${id} not found`);
  return annotation;
}

function precondition(annotation: Annotation, ifMatch: string): void {
  const etag = annotationEtag(annotation);
  if (!ifMatchSatisfied(ifMatch, etag)) throw new PreconditionFailedError(annotation.id, etag, ifMatch);
}

function unknownTier(annotation: Annotation): UnknownTierError {
  return new UnknownTierError(`annotation ${annotation.id} names tier "${annotation.tier}", which is not registered; add the tier first`);
}

import type { ReadForm, ReadItem, ReadPage } from '../store/read-page.js';
import type { AnnotationStore } from '../store/store.js';
import type { ReadRequest } from './read-request.js';
import { requireTier } from './tier-lookup.js';

/**
 * One page of a parsed read (read-request.ts), the surfaces' one read path: a tier the store
 * does not have is a TierNotFoundError naming the tiers there are (a silent empty answer would
 * read as "no annotations"), and the page is the store's keyset page. `where` names the store in
 * that message (a file name, "the store").
 */
export async function readPage<F extends ReadForm>(store: AnnotationStore, request: ReadRequest, form: F, where: string): Promise<ReadPage<ReadItem<F>>> {
  if (request.query.tier !== undefined) await requireTier(store, request.query.tier, where);
  return store.read(request.query, { after: request.after, limit: request.limit, form });
}

/** Every page of a read, from its cursor (or the first page) until there is no next: how the CLI streams. */
export async function* readPages<F extends ReadForm>(store: AnnotationStore, request: ReadRequest, form: F, where: string): AsyncGenerator<ReadItem<F>[]> {
  let after = request.after;
  do {
    const page: ReadPage<ReadItem<F>> = await readPage(store, { ...request, after }, form, where);
    yield page.items;
    after = page.next;
  } while (after !== null);
}

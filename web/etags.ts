// The ETag of the version of an annotation on screen, which every edit sends as If-Match.
import type { Item } from './model.js';
import type { PageContext } from './page-context.js';
import type { AnnotationWire } from './wire.js';

/**
 * The fetches under way, one per item: a selection and the editor opened by the same double click
 * both ask, and a second GET answered after someone else's change would hand the editor the ETag
 * of a version the user never saw, so that its save overwrote that change instead of meeting a 412.
 */
const fetching = new WeakMap<Item, Promise<string>>();

/** The item's ETag; fetched (GET) when the listing did not carry one. */
export function ensureEtag(ctx: Pick<PageContext, 'api' | 'model'>, item: Item): Promise<string> {
  if (item.etag !== null) return Promise.resolve(item.etag);
  let etag = fetching.get(item);
  if (etag === undefined) {
    etag = fetchEtag(ctx, item).finally(() => fetching.delete(item));
    fetching.set(item, etag);
  }
  return etag;
}

async function fetchEtag(ctx: Pick<PageContext, 'api' | 'model'>, item: Item): Promise<string> {
  const answer = await ctx.api.request<AnnotationWire>('GET', `/annotations/${encodeURIComponent(item.wire.id)}`);
  if (ctx.model.items.has(item.wire.id)) ctx.model.upsert(answer.value, answer.etag);
  return answer.etag ?? '';
}

/** The same, with a rejection already handled, for an edit that awaits it later. */
export function etagFor(ctx: Pick<PageContext, 'api' | 'model'>, item: Item): Promise<string> {
  const etag = ensureEtag(ctx, item);
  etag.catch(() => undefined);
  return etag;
}

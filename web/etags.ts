// The ETag of the version of an annotation on screen, which every edit sends as If-Match.
import type { Item } from './model.js';
import type { PageContext } from './page-context.js';
import type { AnnotationWire } from './wire.js';

/** The item's ETag; fetched (GET) when the listing did not carry one. */
export async function ensureEtag(ctx: Pick<PageContext, 'api' | 'model'>, item: Item): Promise<string> {
  if (item.etag !== null) return item.etag;
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

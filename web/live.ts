// Loading the store and following the op-log stream, so edits from anywhere show at once.
import type { PageContext } from './page-context.js';
import type { AnnotationWire, StreamedEntry, TierWire } from './wire.js';

/** The largest page of annotations a list request may ask for (the server's MAX_LIST_LIMIT). */
const PAGE_LIMIT = 100_000;

/** What the page does when the stream changes the selected annotation. */
export interface LiveHooks {
  changed(id: string): void;
  deleted(id: string): void;
}

/** Loads every tier and annotation; returns the clock to follow the stream from. */
export async function load(ctx: PageContext): Promise<number> {
  ctx.status('loading…', 'busy');
  // The clock first: the stream then starts right after it, and entries applied twice are harmless.
  const { value: latest } = await ctx.api.request<{ clock: number }>('GET', '/oplog/latest-clock');
  const { value: tiers } = await ctx.api.request<TierWire[]>('GET', '/tiers');
  ctx.model.setTiers(tiers);
  for (const tier of tiers) {
    // A tier of any size: follow the listing's `Link: <…>; rel="next"` cursor until it ends.
    let path: string | undefined = `/annotations?tier=${encodeURIComponent(tier.name)}&limit=${PAGE_LIMIT}`;
    while (path !== undefined) {
      const answer: { value: AnnotationWire[]; headers: Headers } = await ctx.api.request<AnnotationWire[]>('GET', path);
      ctx.model.load(answer.value);
      path = nextPage(answer.headers.get('Link'));
    }
  }
  ctx.model.clock = latest.clock;
  ctx.status(`${ctx.model.items.size} annotations`);
  return latest.clock;
}

/** The path of the next page named by a `Link` header, if there is one. */
function nextPage(link: string | null): string | undefined {
  const match = link?.match(/<([^>]+)>\s*;\s*rel="next"/);
  return match ? match[1] : undefined;
}

export function follow(ctx: PageContext, after: number, hooks: LiveHooks): EventSource {
  const stream = new EventSource(ctx.api.withToken(`/oplog/stream?from_clock=${after + 1}`));
  const live = () => ctx.status(`live · clock ${ctx.model.clock} · ${ctx.model.items.size} annotations`);
  stream.onopen = live;
  stream.onmessage = (message) => {
    apply(ctx, JSON.parse(message.data) as StreamedEntry, hooks);
    live();
  };
  stream.onerror = () => ctx.status('stream interrupted, reconnecting…', 'busy');
  return stream;
}

function apply(ctx: PageContext, entry: StreamedEntry, hooks: LiveHooks): void {
  const { model } = ctx;
  if (entry.clock <= model.clock) return;
  model.clock = entry.clock;
  switch (entry.kind) {
    case 'add_tier':
      model.upsertTier(entry.payload.tier as unknown as TierWire);
      break;
    case 'add_annotation':
    case 'update_annotation': {
      const wire = entry.payload.annotation as unknown as AnnotationWire;
      if (!model.isNewer(wire.id, entry.clock)) break; // The page's own save, already applied (or undone since).
      model.heldAt(wire.id, entry.clock);
      const item = model.upsert(wire, entry.etag ?? null);
      hooks.changed(item.wire.id);
      break;
    }
    case 'delete_annotation': {
      const id = String(entry.target_id);
      if (!model.isNewer(id, entry.clock)) break;
      model.heldAt(id, entry.clock);
      model.remove(id);
      hooks.deleted(id);
      break;
    }
    case 'set_meta':
      break;
  }
}

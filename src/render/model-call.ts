import { assetStoreFor, extensionOf, type AssetStore } from './assets.js';
import { defaultCacheDir, openRenderCache, type RenderCache } from './cache.js';
import { emitSafely, type RenderEvent, type RenderEventListener } from './events.js';
import { RenderAbortedError } from './errors.js';
import { callKey, sha256Hex } from './hashing.js';
import { defaultProvider } from './provider-choice.js';
import { localPendingRequests, type PendingRequests } from './pending-requests.js';
import type { Asset, Provider } from './providers/provider.js';
import type { RemoteCache } from './remote/remote-cache.js';
import type { UnitExecutor } from './unit-executor.js';

/** Options every render operation shares. */
export interface CommonRenderOptions {
  /** Where model calls go; default the fal provider. */
  provider?: Provider;
  /** fal queue base URL for the default provider (else FAL_QUEUE_URL, else https://queue.fal.run). */
  falBaseUrl?: string;
  /** Cache directory (else ANNOT_CACHE_DIR, $XDG_CACHE_HOME/annot, ~/.cache/annot). */
  cacheDir?: string;
  /** Bypass the unit and call caches; every model call is made again. */
  force?: boolean;
  /** Told about render events as they happen. */
  onEvent?: RenderEventListener;
  /** Aborting cancels queued model requests and rejects with RenderAbortedError. */
  signal?: AbortSignal;
  /**
   * Keep a local copy of every asset in the cache directory's content-addressed store and record
   * `sha256`/`path` (and `audio_`, `video_`, `still_` pairs) beside each url (see assets.ts).
   * The CLI always turns this on. Default false.
   */
  durableAssets?: boolean;
  /**
   * The shared tier behind the local cache (remote/open-remote-cache.ts): looked up after a local
   * miss, written after a fresh render (unless its mode is `read`). Turns durableAssets on.
   */
  remoteCache?: RemoteCache;
  /** Where submitted requests are recorded until collected; default this machine's cache file. */
  pendingRequests?: PendingRequests;
  /** Renders a unit neither cache holds somewhere else (the render workers: farm/farm-client.ts); default here. */
  executor?: UnitExecutor;
}

/** What one unit render works with. */
export interface UnitContext {
  cache: RenderCache;
  provider: Provider;
  force: boolean;
  signal?: AbortSignal;
  emit: (event: RenderEvent) => void;
  /** The durable asset store, when durableAssets is on. */
  assets?: AssetStore;
  remote?: RemoteCache;
  pending: PendingRequests;
  executor?: UnitExecutor;
}

/** The context of one unit's render, with the provider its operation resolved (see resolveProvider). */
export function unitContext(options: CommonRenderOptions & { provider: Provider }, unit: { kind: 'shot' | 'beat'; id: string }): UnitContext {
  const listener = options.onEvent;
  const cache = openRenderCache(options.cacheDir);
  return {
    cache,
    provider: options.provider,
    force: options.force ?? false,
    signal: options.signal,
    emit: (event) => emitSafely(listener, { ...event, unit }),
    // The shared tier and the workers move media as bytes, so they need the local copies.
    assets: options.durableAssets || options.remoteCache || options.executor ? assetStoreFor(options.cacheDir ?? defaultCacheDir()) : undefined,
    remote: options.remoteCache,
    pending: options.pendingRequests ?? localPendingRequests(cache),
    executor: options.executor,
  };
}

/** The provider a render operation uses: the caller's, else the default (fal). Resolved once per operation. */
export function resolveProvider(options: CommonRenderOptions): Provider {
  return options.provider ?? defaultProvider(options);
}

/**
 * One model call through the call cache. `derived` names the arguments that are outputs of an
 * earlier call, with their content references (`sha256:<hex>`): the key uses those instead of
 * the URLs, because fal mints a new URL for every upload. A request submitted by an earlier,
 * interrupted render of the same call is resumed rather than paid for again; one that failed
 * or that fal no longer knows is forgotten (the provider says so through onDropped) and the
 * call submitted afresh. The ticket is recorded under the call's own key, so only this same
 * call ever resumes it.
 */
export async function callModel(
  ctx: UnitContext,
  modelId: string,
  args: Record<string, unknown>,
  derived: Record<string, string> = {},
): Promise<Asset[]> {
  if (ctx.signal?.aborted) throw new RenderAbortedError(`the call to ${modelId}`);
  const key = callKey(ctx.provider.name, modelId, { ...args, ...derived });
  if (!ctx.force) {
    const hit = ctx.cache.getCall(key);
    if (hit) {
      ctx.emit({ type: 'cache_hit', model_id: modelId, whole_unit: false });
      return hit;
    }
  }
  const resume = ctx.force ? undefined : await ctx.pending.get(key);
  let requestId: string | null = resume?.request_id ?? null;
  let dropping: Promise<void> = Promise.resolve();
  const assets = await ctx.provider.run(modelId, args, {
    signal: ctx.signal,
    force: ctx.force,
    onEvent: ctx.emit,
    resume,
    onSubmitted: async (ticket) => {
      requestId = ticket.request_id ?? null;
      await ctx.pending.record(key, ctx.provider.name, modelId, ticket);
    },
    // The request failed, was cancelled or expired: the next render submits the call afresh.
    onDropped: () => {
      requestId = null;
      dropping = ctx.pending.forget(key).catch(() => undefined);
    },
  });
  await dropping;
  ctx.cache.putCall(key, ctx.provider.name, modelId, args, assets, requestId);
  await ctx.pending.forget(key);
  return assets;
}

/** `sha256:<hex>` of an asset's bytes, downloaded once per URL. */
export async function contentRef(ctx: UnitContext, url: string): Promise<string> {
  let digest = ctx.cache.assetDigest(url);
  if (!digest) {
    const bytes = await ctx.provider.fetchAsset(url, { signal: ctx.signal });
    // With durable assets the download is kept, so the result's copy costs no second download.
    digest = ctx.assets ? ctx.assets.put(bytes, extensionOf(url)).sha256 : sha256Hex(bytes);
    ctx.cache.recordAssetDigest(url, digest);
  }
  return `sha256:${digest}`;
}

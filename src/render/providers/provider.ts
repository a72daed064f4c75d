import type { RenderEvent } from '../events.js';

/** One media output of a model call. */
export interface Asset {
  /** The asset's URL. */
  url: string;
  /** Its media type, when the provider said. */
  content_type?: string;
  /** Its width in pixels, for an image or video. */
  width?: number;
  /** Its height in pixels, for an image or video. */
  height?: number;
  /** Its duration in seconds, for audio or video. */
  duration_s?: number;
  /** The output key it came from (`images`, `audio`, `video`, ...). */
  kind?: 'image' | 'video' | 'audio';
}

/**
 * Where a submitted request can be found again. Recorded in the cache right after submission,
 * so a render interrupted while waiting resumes by fetching this request's result instead of
 * paying for the work twice. Providers that finish synchronously never produce one.
 */
export type RequestTicket = Record<string, string>;

/** Options of Provider.run. */
export interface ProviderRunOptions {
  /** Aborting cancels the request (RenderAbortedError). */
  signal?: AbortSignal;
  /** Passed through for providers with their own caches; fal has none to bypass. */
  force?: boolean;
  /** Provider-level events (queued, progress, log, done, error) for this call. */
  onEvent?: (event: RenderEvent) => void;
  /** A request submitted earlier for the same call: wait for it instead of submitting again. */
  resume?: RequestTicket;
  /** Called as soon as the request is submitted; waited for before waiting for the request, so the record is kept first. */
  onSubmitted?: (ticket: RequestTicket) => void | Promise<void>;
  /**
   * Called when the submitted (or resumed) request will never produce a result: it failed, was
   * cancelled, or fal no longer knows it. Its ticket must then be forgotten, so that the next
   * render submits the call afresh instead of resuming a dead request.
   */
  onDropped?: () => void;
}

/**
 * A generation backend. `run` calls one model and returns its media assets (empty when the
 * model produced none); `fetchAsset` reads an asset's bytes, which the renderer hashes so that
 * downstream calls are keyed by content rather than by URL.
 */
export interface Provider {
  /** Part of every unit hash, so the output of one provider is never served as another's. */
  readonly name: string;
  /**
   * Where the media come from (fal: its queue's origin): part of every key in the shared cache, so
   * a fake or staging server never fills it with media a real render would reuse. Default: the name.
   */
  readonly origin?: string;
  /** Calls a model with arguments and gives back the assets it made. */
  run(modelId: string, args: Record<string, unknown>, options?: ProviderRunOptions): Promise<Asset[]>;
  /** The bytes of an asset the provider made. */
  fetchAsset(url: string, options?: { signal?: AbortSignal }): Promise<Uint8Array>;
}

/**
 * The media assets of a model response, scanning the keys fal models use, in this order:
 * images, image, videos, video, audios, audio, audio_url. Each value may be one item or a list;
 * an item is a URL string or a File object `{url, content_type, ...}`. Items without a URL are
 * not assets.
 */
export function assetsOf(output: unknown): Asset[] {
  if (!output || typeof output !== 'object') return [];
  const keys: Array<[string, Asset['kind']]> = [
    ['images', 'image'],
    ['image', 'image'],
    ['videos', 'video'],
    ['video', 'video'],
    ['audios', 'audio'],
    ['audio', 'audio'],
    ['audio_url', 'audio'],
  ];
  const assets: Asset[] = [];
  for (const [key, kind] of keys) {
    const value = (output as Record<string, unknown>)[key];
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      const asset = assetOf(item, kind);
      if (asset) assets.push(asset);
    }
  }
  return assets;
}

function assetOf(item: unknown, kind: Asset['kind']): Asset | undefined {
  if (typeof item === 'string') return item ? { url: item, kind } : undefined;
  if (!item || typeof item !== 'object') return undefined;
  const file = item as Record<string, unknown>;
  if (typeof file.url !== 'string' || file.url === '') return undefined;
  const asset: Asset = { url: file.url, kind };
  if (typeof file.content_type === 'string') asset.content_type = file.content_type;
  if (typeof file.width === 'number') asset.width = file.width;
  if (typeof file.height === 'number') asset.height = file.height;
  if (typeof file.duration === 'number') asset.duration_s = file.duration;
  return asset;
}

import type { FastifyInstance } from 'fastify';
import { defaultCacheDir } from '../../io/cache-dir.js';
import type { RouteContext } from '../route-context.js';
import { registerMediaRoutes } from './media.js';
import { registerPeaksRoute } from './media-peaks.js';
import { registerOpLogStreamRoutes, type OpLogStreamOptions } from './oplog-stream.js';
import { registerPageRoutes } from './page.js';

/** What `annot serve` tells the live routes: the media to play, and the stream's pace (tests shorten it). */
export interface LiveOptions extends OpLogStreamOptions {
  /** A local media file served at /media and played by the page. */
  readonly media?: string;
  /** Where the media's peaks are kept (default: the cache folder, ANNOT_CACHE_DIR or ~/.cache/annot). */
  readonly cacheDir?: string;
}

/** The timeline page at `/`, its assets, the op-log as Server-Sent Events, the media and its peaks. */
export function registerLiveRoutes(app: FastifyInstance, context: RouteContext, options: LiveOptions = {}): void {
  registerOpLogStreamRoutes(app, context, options);
  registerMediaRoutes(app, options.media);
  registerPeaksRoute(app, { media: options.media, cacheDir: options.cacheDir ?? defaultCacheDir(), log: context.log });
  registerPageRoutes(app, { media: options.media });
}

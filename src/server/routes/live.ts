import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../route-context.js';
import { registerMediaRoutes } from './media.js';
import { registerOpLogStreamRoutes, type OpLogStreamOptions } from './oplog-stream.js';
import { registerPageRoutes } from './page.js';

/** What `annot serve` tells the live routes: the media to play, and the stream's pace (tests shorten it). */
export interface LiveOptions extends OpLogStreamOptions {
  /** A local media file served at /media and played by the page. */
  readonly media?: string;
}

/** The timeline page at `/`, its assets, the op-log as Server-Sent Events and the media. */
export function registerLiveRoutes(app: FastifyInstance, context: RouteContext, options: LiveOptions = {}): void {
  registerOpLogStreamRoutes(app, context, options);
  registerMediaRoutes(app, options.media);
  registerPageRoutes(app, { media: options.media });
}

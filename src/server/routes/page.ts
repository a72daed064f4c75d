import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { RouteNotFoundError } from '../errors.js';
import { mediaFrameDuration } from '../page/media-frame-duration.js';
import type { PageConfig } from '../page/page-config.js';
import { pageHtml } from '../page/page-html.js';
import { NO_QUERY, publicErrors, routeSchema } from '../route-schema.js';
import { mediaElementOf } from './media.js';

/** The page's assets: the compiled browser code (tsconfig.page.json) and its stylesheet. */
const ASSET_NAME = /^[a-z0-9-]+\.(js|css)$/;
const ASSET_TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

/**
 * `GET /` is the timeline page; `GET /page/<file>` its scripts and stylesheet, served from the
 * package (dist/web/, built from web/), never from a CDN, so the page works offline.
 */
export function registerPageRoutes(app: FastifyInstance, { media }: { media?: string }): void {
  // Built on the first request: the media's frame rate is probed only when someone opens the page.
  let html: Promise<string> | undefined;
  app.get('/', {
    schema: routeSchema('the timeline page: lanes per tier, live edits, media playback', {
      security: [],
      querystring: NO_QUERY,
      response: { 200: { description: 'HTML', content: { 'text/html': { schema: { type: 'string' } } } }, ...publicErrors(400) },
    }),
  }, async (_request, reply) => {
    html ??= pageConfig(media).then((config) => pageHtml(readFileSync(join(pageAssetDir(), 'index.html'), 'utf8'), config));
    html.catch(() => (html = undefined));
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(await html);
  });

  const assets = new Map<string, Buffer>();
  app.get<{ Params: { file: string } }>('/page/:file', {
    schema: routeSchema('a script or stylesheet of the timeline page, served from the package', {
      security: [],
      params: { type: 'object', required: ['file'], properties: { file: { type: 'string', pattern: ASSET_NAME.source } } },
      querystring: NO_QUERY,
      response: {
        200: { description: 'the asset', content: { 'text/javascript': { schema: { type: 'string' } }, 'text/css': { schema: { type: 'string' } } } },
        ...publicErrors(400, 404),
      },
    }),
  }, async (request, reply) => {
    const { file } = request.params;
    const type = ASSET_TYPES[file.slice(file.lastIndexOf('.'))];
    if (!ASSET_NAME.test(file) || type === undefined) throw new RouteNotFoundError(`no page asset ${file}`);
    let content = assets.get(file);
    if (content === undefined) {
      const path = join(pageAssetDir(), file);
      if (!existsSync(path)) throw new RouteNotFoundError(`no page asset ${file}`);
      content = readFileSync(path);
      assets.set(file, content);
    }
    return reply.type(type).header('Cache-Control', 'no-cache').send(content);
  });
}

async function pageConfig(media: string | undefined): Promise<PageConfig> {
  if (media === undefined) return { media: null };
  const element = mediaElementOf(media);
  const frameDuration = element === 'video' ? await mediaFrameDuration(media) : undefined;
  return { media: { url: '/media', element, frame_duration: frameDuration ?? null } };
}

let assetDir: string | undefined;

/**
 * dist/web/ of this package. The module runs from dist/src/server/routes/ when built and from
 * src/server/routes/ under jest, so we walk up to the folder that holds dist/web/app.js.
 */
function pageAssetDir(): string {
  if (assetDir !== undefined) return assetDir;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'dist', 'web');
    if (existsSync(join(candidate, 'app.js'))) return (assetDir = candidate);
    const parent = dirname(dir);
    if (parent === dir) throw new RouteNotFoundError('the timeline page is not built (dist/web/app.js is missing): run npm run build');
    dir = parent;
  }
}

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { RouteNotFoundError } from '../errors.js';
import { pageHtml } from '../page/page-html.js';
import { QueryParams } from '../query-params.js';
import { routeDoc } from './route-doc.js';
import { mediaElementOf } from './media.js';

/** The page's assets: the compiled browser code (tsconfig.page.json) and its stylesheet. */
const ASSET_TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

/**
 * `GET /` is the timeline page; `GET /page/<file>` its scripts and stylesheet, served from the
 * package (dist/page/), never from a CDN, so the page works offline.
 */
export function registerPageRoutes(app: FastifyInstance, { media }: { media?: string }): void {
  const html = pageHtml({ media: media === undefined ? null : { url: '/media', element: mediaElementOf(media) } });
  app.get('/', { schema: routeDoc('the timeline page (HTML)') }, async (request, reply) => {
    QueryParams.of(request.query, []);
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(html);
  });

  const assets = new Map<string, Buffer>();
  app.get<{ Params: { file: string } }>('/page/:file', { schema: routeDoc('a script or stylesheet of the timeline page') }, async (request, reply) => {
    QueryParams.of(request.query, []);
    const { file } = request.params;
    const type = ASSET_TYPES[file.slice(file.lastIndexOf('.'))];
    if (!/^[a-z0-9-]+\.(js|css)$/.test(file) || type === undefined) throw new RouteNotFoundError(`no page asset ${file}`);
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

let assetDir: string | undefined;

/**
 * dist/page/ of this package. The module runs from dist/src/server/routes/ when built and from
 * src/server/routes/ under jest, so we walk up to the folder that holds dist/page/app.js.
 */
function pageAssetDir(): string {
  if (assetDir !== undefined) return assetDir;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'dist', 'page');
    if (existsSync(join(candidate, 'app.js'))) return (assetDir = candidate);
    const parent = dirname(dir);
    if (parent === dir) throw new RouteNotFoundError('the timeline page is not built (dist/page/app.js is missing): run npm run build');
    dir = parent;
  }
}

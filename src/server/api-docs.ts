import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/** Where the human page of the OpenAPI document lives. */
export const DOCS_PREFIX = '/docs';

/**
 * The OpenAPI document at /openapi.json and its human page at /docs (Swagger UI). The page and its
 * scripts, styles and icons are served from the @fastify/swagger-ui package itself, so the docs
 * work with no network; nothing is fetched from a CDN, and the online validator is off.
 */
export async function registerApiDocs(app: FastifyInstance, document: Record<string, unknown>): Promise<void> {
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiConfig: { validatorUrl: null, deepLinking: true },
    staticCSP: true,
    transformStaticCSP: (header) => header.replace(' upgrade-insecure-requests;', ''),
  });
  app.get('/openapi.json', async () => app.swagger());
}

/**
 * Whether a route belongs to the docs page rather than to the API (the API's own document, /openapi.json,
 * does not list them).
 */
export function isDocsRoute(route: string): boolean {
  return route === DOCS_PREFIX || route.startsWith(`${DOCS_PREFIX}/`);
}

/**
 * Routes of the docs page anyone may fetch on a server with a token: the page, its scripts, styles
 * and icons are the package's own files and hold no data. The document itself (./json, ./yaml)
 * needs the token, as /openapi.json does.
 */
export function isDocsAssetRoute(route: string): boolean {
  return isDocsRoute(route) && route !== `${DOCS_PREFIX}/json` && route !== `${DOCS_PREFIX}/yaml`;
}

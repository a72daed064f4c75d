import { makeScratchFolder, removeScratchFolder } from '../io/temporary-files.js';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AnnotationService } from '../service/annotation-service.js';
import { traceHttpRequests } from '../telemetry/http-server-spans.js';
import { isDocsAssetRoute, registerApiDocs } from './api-docs.js';
import { bearerChecker, PUBLIC_PATHS, WWW_AUTHENTICATE_REALM } from './auth.js';
import { httpFailure, RouteNotFoundError } from './errors.js';
import { authorizationOf, PAGE_PATHS } from './page/page-auth.js';
import { requestValidatorCompiler } from './request-validator.js';
import type { RouteContext } from './route-context.js';
import { registerAnnotationRoutes } from './routes/annotations.js';
import { registerFormatRoutes } from './routes/formats.js';
import { registerHealthRoutes } from './routes/health.js';
import { registerImportExportRoutes } from './routes/import-export.js';
import { registerMetaRoutes } from './routes/meta.js';
import { registerRetimeRoutes } from './routes/retime.js';
import { registerOpLogRoutes } from './routes/oplog.js';
import { registerLiveRoutes, type LiveOptions } from './routes/live.js';
import { registerSchemaRoutes } from './routes/schemas.js';
import { LIMITS } from '../model/limits.js';
import { redactUrlCredentials } from '../text/secret-redaction.js';
import { registerTierRoutes } from './routes/tiers.js';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_MAX_IMPORT_BYTES = 64 * 1024 * 1024;

/** Options of buildApp. */
export interface AppOptions {
  /** The service the routes call. */
  readonly service: AnnotationService;
  /** Bearer token every route but /health requires; none means no auth. */
  readonly token?: string;
  /** Largest JSON request body, in bytes (default 1 MiB). */
  readonly maxBodyBytes?: number;
  /** Largest /import upload, in bytes (default 64 MiB). */
  readonly maxImportBytes?: number;
  /** Where internal errors (5xx) are reported; default stderr. Responses never carry them. */
  readonly log?: (line: string) => void;
  /** Version reported in /openapi.json. */
  readonly version?: string;
  /**
   * Hook for `annot serve --mcp`: mounts the MCP server (streamable HTTP at /mcp) on this app,
   * sharing its service, store and op-log. Called after the REST routes are registered; the
   * bearer-token check and the error shape apply to what it mounts.
   */
  readonly mountMcp?: (app: FastifyInstance, service: AnnotationService) => Promise<void>;
  /** The timeline page, the op-log stream and the media route (`annot serve --media`). */
  readonly live?: LiveOptions;
}

/**
 * The routes' schemas are their documentation (/openapi.json) and what fastify enforces of them is
 * ours (request-validator.ts); responses are serialised with JSON.stringify, as without a schema,
 * so a documented response is byte for byte what it was. Given as the compilers' factories, so
 * fastify never loads ajv and fast-json-stringify (a tenth of `annot serve`'s start-up) for
 * compilers it would not use. fastify's types describe the factories as ajv's; at run time a
 * factory returns any compiler of fastify's shape, as setValidatorCompiler takes.
 */
const SCHEMA_COMPILERS = {
  compilersFactory: {
    buildValidator: () => requestValidatorCompiler,
    buildSerializer: () => () => (data: unknown) => JSON.stringify(data),
  },
} as unknown as FastifyServerOptions['schemaController'];

/**
 * The HTTP server as a fastify instance (not listening yet): thin routes over the service, one
 * error shape for every failure, strict bodies. fastify never coerces or drops anything of a request
 * (request-validator.ts checks query strings from the routes' schemas); bodies are validated by the service with the wire
 * schemas (so HTTP, MCP and the CLI refuse the same inputs with the same messages).
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const app = Fastify({
    logger: false,
    bodyLimit: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    // fastify's default (100) answered 414 for a tier name in the path longer than 100 characters,
    // which a body could create; a name at LIMITS.nameChars, percent-encoded UTF-8, fits in this.
    routerOptions: { maxParamLength: 12 * LIMITS.nameChars },
    // A closing server still answers every request on a connection it had accepted (see drain.ts);
    // fastify marks those answers `Connection: close` itself.
    return503OnClosing: false,
    schemaController: SCHEMA_COMPILERS,
  });
  // First, so every route registered below (the MCP mount included) runs inside its request's span.
  traceHttpRequests(app);
  const scratchDir = makeScratchFolder('annot-serve-');
  app.addHook('onClose', async () => {
    removeScratchFolder(scratchDir);
  });

  // JSON is the only body the REST routes read; text/plain would reach them as a string.
  app.removeContentTypeParser('text/plain');

  app.setErrorHandler((error, request, reply) => {
    const failure = httpFailure(error, { bodyLimit: request.routeOptions?.bodyLimit });
    if (failure.internal) log(redactUrlCredentials(`annot serve: ${request.method} ${request.url} failed: ${failure.internal.stack ?? failure.internal.message}`));
    if (failure.status === 401) {
      reply.header('WWW-Authenticate', request.headers.authorization ? `${WWW_AUTHENTICATE_REALM}, error="invalid_token"` : WWW_AUTHENTICATE_REALM);
    }
    // A body refused half-way is not read further, and a closing server takes no more requests:
    // either way the connection cannot carry another one.
    if (failure.status === 413 || failure.status === 503) reply.header('Connection', 'close');
    return reply.code(failure.status).type('application/json; charset=utf-8').send(failure.body);
  });
  app.setNotFoundHandler((request) => {
    throw new RouteNotFoundError(`no route ${request.method} ${request.url.split('?')[0]}; GET /openapi.json lists the routes`);
  });

  if (options.token !== undefined) {
    const check = bearerChecker(options.token);
    app.addHook('onRequest', async (request) => {
      const route = request.routeOptions.url ?? '';
      if (!PUBLIC_PATHS.has(route) && !PAGE_PATHS.has(route) && !isDocsAssetRoute(route)) check(authorizationOf(request));
    });
  }

  const context: RouteContext = {
    service: options.service,
    maxImportBytes: options.maxImportBytes ?? DEFAULT_MAX_IMPORT_BYTES,
    scratchDir,
    log,
  };
  // Before the routes: @fastify/swagger documents the routes registered after it.
  await registerApiDocs(app, options.version ?? '0.0.0');
  registerHealthRoutes(app);
  registerTierRoutes(app, context);
  registerAnnotationRoutes(app, context);
  registerRetimeRoutes(app, context);
  registerImportExportRoutes(app, context);
  registerFormatRoutes(app);
  registerSchemaRoutes(app);
  registerMetaRoutes(app, context);
  registerOpLogRoutes(app, context);
  registerLiveRoutes(app, context, options.live);

  if (options.mountMcp) await options.mountMcp(app, options.service);
  await app.ready();
  return app;
}

import { formatFinding } from '../../adapters/finding.js';
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { resolveEncoding } from '../../adapters/encoding/encoding-names.js';
import { UnknownFormatError } from '../../adapters/errors.js';
import { listFormats } from '../../service/formats.js';
import { exportFromService, importIntoService } from '../../service/import-export.js';
import { QueryParams } from '../query-params.js';
import { actorOf, withClock, type RouteContext } from '../route-context.js';
import { spoolUpload } from '../upload.js';
import { ACTOR_HEADER, CLOCK, errors, headers, integerParameter, json, parameterNames, queryString, ref, routeSchema, stringParameter } from '../route-schema.js';

/** Warnings an import reports back at most (a broken file can warn once per line). */
const MAX_WARNINGS = 100;

const IMPORT_QUERY = queryString({
  format: stringParameter('format name (GET /formats); sniffed from the content when absent'),
  rate: integerParameter('import rate', 1),
  asset_id: stringParameter('asset id for formats that do not name their media'),
  tier: stringParameter('tier for formats without tiers'),
  encoding: stringParameter('the text encoding of the upload (utf-8, windows-1252, shift_jis...: any WHATWG Encoding label, or utf-32le/be); a byte-order mark still decides. Default: the byte-order mark, else UTF-8, else the detected encoding, reported in `warnings` as encoding_guessed'),
});
const FILE = { type: 'string', contentMediaType: 'application/octet-stream' };

export function registerImportExportRoutes(app: FastifyInstance, context: RouteContext): void {
  registerImportRoute(app, context);
  registerExportRoute(app, context);
}

function registerImportRoute(app: FastifyInstance, context: RouteContext): void {
  const { service, scratchDir, maxImportBytes } = context;
  // The upload is any media type, streamed to a scratch file as it arrives: this scope takes
  // every body unparsed (the handler reads the request stream itself) except multipart/form-data,
  // which @fastify/multipart streams part by part.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    await scope.register(multipart, {
      limits: { fileSize: maxImportBytes, files: 1 },
      // The field `file` is the upload whatever its part says; other parts are files only when
      // they carry a file name (busboy would also count every application/octet-stream field).
      isPartAFile: (field, _type, filename) => field === 'file' || filename !== undefined,
    });

    scope.post('/import', {
      schema: routeSchema('import a file (raw body or multipart field "file"); every tier and annotation it adds is logged', {
        description:
          'All or nothing: the upload is read whole, then every tier and annotation it adds is written in one transaction. A refused annotation, ' +
          'a failure or a server stopped midway leaves none of it in the store; a client that got no answer finds all of it or none of it ' +
          '(GET /oplog/latest-clock tells which: the clock moves by the number of tiers and annotations added).',
        querystring: IMPORT_QUERY,
        headers: headers(ACTOR_HEADER),
        body: {
          content: {
            'application/octet-stream': { schema: { ...FILE, description: 'the file as the raw body (any Content-Type but multipart/form-data)' } },
            'multipart/form-data': { schema: { type: 'object', required: ['file'], properties: { file: FILE } } },
          },
        },
        response: { 201: json('imported', ref('ImportReport'), CLOCK), ...errors(400, 413, 422) },
      }),
    }, async (request, reply) => {
      const query = QueryParams.of(request.query, parameterNames(IMPORT_QUERY));
      const format = query.string('format');
      // Refuse an unknown format before reading a possibly large upload.
      if (format !== undefined) knownFormat(format);
      const encoding = query.string('encoding');
      if (encoding !== undefined) resolveEncoding(encoding);
      const rate = query.integer('rate', { min: 1, max: Number.MAX_SAFE_INTEGER });
      const path = join(scratchDir, `upload-${randomUUID()}`);
      try {
        await spoolUpload(request, path, maxImportBytes);
        const warnings: string[] = [];
        const report = await importIntoService(service, {
          path,
          format,
          rate,
          encoding,
          assetId: query.string('asset_id'),
          tier: query.string('tier'),
          actor: actorOf(request),
          report: (finding) => {
            if (warnings.length < MAX_WARNINGS) warnings.push(formatFinding(finding));
          },
        }).catch((error: unknown) => {
          // The service's own message speaks of CLI flags; here the choice is a query parameter.
          if (format === undefined && error instanceof UnknownFormatError) {
            throw new UnknownFormatError(`cannot tell the format of the upload from its content; pass ?format=, one of ${formatNames()}`, { cause: error });
          }
          throw error;
        });
        const clock = report.clock > 0 ? report.clock : await service.latestClock();
        return withClock(reply, clock).code(201).send({ ...report, warnings });
      } finally {
        await removeScratch(path);
      }
    });
  });
}

function registerExportRoute(app: FastifyInstance, context: RouteContext): void {
  const { service, scratchDir } = context;
  const exportQuery = queryString({ format: stringParameter(`the format to export, one of ${formatNames()}`) }, ['format']);
  app.get('/export', {
    schema: routeSchema('the whole store as a file', {
      querystring: exportQuery,
      response: {
        200: {
          description: 'the file, as an attachment named export<extension>, with the media type of its format',
          headers: {
            'Content-Disposition': { type: 'string', description: 'attachment; filename="export<extension>"' },
            'X-Annot-Dropped': { type: 'string', description: 'what the format cannot keep and was left out, as what=count, …' },
          },
          content: { '*/*': { schema: FILE } },
        },
        ...errors(400, 422),
      },
    }),
  }, async (request, reply) => {
    const query = QueryParams.of(request.query, parameterNames(exportQuery));
    const format = knownFormat(query.requiredString('format', String(exportQuery.properties.format.description)));
    const extension = format.extensions[0] ?? '';
    const path = join(scratchDir, `export-${randomUUID()}${extension}`);
    try {
      const result = await exportFromService(service, format.name, path);
      if (result.dropped.length > 0) reply.header('X-Annot-Dropped', result.dropped.map(({ what, count }) => `${what}=${count}`).join(', '));
      return reply
        .header('Content-Type', format.media_types[0] ?? 'application/octet-stream')
        .header('Content-Disposition', `attachment; filename="export${extension}"`)
        .send(result.bytes);
    } finally {
      await removeScratch(path);
    }
  });
}

function knownFormat(name: string): ReturnType<typeof listFormats>[number] {
  const format = listFormats().find((candidate) => candidate.name === name);
  if (!format) throw new UnknownFormatError(`unknown format "${name}"; known formats: ${formatNames()} (GET /formats describes them)`);
  return format;
}

function formatNames(): string {
  return listFormats().map((format) => format.name).join(', ');
}

/** A scratch file and the side files SQLite may have left beside it. */
async function removeScratch(path: string): Promise<void> {
  await Promise.all(['', '-wal', '-shm', '-journal'].map((suffix) => rm(`${path}${suffix}`, { force: true })));
}

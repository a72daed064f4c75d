import { formatFinding } from '../../adapters/finding.js';
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { UnknownFormatError } from '../../adapters/errors.js';
import { listFormats } from '../../service/formats.js';
import { exportFromService, importIntoService } from '../../service/import-export.js';
import { QueryParams } from '../query-params.js';
import { actorOf, withClock, type RouteContext } from '../route-context.js';
import { spoolUpload } from '../upload.js';

/** Warnings an import reports back at most (a broken file can warn once per line). */
const MAX_WARNINGS = 100;

export function registerImportExportRoutes(app: FastifyInstance, context: RouteContext): void {
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

    scope.post('/import', async (request, reply) => {
      const query = QueryParams.of(request.query, ['format', 'rate', 'asset_id', 'tier']);
      const format = query.string('format');
      // Refuse an unknown format before reading a possibly large upload.
      if (format !== undefined) knownFormat(format);
      const rate = query.integer('rate', { min: 1, max: Number.MAX_SAFE_INTEGER });
      const path = join(scratchDir, `upload-${randomUUID()}`);
      try {
        await spoolUpload(request, path, maxImportBytes);
        const warnings: string[] = [];
        const report = await importIntoService(service, {
          path,
          format,
          rate,
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

  app.get('/export', async (request, reply) => {
    const query = QueryParams.of(request.query, ['format']);
    const format = knownFormat(query.requiredString('format', `the format to export, one of ${formatNames()}`));
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

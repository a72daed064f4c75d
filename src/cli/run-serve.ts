import type { FastifyInstance } from 'fastify';
import { formatFinding } from '../adapters/finding.js';
import { InvalidInputError } from '../errors/annot-error.js';
import { parseByteSize } from '../server/byte-size.js';
import { mediaSource } from '../server/page/media-source.js';
import { startServer, type RunningServer } from '../server/serve.js';
import type { AnnotationService } from '../service/annotation-service.js';
import { openServedStore, type ServedStore } from '../service/open-served-store.js';
import { redactLocation } from '../service/open-service-store.js';
import type { FlagValues } from './flag-specs.js';
import { notice, writeLine } from './output.js';
import { exitNow } from './process-guards.js';
import { savingLine, servedFileEvents } from './served-file-notices.js';
import { storeLocation } from './store-location.js';
import type { SERVE_FLAGS } from './serve-flags.js';

type ServeFlags = FlagValues<typeof SERVE_FLAGS>;

/**
 * `annot serve [FILE]` as both the oclif command and the start-up fast path run it: the store
 * opened (a file, a database, memory), served until SIGINT, SIGTERM or SIGHUP, then the requests
 * in flight drained, the last edits saved and the store closed. `version` is the CLI's own, for
 * the API documents and MCP. Loaded only to serve: it brings the HTTP server with it.
 */
export async function runServe(file: string | undefined, flags: ServeFlags, version: string): Promise<void> {
  const limits = { maxBodyBytes: parseByteSize(flags['max-body'], '--max-body'), maxImportBytes: parseByteSize(flags['max-import'], '--max-import') };
  if (flags.token !== undefined && flags.token.trim() === '') throw new InvalidInputError('--token (or ANNOT_TOKEN) is empty; give a token or leave it unset');

  const location = storeLocation('serve', file, flags.store);
  // What the file's format cannot keep, told once: at start, or at the first save that meets it.
  const lossesTold = new Set<string>();
  const served = await openServedStore(location, {
    from: flags.from,
    encoding: flags.encoding,
    save: flags.save,
    saveDelayMs: flags['save-delay'],
    report: (finding) => notice(formatFinding(finding)),
    ...servedFileEvents(lossesTold),
  });
  const { server, stopOtel } = await startServing(served, file, flags, { ...limits, version, lossesTold });
  // Handlers before the URL line: whoever waits for that line may signal at once, and a signal
  // without a handler kills the process on the spot, mid-write.
  const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
    // A closed terminal: save and close as on Ctrl-C rather than die with the edits unsaved.
    process.once('SIGHUP', () => resolve('SIGHUP'));
  });
  writeLine(`annot serve: listening on ${server.url}`);
  notice(`annot serve: serving ${location === undefined ? `an in-memory ${served.store.kind} store` : redactLocation(location)}${flags.token ? ' (bearer token required)' : ''}${flags.mcp ? `; MCP at ${server.url}/mcp` : ''}${flags.otel ? '; exporting traces over OTLP' : ''}; Ctrl-C stops`);
  const signal = await stopSignal;
  notice(`annot serve: ${signal}: finishing requests in flight, then ${served.kind === 'file' && flags.save ? 'saving the last edits and ' : ''}closing the store`);
  await stopServing(server, stopOtel);
  notice('annot serve: stopped');
}

/** The server started on the opened store, with OpenTelemetry and MCP when asked; the store closed again when it cannot start. */
async function startServing(
  served: ServedStore,
  file: string | undefined,
  flags: ServeFlags,
  options: { maxBodyBytes: number; maxImportBytes: number; version: string; lossesTold: Set<string> },
): Promise<{ server: RunningServer; stopOtel: (() => Promise<void>) | undefined }> {
  const { store } = served;
  let stopOtel: (() => Promise<void>) | undefined;
  try {
    // Before the app is built, so the SDK is the tracer provider from the first request on.
    if (flags.otel) stopOtel = await (await import('../telemetry/sdk.js')).startOtelSdk();
    const mountMcp = flags.mcp
      ? async (app: FastifyInstance, service: AnnotationService) => {
          const { mountMcpOverHttp } = await import('../mcp/http.js');
          await mountMcpOverHttp(app, service, { version: options.version });
        }
      : undefined;
    const media = await mediaSource(store, flags.media, file);
    if (served.kind === 'file') notice(await savingLine(served.store, served.format.name, file!, flags.save, options.lossesTold));
    if (media?.origin === 'same-name') notice(`annot serve: the page plays ${media.path} (named like ${file}; --media chooses another)`);
    const server = await startServer({
      store,
      host: flags.host,
      port: flags.port,
      token: flags.token,
      maxBodyBytes: options.maxBodyBytes,
      maxImportBytes: options.maxImportBytes,
      version: options.version,
      mountMcp,
      live: { media: media?.path },
    });
    return { server, stopOtel };
  } catch (error) {
    await store.close();
    await stopOtel?.();
    throw error;
  }
}

/** Drains and closes the server (a file in another format saves its last edits); a second signal meanwhile means "now". */
async function stopServing(server: RunningServer, stopOtel: (() => Promise<void>) | undefined): Promise<void> {
  const force = () => {
    notice('annot serve: stopping immediately');
    exitNow(1);
  };
  process.once('SIGINT', force);
  process.once('SIGTERM', force);
  try {
    // A file in another format writes its unsaved edits here; if it cannot, the command fails with that error.
    await server.close();
  } finally {
    // The spans of the last requests are still buffered: export them before exiting.
    await stopOtel?.();
    process.removeListener('SIGINT', force);
    process.removeListener('SIGTERM', force);
  }
}

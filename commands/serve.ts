import { Args, Flags } from '@oclif/core';
import type { FastifyInstance } from 'fastify';
import { AnnotCommand } from '../src/cli/base-command.js';
import { exitNow } from '../src/cli/process-guards.js';
import type { AnnotationService } from '../src/service/annotation-service.js';
import type { SavedFileStore } from '../src/service/saved-file-store.js';
import { plural } from '../src/cli/finding-output.js';
import { notice, writeLine } from '../src/cli/output.js';

export default class Serve extends AnnotCommand {
  static override description =
    'Serve annotations over HTTP (REST + OpenAPI at /openapi.json, its human page at /docs, the timeline page at /). Without a file the store lives in memory. A .annot file is served in place (and created when missing); a file in any other format annot convert reads (WebVTT, EAF, TextGrid...) is read into memory and every edit is saved back to it in its own format, atomically, shortly after the edit and on shutdown (what the format cannot keep is printed at start), but never over a file another program changed meanwhile (the edits then go to FILE.unsaved beside it at shutdown). Edits that would break a tier constraint are refused. Stops cleanly on Ctrl-C or SIGTERM';
  static override examples = [
    '<%= config.bin %> serve',
    '<%= config.bin %> serve fixtures/tour/interview.eaf --media fixtures/tour/interview.mp4   # then open the printed URL: the timeline page',
    '<%= config.bin %> serve talk.vtt   # plays talk.mp4 beside it; edits are saved back to talk.vtt',
    '<%= config.bin %> serve talk.vtt --no-save   # edits stay in memory',
    '<%= config.bin %> serve talk.annot --port 8080',
    'OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 <%= config.bin %> serve talk.annot --otel',
    'ANNOT_TOKEN=s3cret <%= config.bin %> serve talk.annot --host 0.0.0.0 --port 8080',
    '<%= config.bin %> serve --store postgres://postgres@127.0.0.1/annot?project=talks',
  ];
  static override args = {
    file: Args.string({
      description: 'the file to serve: a .annot file (created when missing), or an existing file in any format annot convert reads, saved back in that format as it is edited; default: an in-memory store',
      ignoreStdin: true,
    }),
  };
  static override flags = {
    host: Flags.string({ description: 'interface to listen on', default: '127.0.0.1' }),
    port: Flags.integer({ description: 'port to listen on; 0 picks a free one (printed on the first line)', default: 0, min: 0, max: 65535 }),
    token: Flags.string({ description: 'require "Authorization: Bearer <token>" on every route but /health', env: 'ANNOT_TOKEN' }),
    'max-body': Flags.string({ description: 'largest JSON request body (e.g. 1MiB, 512k)', default: '1MiB' }),
    'max-import': Flags.string({ description: 'largest /import upload', default: '64MiB' }),
    store: Flags.string({ description: 'a PostgreSQL project (postgres://…?project=name) instead of a file; processes on one project share one clock', exclusive: ['file'] }),
    from: Flags.string({ description: "the file's format (default: from the extension, then the content), as annot convert --from" }),
    encoding: Flags.string({ description: "the file's text encoding, as annot convert --encoding (a byte-order mark still decides); the file is saved back as UTF-8" }),
    save: Flags.boolean({
      description: 'save edits of a file in another format back to it; --no-save keeps them in memory only and leaves the file untouched (a .annot file is always written as it is edited)',
      default: true,
      allowNo: true,
    }),
    'save-delay': Flags.integer({ description: 'milliseconds after an edit before the file in another format is saved; edits in between are saved together', default: 500, min: 0 }),
    media: Flags.string({ description: 'a local audio or video file the timeline page at / plays (served at /media with Range support); default: the annotations\' own asset when it is a local file, else a media file beside FILE with its name (talk.vtt: talk.mp4, talk.webm, talk.wav...)' }),
    mcp: Flags.boolean({ description: 'also serve the MCP tools over streamable HTTP at /mcp, sharing the store and op-log', default: false }),
    otel: Flags.boolean({
      description: 'record OpenTelemetry traces (requests, MCP tool calls, store queries and writes) and export them over OTLP, configured by the standard OTEL_* variables (OTEL_EXPORTER_OTLP_ENDPOINT, ...)',
      default: false,
    }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Serve);
    const [{ startServer }, { openServedStore }, { redactLocation }, { parseByteSize }, { InvalidInputError }, { formatFinding }] = await Promise.all([
      import('../src/server/serve.js'),
      import('../src/service/open-served-store.js'),
      import('../src/service/open-service-store.js'),
      import('../src/server/byte-size.js'),
      import('../src/errors/annot-error.js'),
      import('../src/adapters/finding.js'),
    ]);
    const maxBodyBytes = parseByteSize(flags['max-body'], '--max-body');
    const maxImportBytes = parseByteSize(flags['max-import'], '--max-import');
    if (flags.token !== undefined && flags.token.trim() === '') throw new InvalidInputError('--token (or ANNOT_TOKEN) is empty; give a token or leave it unset');

    const location = flags.store ?? args.file;
    // What the file's format cannot keep, told once: at start, or at the first save that meets it.
    const lossesTold = new Set<string>();
    const warningsTold = new Set<string>();
    const served = await openServedStore(location, {
      from: flags.from,
      encoding: flags.encoding,
      save: flags.save,
      saveDelayMs: flags['save-delay'],
      report: (finding) => notice(formatFinding(finding)),
      // Every save runs the writer again: a warning is printed the first time only.
      warn: (message) => {
        if (warningsTold.has(message)) return;
        warningsTold.add(message);
        notice(`warning: ${message}`);
      },
      saved: ({ path, clock, dropped }) => {
        notice(`annot serve: saved ${path} (edits up to clock ${clock})`);
        for (const { what, count } of dropped.filter((entry) => !lossesTold.has(entry.what))) {
          lossesTold.add(what);
          notice(`annot serve: ${path} keeps no ${what}: dropped for ${plural(count, 'annotation')} in the saved file (they stay in memory while the server runs)`);
        }
      },
      failed: (error) =>
        notice(
          error.code === 'ANNOT_FILE_CHANGED_ON_DISK'
            ? `annot serve: ${error.message} [${error.code}]`
            : `annot serve: ${error.message}; the edits stay in memory, and the next edit or the shutdown tries again [${error.code}]`,
        ),
    });
    const { store } = served;
    let server;
    let stopOtel: (() => Promise<void>) | undefined;
    try {
      // Before the app is built, so the SDK is the tracer provider from the first request on.
      if (flags.otel) stopOtel = await (await import('../src/telemetry/sdk.js')).startOtelSdk();
      const mountMcp = flags.mcp
        ? async (app: FastifyInstance, service: AnnotationService) => {
            const { mountMcpOverHttp } = await import('../src/mcp/http.js');
            await mountMcpOverHttp(app, service, { version: this.config.version });
          }
        : undefined;
      const media = await (await import('../src/server/page/media-source.js')).mediaSource(store, flags.media, args.file);
      if (served.kind === 'file') notice(await savingLine(served.store, served.format.name, args.file!, flags.save, lossesTold));
      if (media?.origin === 'same-name') notice(`annot serve: the page plays ${media.path} (named like ${args.file}; --media chooses another)`);
      server = await startServer({ store, host: flags.host, port: flags.port, token: flags.token, maxBodyBytes, maxImportBytes, version: this.config.version, mountMcp, live: { media: media?.path } });
    } catch (error) {
      await store.close();
      await stopOtel?.();
      throw error;
    }
    // Handlers before the URL line: whoever waits for that line may signal at once, and a signal
    // without a handler kills the process on the spot, mid-write.
    const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
      // A closed terminal: save and close as on Ctrl-C rather than die with the edits unsaved.
      process.once('SIGHUP', () => resolve('SIGHUP'));
    });
    writeLine(`annot serve: listening on ${server.url}`);
    notice(`annot serve: serving ${location === undefined ? `an in-memory ${store.kind} store` : redactLocation(location)}${flags.token ? ' (bearer token required)' : ''}${flags.mcp ? `; MCP at ${server.url}/mcp` : ''}${flags.otel ? '; exporting traces over OTLP' : ''}; Ctrl-C stops`);

    const signal = await stopSignal;

    // A second signal while requests drain means "now".
    const force = () => {
      notice('annot serve: stopping immediately');
      exitNow(1);
    };
    process.once('SIGINT', force);
    process.once('SIGTERM', force);
    notice(`annot serve: ${signal}: finishing requests in flight, then ${served.kind === 'file' && flags.save ? 'saving the last edits and ' : ''}closing the store`);
    try {
      // A file in another format writes its unsaved edits here; if it cannot, the command fails with that error.
      await server.close();
    } finally {
      // The spans of the last requests are still buffered: export them before exiting.
      await stopOtel?.();
      process.removeListener('SIGINT', force);
      process.removeListener('SIGTERM', force);
    }
    notice('annot serve: stopped');
  }
}

/** One line on what a save of the served file keeps, so nobody learns it from the file afterwards. */
async function savingLine(store: SavedFileStore, format: string, file: string, save: boolean, told: Set<string>): Promise<string> {
  if (!save) return `annot serve: edits stay in memory (--no-save): ${file} is not written`;
  const dropped = await store.dryRunLosses();
  for (const { what } of dropped) told.add(what);
  const losses = dropped.length === 0 ? '' : `; ${format} keeps ${dropped.map((entry) => `no ${entry.what}`).join(', ')}`;
  return `annot serve: edits are saved back to ${file} (${format}${await readInAnotherEncoding(store)})${losses}; --no-save keeps them in memory only`;
}

/** `, as UTF-8 (it was read as windows-1252)` for a file its reader did not read as UTF-8 (saves are UTF-8). */
async function readInAnotherEncoding(store: SavedFileStore): Promise<string> {
  const layout = await store.getMeta('text.layout');
  let encoding: unknown;
  try {
    encoding = layout === null ? undefined : (JSON.parse(layout) as { encoding?: unknown }).encoding;
  } catch {
    return '';
  }
  return typeof encoding === 'string' && encoding !== 'utf-8' ? `, as UTF-8: it was read as ${encoding}` : '';
}

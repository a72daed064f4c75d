import { Args, Flags } from '@oclif/core';
import type { FastifyInstance } from 'fastify';
import { AnnotCommand } from '../src/cli/base-command.js';
import type { AnnotationService } from '../src/service/annotation-service.js';
import { notice, writeLine } from '../src/cli/output.js';

export default class Serve extends AnnotCommand {
  static override description =
    'Serve an annotation store over HTTP (REST + OpenAPI at /openapi.json, its human page at /docs). Without a file the store lives in memory; with one, the .annot file is served (and created when missing). Stops cleanly on Ctrl-C or SIGTERM';
  static override examples = [
    '<%= config.bin %> serve',
    '<%= config.bin %> serve talk.annot --port 8080',
    '<%= config.bin %> serve talk.annot --media talk.mp4   # then open the printed URL: the timeline page',
    'OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 <%= config.bin %> serve talk.annot --otel',
    'ANNOT_TOKEN=s3cret <%= config.bin %> serve talk.annot --host 0.0.0.0 --port 8080',
    '<%= config.bin %> serve --store postgres://postgres@127.0.0.1/annot?project=talks',
  ];
  static override args = {
    file: Args.string({ description: 'the .annot file to serve (created when missing); default: an in-memory store', ignoreStdin: true }),
  };
  static override flags = {
    host: Flags.string({ description: 'interface to listen on', default: '127.0.0.1' }),
    port: Flags.integer({ description: 'port to listen on; 0 picks a free one (printed on the first line)', default: 0, min: 0, max: 65535 }),
    token: Flags.string({ description: 'require "Authorization: Bearer <token>" on every route but /health', env: 'ANNOT_TOKEN' }),
    'max-body': Flags.string({ description: 'largest JSON request body (e.g. 1MiB, 512k)', default: '1MiB' }),
    'max-import': Flags.string({ description: 'largest /import upload', default: '64MiB' }),
    store: Flags.string({ description: 'a PostgreSQL project (postgres://…?project=name) instead of a file; processes on one project share one clock', exclusive: ['file'] }),
    media: Flags.string({ description: 'a local audio or video file the timeline page at / plays (served at /media with Range support); default: the annotations\' own asset when it is a local file' }),
    mcp: Flags.boolean({ description: 'also serve the MCP tools over streamable HTTP at /mcp, sharing the store and op-log', default: false }),
    otel: Flags.boolean({
      description: 'record OpenTelemetry traces (requests, MCP tool calls, store queries and writes) and export them over OTLP, configured by the standard OTEL_* variables (OTEL_EXPORTER_OTLP_ENDPOINT, ...)',
      default: false,
    }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Serve);
    const [{ startServer }, { openServiceStore, redactLocation }, { parseByteSize }, { InvalidInputError }] = await Promise.all([
      import('../src/server/serve.js'),
      import('../src/service/open-service-store.js'),
      import('../src/server/byte-size.js'),
      import('../src/errors/annot-error.js'),
    ]);
    const maxBodyBytes = parseByteSize(flags['max-body'], '--max-body');
    const maxImportBytes = parseByteSize(flags['max-import'], '--max-import');
    if (flags.token !== undefined && flags.token.trim() === '') throw new InvalidInputError('--token (or ANNOT_TOKEN) is empty; give a token or leave it unset');

    const location = flags.store ?? args.file;
    const store = await openServiceStore(location, { create: true });
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
      server = await startServer({ store, host: flags.host, port: flags.port, token: flags.token, maxBodyBytes, maxImportBytes, version: this.config.version, mountMcp, live: { media } });
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
    });
    writeLine(`annot serve: listening on ${server.url}`);
    notice(`annot serve: serving ${location === undefined ? `an in-memory ${store.kind} store` : redactLocation(location)}${flags.token ? ' (bearer token required)' : ''}${flags.mcp ? `; MCP at ${server.url}/mcp` : ''}${flags.otel ? '; exporting traces over OTLP' : ''}; Ctrl-C stops`);

    const signal = await stopSignal;

    // A second signal while requests drain means "now".
    const force = () => {
      notice('annot serve: stopping immediately');
      process.exit(1);
    };
    process.once('SIGINT', force);
    process.once('SIGTERM', force);
    notice(`annot serve: ${signal}: finishing requests in flight, then closing the store`);
    await server.close();
    // The spans of the last requests are still buffered: export them before exiting.
    await stopOtel?.();
    process.removeListener('SIGINT', force);
    process.removeListener('SIGTERM', force);
    notice('annot serve: stopped');
  }
}

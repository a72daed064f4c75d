import type { FlagSpecs } from './flag-specs.js';

/** `annot serve`'s flags, read by the oclif command (commands/serve.ts) and the start-up fast path. */
export const SERVE_FLAGS = {
  host: { kind: 'string', description: 'interface to listen on', default: '127.0.0.1' },
  port: { kind: 'integer', description: 'port to listen on; 0 picks a free one (printed on the first line)', default: 0, min: 0, max: 65535 },
  token: { kind: 'string', description: 'require "Authorization: Bearer <token>" on every route but /health', env: 'ANNOT_TOKEN' },
  'max-body': { kind: 'string', description: 'largest JSON request body (e.g. 1MiB, 512k)', default: '1MiB' },
  'max-import': { kind: 'string', description: 'largest /import upload', default: '64MiB' },
  store: { kind: 'string', description: 'a PostgreSQL project (postgres://…?project=name) instead of a file; processes on one project share one clock' },
  from: { kind: 'string', description: "the file's format (default: from the extension, then the content), as annot convert --from" },
  encoding: { kind: 'string', description: "the file's text encoding, as annot convert --encoding (a byte-order mark still decides); the file is saved back as UTF-8" },
  save: {
    kind: 'boolean',
    description: 'save edits of a file in another format back to it; --no-save keeps them in memory only and leaves the file untouched (a .annot file is always written as it is edited)',
    default: true,
    allowNo: true,
  },
  'save-delay': { kind: 'integer', description: 'milliseconds after an edit before the file in another format is saved; edits in between are saved together', default: 500, min: 0 },
  media: {
    kind: 'string',
    description:
      "a local audio or video file the timeline page at / plays (served at /media with Range support); default: the annotations' own asset when it is a local file, else a media file beside FILE with its name (talk.vtt: talk.mp4, talk.webm, talk.wav...)",
  },
  mcp: { kind: 'boolean', description: 'also serve the MCP tools over streamable HTTP at /mcp, sharing the store and op-log', default: false },
  otel: {
    kind: 'boolean',
    description:
      'record OpenTelemetry traces (requests, MCP tool calls, store queries and writes) and export them over OTLP, configured by the standard OTEL_* variables (OTEL_EXPORTER_OTLP_ENDPOINT, ...)',
    default: false,
  },
} as const satisfies FlagSpecs;

import { Args } from '@oclif/core';
import { AnnotCommand } from '../src/cli/base-command.js';
import { oclifFlags } from '../src/cli/oclif-flags.js';
import { SERVE_FLAGS } from '../src/cli/serve-flags.js';

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
  static override flags = oclifFlags(SERVE_FLAGS);

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Serve);
    const { runServe } = await import('../src/cli/run-serve.js');
    await runServe(args.file, flags, this.config.version);
  }
}

import { Args, Flags } from '@oclif/core';
import { AnnotCommand } from '../src/cli/base-command.js';

export default class Mcp extends AnnotCommand {
  static override description =
    'Serve the annotation tools to an AI agent over MCP on stdin/stdout (add_annotation, query_annotations, accept_ai_suggestion, state_at, ...). ' +
    'stdout carries only protocol messages; diagnostics go to stderr. Stops when the client closes stdin';
  static override examples = [
    '<%= config.bin %> mcp talk.annot',
    '<%= config.bin %> mcp',
    '<%= config.bin %> mcp --store postgres://postgres@127.0.0.1/annot?project=talks',
  ];
  static override args = {
    // stdin is the protocol channel: oclif must never read a missing argument from it.
    file: Args.string({ description: 'the .annot file to edit (created when missing; shared with a running `annot serve`); omit it for an in-memory session', ignoreStdin: true }),
  };
  static override flags = {
    store: Flags.string({ description: 'a PostgreSQL project (postgres://…?project=name) instead of a file, created when missing; shares its op-log with every other process on it' }),
    'max-message': Flags.string({
      description: 'largest message read (e.g. 10MiB, 512k); a longer one is answered with a JSON-RPC error and skipped',
      default: '10MiB',
      env: 'ANNOT_MCP_MAX_MESSAGE',
    }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Mcp);
    const [{ runMcpOverStdio }, { parseByteSize }, { storeLocation }] = await Promise.all([
      import('../src/mcp/stdio.js'),
      import('../src/server/byte-size.js'),
      import('../src/cli/store-location.js'),
    ]);
    const path = storeLocation('mcp', args.file, flags.store);
    const maxMessageBytes = parseByteSize(flags['max-message'], '--max-message');
    await runMcpOverStdio({ path, version: this.config.version, maxMessageBytes });
  }
}

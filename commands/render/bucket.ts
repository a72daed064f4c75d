import { Args, Flags } from '@oclif/core';
import { AnnotCommand } from '../../src/cli/base-command.js';
import { writeJson, writeLine } from '../../src/cli/output.js';

export default class RenderBucket extends AnnotCommand {
  static override description =
    'Set up a shared render cache on S3-compatible storage: create the bucket when it is missing, write the layout under PREFIX/v1/, check that it reads back, and say whether the server lets the first writer of a key win (If-None-Match). Endpoint and credentials come from the standard AWS variables and files. --check only reads (read-only credentials, pull-request builds)';
  static override examples = ['<%= config.bin %> render bucket s3://team-renders/annot', 'AWS_ENDPOINT_URL=http://minio:9000 <%= config.bin %> render bucket s3://renders/annot --check'];
  static override args = {
    url: Args.string({ description: 'the shared cache, s3://BUCKET/PREFIX', required: true }),
  };
  static override flags = {
    check: Flags.boolean({ description: 'only check that the cache can be read: create nothing, write nothing' }),
    json: Flags.boolean({ description: 'print the report as one JSON document' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RenderBucket);
    const { prepareBucket } = await import('../../src/render/remote/prepare-bucket.js');
    const report = await prepareBucket(args.url, { check: flags.check });
    if (flags.json) return writeJson(report);
    const bucket = report.bucket === 'not checked' ? '' : `bucket ${report.bucket}; `;
    if (!report.writable) return writeLine(`${report.url}: ${bucket}readable (checked by reading ${report.layout}); nothing written`);
    const conditional = report.conditional_writes
      ? 'the server lets the first writer of an entry win (If-None-Match honoured)'
      : 'the server ignores If-None-Match: annot reads each entry back after writing it and uses what is there';
    writeLine(`${report.url}: ${bucket}layout written at ${report.layout}; reads and writes work; ${conditional}`);
  }
}

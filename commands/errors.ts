import { Args } from '@oclif/core';
import { AnnotCommand } from '../src/cli/base-command.js';
import { writeLine } from '../src/cli/output.js';
import type { DocumentedCode } from '../src/errors/error-docs.js';

export default class Errors extends AnnotCommand {
  static override description = 'List the stable error codes annot gives, with the HTTP status the server answers and the exit status of the CLI (the same list as docs/errors.md)';
  static override enableJsonFlag = true;
  static override examples = ['<%= config.bin %> errors', '<%= config.bin %> errors ANNOT_TIER_CONSTRAINT', '<%= config.bin %> errors --json'];
  static override args = {
    code: Args.string({ description: 'show only this code (ANNOT_ may be left out; any case)' }),
  };

  async run(): Promise<DocumentedCode[]> {
    const { args } = await this.parse(Errors);
    const [{ documentedCodes }, { NotFoundError }, { closestName }] = await Promise.all([
      import('../src/errors/error-docs.js'),
      import('../src/errors/annot-error.js'),
      import('../src/text/nearest-name.js'),
    ]);
    const all = documentedCodes();
    let shown = all;
    if (args.code !== undefined) {
      const wanted = args.code.toUpperCase().replace(/^(ANNOT_)?/, 'ANNOT_');
      shown = all.filter((entry) => entry.code === wanted);
      if (shown.length === 0) {
        const near = closestName(wanted, all.map((entry) => entry.code));
        throw new NotFoundError(`no error code ${wanted}${near ? `; did you mean ${near}?` : ''} (annot errors lists them all)`);
      }
    }
    if (!this.jsonEnabled()) {
      const width = Math.max(...shown.map((entry) => entry.code.length));
      for (const { code, http, exit, meaning } of shown) writeLine(`${code.padEnd(width)}  HTTP ${http}  exit ${exit}  ${meaning}`);
    }
    return shown;
  }
}

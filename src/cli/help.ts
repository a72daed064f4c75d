import { Errors, Help } from '@oclif/core';
import { EXIT_USAGE } from './errors.js';
import { unknownCommandMessage, visibleCommandIds } from './did-you-mean.js';

/**
 * oclif's help, except for a subject that is no command (`annot help conver`, `annot conver
 * --help`): the same one line with the nearest command as `annot conver` prints (see
 * command-not-found.ts), exit 2, instead of oclif's ` ›   Error: Command conver not found.`
 */
export default class AnnotHelp extends Help {
  override async showHelp(argv: string[]): Promise<void> {
    try {
      await super.showHelp(argv);
    } catch (error) {
      const subject = error instanceof Error ? /^Command (.+) not found\.$/.exec(error.message)?.[1] : undefined;
      if (subject === undefined) throw error;
      process.stderr.write(`annot: ${unknownCommandMessage(subject, visibleCommandIds(this.config), this.config.bin)} [ANNOT_USAGE]\n`);
      Errors.exit(EXIT_USAGE);
    }
  }
}

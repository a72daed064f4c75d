import type { Hook } from '@oclif/core';
import { EXIT_USAGE } from './errors.js';
import { unknownCommandMessage, visibleCommandIds } from './did-you-mean.js';

/**
 * oclif's `command_not_found` hook: instead of its ` ›   Error: command conver:a:b not found`,
 * one line in annot's error style with the nearest command, and exit 2 as for any usage error.
 * (@oclif/plugin-not-found does this in its own words, prompts on a terminal, and its current
 * major needs Node 22 and @oclif/core 5.)
 */
const hook: Hook.CommandNotFound = async function (options) {
  const message = unknownCommandMessage(options.id, visibleCommandIds(options.config), options.config.bin);
  process.stderr.write(`annot: ${message} [ANNOT_USAGE]\n`);
  this.exit(EXIT_USAGE);
};

export default hook;

#!/usr/bin/env node
// Signals and a failing standard output end the process cleanly, whatever runs next
// (src/cli/process-guards.ts). `annot --version` and plain argument lists of the commands in
// src/cli/fast-commands.ts skip loading oclif (src/cli/fast-path.ts, loaded as one bundle by
// bin/load-fast-path.js); every other argument list, and any the fast path does not fully
// understand, goes to oclif, with the guards of the modules oclif's commands use. FAST_FIRST_WORDS
// spares the other commands even the fast path's loading: it holds the first word of every fast command.
const FAST_FIRST_WORDS = ['--version', 'query', 'convert', 'validate', 'render', 'serve'];
const argv = process.argv.slice(2);
// `--version` alone reads package.json: the few modules it needs cost less than the whole bundle.
let fastPath = null;
if (argv.length === 1 && argv[0] === '--version') fastPath = await import('../dist/src/cli/fast-entry.js');
else if (FAST_FIRST_WORDS.includes(argv[0])) fastPath = (await (await import('./load-fast-path.js')).loadFastPath()).api;
if (fastPath !== null && fastPath.takesFastPath(argv)) {
  fastPath.guardProcess();
  await fastPath.runFastPath(argv, new URL('../package.json', import.meta.url));
} else {
  (await import('../dist/src/cli/process-guards.js')).guardProcess();
  const { execute } = await import('@oclif/core');
  await execute({ dir: import.meta.url });
}

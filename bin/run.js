#!/usr/bin/env node
// Signals and a failing standard output end the process cleanly, whatever runs next
// (src/cli/process-guards.ts). `annot --version` and plain argument lists of the commands in
// src/cli/fast-commands.ts skip loading oclif (src/cli/fast-path.ts); every other argument list,
// and any the fast path does not fully understand, goes to oclif. FAST_FIRST_WORDS spares the
// other commands even the fast path's import: it holds the first word of every fast command.
const { guardProcess } = await import('../dist/src/cli/process-guards.js');
guardProcess();
const FAST_FIRST_WORDS = ['--version', 'query', 'convert', 'validate', 'render', 'serve'];
const argv = process.argv.slice(2);
const fast = FAST_FIRST_WORDS.includes(argv[0]) ? await import('../dist/src/cli/fast-path.js') : null;
if (!fast || !(await fast.runFastPath(argv, new URL('../package.json', import.meta.url)))) {
  const { execute } = await import('@oclif/core');
  await execute({ dir: import.meta.url });
}

#!/usr/bin/env node
// Signals and a failing standard output end the process cleanly, whatever runs next
// (src/cli/process-guards.ts). `annot --version`, plain `annot query` and plain `annot convert`
// skip loading oclif (src/cli/fast-path.ts); every other argument list, and any the fast path
// does not fully understand, goes to oclif.
const { guardProcess } = await import('../dist/src/cli/process-guards.js');
guardProcess();
const argv = process.argv.slice(2);
const fast = argv[0] === '--version' || argv[0] === 'query' || argv[0] === 'convert' ? await import('../dist/src/cli/fast-path.js') : null;
if (!fast || !(await fast.runFastPath(argv, new URL('../package.json', import.meta.url)))) {
  const { execute } = await import('@oclif/core');
  await execute({ dir: import.meta.url });
}

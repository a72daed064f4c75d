#!/usr/bin/env node
// `annot --version`, plain `annot query` and plain `annot convert` skip loading oclif
// (src/cli/fast-path.ts); every other argument list, and any the fast path does not fully
// understand, goes to oclif.
const argv = process.argv.slice(2);
const fast = argv[0] === '--version' || argv[0] === 'query' || argv[0] === 'convert' ? await import('../dist/src/cli/fast-path.js') : null;
if (!fast || !(await fast.runFastPath(argv, new URL('../package.json', import.meta.url)))) {
  const { execute } = await import('@oclif/core');
  await execute({ dir: import.meta.url });
}

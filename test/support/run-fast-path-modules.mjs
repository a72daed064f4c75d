// bin/run.js's start-up fast path run from the modules in dist/src instead of its one-file bundle
// (dist/cli/fast-path.cjs), so that a load hook sees each of our modules a command evaluates: the
// bundle evaluates the same modules (a command's body only when it runs) but resolves none of them.
const { guardProcess, runFastPath, takesFastPath } = await import('../../dist/src/cli/fast-entry.js');
const argv = process.argv.slice(2);
if (!takesFastPath(argv)) {
  process.stderr.write(`not a fast-path command line: ${argv.join(' ')}\n`);
  process.exit(99);
}
guardProcess();
await runFastPath(argv, new URL('../../package.json', import.meta.url));

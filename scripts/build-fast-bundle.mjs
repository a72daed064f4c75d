// Writes the start-up fast path as one CommonJS file with its V8 code cache (issue 33), which
// bin/run.js loads through bin/load-fast-path.js:
// - dist/cli/fast-path.cjs: src/cli/fast-entry.ts and every module of ours it reaches (a command's
//   body still runs only when the command does), with packages left to node_modules (but those that
//   are ES modules only), and a source
//   map to src/ for stack traces (ANNOT_DEBUG=1);
// - dist/cli/fast-path.cjs.cache: the code V8 compiled while a separate process ran small
//   conversions, a validation and a query with the bundle (scripts/train-fast-path.mjs).
// Loading 120 modules one by one cost more than all the work of a small conversion: resolving,
// reading and compiling each. `npm run build` and the incremental build of `npm test` run this.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'dist', 'cli', 'fast-path.cjs');

/**
 * `import.meta.url` of each module becomes the URL of that module's own output in dist/src, so
 * what a module finds beside itself (generated validators, the schemas folder, the page's files)
 * is found from the bundle too.
 */
const moduleUrls = {
  name: 'module-urls',
  setup(esbuild) {
    esbuild.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const own = relative(dirname(outfile), join(root, 'dist', relative(root, args.path))).replace(/\.ts$/, '.js').split('\\').join('/');
      return { contents: source.replaceAll('import.meta.url', `__annotModuleUrl(${JSON.stringify(own)})`), loader: 'ts' };
    });
  },
};

/**
 * Packages stay in node_modules, required at run time, except those that are ES modules only
 * (p-limit): a default import of one through require() would get its namespace, not its default,
 * so they go into the bundle.
 */
const packagesOutside = {
  name: 'packages-outside',
  setup(esbuild) {
    const esmOnly = new Map();
    esbuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { external: true };
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      if (!esmOnly.has(name)) esmOnly.set(name, isEsmOnly(name, args.resolveDir));
      return esmOnly.get(name) ? undefined : { external: true };
    });
  },
};

/** Whether the package has no CommonJS entry: "type": "module" and no `require` condition for its main export. */
function isEsmOnly(name, fromDir) {
  const manifest = packageManifest(name, fromDir);
  if (manifest === null) return false;
  const main = manifest.exports?.['.'] ?? manifest.exports;
  return manifest.type === 'module' && !JSON.stringify(main ?? {}).includes('"require"');
}

/** The package's package.json, found as Node finds the package: in node_modules up from the importing folder. */
function packageManifest(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    try {
      return JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8'));
    } catch {
      if (dirname(dir) === dir) return null;
    }
  }
}

await build({
  entryPoints: [join(root, 'src', 'cli', 'fast-entry.ts')],
  outfile,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // import() of a package becomes require(): a vm.Script has no module loader of its own for import().
  supported: { 'dynamic-import': false },
  sourcemap: 'linked',
  sourcesContent: false,
  charset: 'ascii',
  minifyWhitespace: true,
  minifySyntax: true,
  banner: { js: "const __annotModuleUrl = (own) => require('node:url').pathToFileURL(require('node:path').join(__dirname, own)).href;" },
  plugins: [moduleUrls, packagesOutside],
  logLevel: 'warning',
});

const training = spawnSync(process.execPath, [join(root, 'scripts', 'train-fast-path.mjs')], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
if (training.status !== 0) {
  process.stderr.write(training.stderr);
  throw new Error(`scripts/train-fast-path.mjs exited with ${training.status}`);
}

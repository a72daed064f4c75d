// The build `npm test` runs: the same output as `npm run build`, without starting from an empty
// dist. `tsc -b` recompiles only what changed since the last build (tsconfig.build.json is
// composite, tsconfig.page.json incremental), and the validators are regenerated only when a
// schema or their generator is newer than them. `npm run build` still builds from scratch, for
// packaging.
//
// The start-up fast path's bundle and code cache (scripts/build-fast-bundle.mjs) are rebuilt when
// a source, the scripts that write them or bin/load-fast-path.js is newer than the cache.
//
// tsc never deletes the output of a source file that was deleted or renamed, and a stale module
// left in dist could still be imported by a test or a command (a plugin path, a dynamic import),
// so outputs whose source is gone are pruned first.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');

/** dist folder -> the source folder its .js/.d.ts/.map files come from. */
const COMPILED = { 'dist/src': 'src', 'dist/commands': 'commands', 'dist/web': 'web' };
/** Files in dist that no .ts source produces: the build writes or copies them. */
const NOT_COMPILED = [/^dist\/src\/[^/]+\/generated\//, /^dist\/web\/(index\.html|timeline\.css)$/];
const OUTPUT_SUFFIXES = ['.d.ts.map', '.js.map', '.d.ts', '.js'];

function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** Deletes compiled outputs whose .ts source no longer exists; returns their paths. */
function pruneStaleOutputs() {
  const pruned = [];
  for (const [out, source] of Object.entries(COMPILED)) {
    for (const file of filesUnder(join(root, out))) {
      const rel = relative(root, file).split('\\').join('/');
      if (NOT_COMPILED.some((pattern) => pattern.test(rel))) continue;
      const suffix = OUTPUT_SUFFIXES.find((s) => rel.endsWith(s));
      if (!suffix) continue;
      const stem = source + rel.slice(out.length, rel.length - suffix.length);
      if (existsSync(join(root, `${stem}.ts`))) continue;
      rmSync(file);
      pruned.push(rel);
    }
  }
  return pruned;
}

/** True when some .ts source has no .js in dist: tsc -b trusts its build info and would not notice. */
function outputMissing() {
  return Object.entries(COMPILED).some(([out, source]) =>
    filesUnder(join(root, source))
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
      .some((file) => !existsSync(join(root, out, relative(join(root, source), file)).replace(/\.ts$/, '.js'))),
  );
}

const newest = (paths) => Math.max(0, ...paths.filter(existsSync).map((path) => statSync(path).mtimeMs));
const oldest = (paths) => (paths.every(existsSync) ? Math.min(...paths.map((path) => statSync(path).mtimeMs)) : -1);

const pruned = pruneStaleOutputs();
if (pruned.length > 0) console.log(`pruned ${pruned.length} outputs whose source is gone: ${pruned.slice(0, 5).join(', ')}${pruned.length > 5 ? ', ...' : ''}`);

const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
execFileSync(process.execPath, [tsc, '-b', 'tsconfig.page.json', ...(outputMissing() ? ['--force'] : [])], { cwd: root, stdio: 'inherit' });

mkdirSync(join(dist, 'web'), { recursive: true });
for (const name of ['index.html', 'timeline.css']) copyFileSync(join(root, 'web', name), join(dist, 'web', name));

const validators = [join(dist, 'src', 'render', 'generated', 'scene-validator.cjs'), join(dist, 'src', 'schemas', 'generated', 'validators.cjs')];
const inputs = [...filesUnder(join(root, 'schemas')), join(root, 'scripts', 'build-validators.js'), join(dist, 'src', 'json', 'canonical-json.js')];
if (newest(inputs) >= oldest(validators)) execFileSync(process.execPath, [join(root, 'scripts', 'build-validators.js')], { cwd: root, stdio: 'inherit' });

const fastPath = [join(dist, 'cli', 'fast-path.cjs'), join(dist, 'cli', 'fast-path.cjs.cache')];
const fastInputs = [
  ...filesUnder(join(root, 'src')),
  ...['build-fast-bundle.mjs', 'train-fast-path.mjs'].map((name) => join(root, 'scripts', name)),
  join(root, 'bin', 'load-fast-path.js'),
  join(root, 'package.json'),
];
if (newest(fastInputs) >= oldest(fastPath)) execFileSync(process.execPath, [join(root, 'scripts', 'build-fast-bundle.mjs')], { cwd: root, stdio: 'inherit' });

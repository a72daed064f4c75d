// Loads the start-up fast path (src/cli/fast-entry.ts) for bin/run.js: the one-file bundle that
// `npm run build` writes (scripts/build-fast-bundle.mjs), compiled with the V8 code cache written
// beside it, so V8 deserializes the functions a small command runs instead of parsing and compiling
// them; or, without a bundle (or on a Node.js that cannot require() an ES module), the modules in
// dist/src. A cache V8 refuses (another Node.js, other flags) only means compiling as usual. With
// ANNOT_DEBUG set the bundle is loaded with source maps, so a stack trace names the files in src/.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

export const FAST_BUNDLE = fileURLToPath(new URL('../dist/cli/fast-path.cjs', import.meta.url));
export const FAST_BUNDLE_CACHE = `${FAST_BUNDLE}.cache`;

/** The fast path's exports, and the compiled bundle (null when it came from dist/src or with ANNOT_DEBUG). */
export async function loadFastPath({ cache = true } = {}) {
  const fromModules = async () => ({ api: await import('../dist/src/cli/fast-entry.js'), script: null });
  // The bundle require()s the packages it uses, some of them ES modules: Node 20.19 and later can.
  if (!process.features.require_module) return fromModules();
  let source;
  try {
    // esbuild writes ASCII only (charset: 'ascii'), which latin1 reads without decoding UTF-8.
    source = readFileSync(FAST_BUNDLE, 'latin1');
  } catch {
    return fromModules();
  }
  if (process.env.ANNOT_DEBUG) {
    process.setSourceMapsEnabled(true);
    return { api: createRequire(import.meta.url)(FAST_BUNDLE), script: null };
  }
  let cachedData;
  if (cache) {
    try {
      cachedData = readFileSync(FAST_BUNDLE_CACHE);
    } catch {
      cachedData = undefined;
    }
  }
  // Node's own CommonJS wrapper, on the bundle's first line, so lines keep their numbers.
  // The bundle has no import() (scripts/build-fast-bundle.mjs): a script compiled here has no module loader for one.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: FAST_BUNDLE, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(FAST_BUNDLE), module, FAST_BUNDLE, dirname(FAST_BUNDLE));
  return { api: module.exports, script };
}

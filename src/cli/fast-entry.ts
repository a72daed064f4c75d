/**
 * What bin/run.js loads for the start-up fast path: the process guards and the fast path itself.
 * `npm run build` bundles this module and everything it reaches into one file with a V8 code
 * cache (scripts/build-fast-bundle.mjs, bin/load-fast-path.js), so that a small conversion does
 * not resolve, read and compile some 120 modules one by one; without that file bin/run.js imports
 * this module from dist/src as it is.
 */
export { guardProcess } from './process-guards.js';
export { runFastPath, takesFastPath } from './fast-path.js';

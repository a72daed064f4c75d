// `node --import <this file>`: appends every module the process resolves (ESM imports through a
// resolve hook, CommonJS requires through Module._resolveFilename) to $ANNOT_LOAD_LOG, one per
// line, so a test can assert which packages and source folders a command loads.
import Module, { register } from 'node:module';
import { appendFileSync } from 'node:fs';

const log = process.env.ANNOT_LOAD_LOG;
if (log) {
  const hook = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n');
  return resolved;
}`;
  register('data:text/javascript,' + encodeURIComponent(hook));
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function (...args) {
    const resolved = resolveFilename.apply(this, args);
    appendFileSync(log, resolved + '\n');
    return resolved;
  };
}

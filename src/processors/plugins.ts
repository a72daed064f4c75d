import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InvalidInputError } from '../errors/annot-error.js';
import type { Processor } from './processor.js';
import { registerProcessor } from './registry.js';

/**
 * Loads processor modules named on the command line (`--plugin ./my-processors.js`), so a
 * worker can run processors of its own. A module's default export, a processor or a list of
 * them, is registered; a module may instead call registerProcessor itself. Returns the names
 * registered from default exports.
 */
export async function loadProcessorModules(paths: readonly string[]): Promise<string[]> {
  const names: string[] = [];
  for (const path of paths) {
    let loaded: { default?: unknown };
    try {
      loaded = (await import(pathToFileURL(resolve(path)).href)) as { default?: unknown };
    } catch (error) {
      throw new InvalidInputError(`--plugin ${path}: cannot load it as an ES module (${error instanceof Error ? error.message : String(error)})`, { cause: error });
    }
    const exported = loaded.default === undefined ? [] : Array.isArray(loaded.default) ? loaded.default : [loaded.default];
    for (const candidate of exported) {
      if (!isProcessor(candidate)) {
        throw new InvalidInputError(`--plugin ${path}: the default export is not a processor ({name, description, paramsSchema, run}) or a list of them`);
      }
      registerProcessor(candidate);
      names.push(candidate.name);
    }
  }
  return names;
}

function isProcessor(value: unknown): value is Processor {
  const candidate = value as Partial<Processor> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.name === 'string' &&
    typeof candidate.description === 'string' &&
    typeof candidate.paramsSchema === 'object' &&
    typeof candidate.run === 'function'
  );
}

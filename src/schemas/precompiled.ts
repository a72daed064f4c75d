import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv/dist/2020.js';

/**
 * The validators the build compiled (scripts/build-validators.js → generated/validators.cjs
 * beside this module): every built-in body schema by its URI, and the wire schemas by file name
 * (`annotation.json`, `tier.json`). Loading one costs no ajv compiler, which is most of what a
 * first validation used to cost a command. Running from the sources (tests) there is no
 * generated module, and callers compile as before.
 */
interface PrecompiledModule {
  readonly canonical: Readonly<Record<string, string>>;
  readonly [key: string]: unknown;
}

let loaded: PrecompiledModule | null | undefined;

function precompiledModule(): PrecompiledModule | null {
  if (loaded === undefined) {
    try {
      loaded = createRequire(import.meta.url)('./generated/validators.cjs') as PrecompiledModule;
    } catch {
      loaded = null;
    }
  }
  return loaded;
}

/**
 * The build's validator for `key`, when it was compiled from exactly the schema given by its
 * canonical JSON (a schema registered anew under a built-in URI gets its own compile); else null.
 */
export function precompiledValidator(key: string, canonical: string): ValidateFunction | null {
  const compiled = precompiledModule();
  if (compiled === null || compiled.canonical[key] !== canonical) return null;
  const validate = compiled[key];
  return typeof validate === 'function' ? (validate as ValidateFunction) : null;
}

import { Flags } from '@oclif/core';
import type { AlphabetLowercase, AlphabetUppercase, BooleanFlag, OptionFlag } from '@oclif/core/interfaces';
import type { FlagSpec, FlagSpecs } from './flag-specs.js';

type OclifFlagOf<S extends FlagSpec> = S extends { kind: 'boolean' }
  ? BooleanFlag<boolean>
  : S extends { kind: 'integer' }
    ? S extends { default: number }
      ? OptionFlag<number>
      : OptionFlag<number | undefined>
    : S extends { default: string } | { required: true }
      ? OptionFlag<string>
      : OptionFlag<string | undefined>;

/** oclif flags built from their one description (flag-specs.ts), so the fast path and oclif cannot drift. */
export function oclifFlags<T extends FlagSpecs>(specs: T): { [K in keyof T]: OclifFlagOf<T[K]> } {
  const flags: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) flags[name] = oclifFlag(spec);
  return flags as { [K in keyof T]: OclifFlagOf<T[K]> };
}

function oclifFlag(spec: FlagSpec): unknown {
  switch (spec.kind) {
    case 'boolean':
      return Flags.boolean(definedOnly({ char: spec.char as AlphabetLowercase | AlphabetUppercase | undefined, description: spec.description, default: spec.default, allowNo: spec.allowNo }));
    case 'integer':
      return Flags.integer(definedOnly({ description: spec.description, min: spec.min, max: spec.max, default: spec.default }));
    default:
      return Flags.string(
        definedOnly({
          description: spec.description,
          options: spec.options ? [...spec.options] : undefined,
          default: spec.default,
          required: spec.required,
          env: spec.env,
        }),
      );
  }
}

/** The options given, as a flag written by hand names them: an option absent rather than undefined, which oclif could tell apart. */
function definedOnly<T extends object>(options: T): T {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as T;
}

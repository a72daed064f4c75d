/**
 * Flags described once, as plain data, for the commands the start-up fast path also serves
 * (fast-commands.ts): the oclif command builds its flags from these (oclif-flags.ts) and the fast
 * path its `parseArgs` options (fast-path.ts). Plain data, so that the fast path reads them
 * without loading @oclif/core. Each property means what oclif's flag option of that name means.
 */
export type FlagSpec =
  | {
      readonly kind: 'string';
      readonly description: string;
      readonly options?: readonly string[];
      readonly default?: string;
      readonly required?: boolean;
      /** Read from this environment variable when the flag is not given (and the variable is not empty). */
      readonly env?: string;
    }
  | { readonly kind: 'integer'; readonly description: string; readonly min?: number; readonly max?: number; readonly default?: number }
  /** `char`: a one-letter alias (`-q`); `allowNo`: `--no-<name>` gives false. */
  | { readonly kind: 'boolean'; readonly description: string; readonly char?: string; readonly default?: boolean; readonly allowNo?: boolean };

export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

type ParseArgsOptions<T extends FlagSpecs> = { [K in keyof T]: { type: T[K]['kind'] extends 'boolean' ? 'boolean' : 'string'; short?: string } };

/** The `parseArgs` options of a set of flags: integers arrive as strings and are checked by `plainValues`. */
export function parseArgsOptions<T extends FlagSpecs>(specs: T): ParseArgsOptions<T> {
  const options: Record<string, { type: 'boolean' | 'string'; short?: string }> = {};
  for (const [name, spec] of Object.entries(specs)) {
    options[name] = spec.kind === 'boolean' ? { type: 'boolean', ...(spec.char === undefined ? {} : { short: spec.char }) } : { type: 'string' };
  }
  return options as ParseArgsOptions<T>;
}

/** A flag's value as parsed from text by its spec. */
export type FlagValue<S extends FlagSpec> = S extends { kind: 'boolean' } ? boolean : S extends { kind: 'integer' } ? number : string;

/** A flag that always has a value once parsed: it has a default, or oclif refuses a command line without it. */
type AlwaysPresent = { default: unknown } | { required: true };

/** The parsed values of a set of flags: those with a default or required are always present. */
export type FlagValues<T extends FlagSpecs> = { -readonly [K in keyof T as T[K] extends AlwaysPresent ? K : never]: FlagValue<T[K]> } & {
  -readonly [K in keyof T as T[K] extends AlwaysPresent ? never : K]?: FlagValue<T[K]>;
};

/**
 * The values `parseArgs` gave, typed and checked as oclif would check them (an integer of digits
 * within its bounds, one of the options, a required flag present), with the environment and the
 * defaults filled in; null when one of them is a value oclif would refuse, so that oclif says so
 * in its own words.
 */
export function plainValues<T extends FlagSpecs>(specs: T, values: Record<string, string | boolean | undefined>): FlagValues<T> | null {
  const typed: Record<string, string | number | boolean> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const given = values[name] ?? (spec.kind === 'string' ? fromEnvironment(spec.env) : undefined);
    if (given === undefined && spec.kind === 'string' && spec.required) return null;
    const value = given ?? spec.default;
    if (value === undefined) continue;
    const checked = checkedValue(spec, value);
    if (checked === null) return null;
    typed[name] = checked;
  }
  return typed as FlagValues<T>;
}

/** oclif takes a flag's variable only when it is set to something. */
function fromEnvironment(variable: string | undefined): string | undefined {
  return variable === undefined ? undefined : process.env[variable] || undefined;
}

function checkedValue(spec: FlagSpec, value: string | number | boolean): string | number | boolean | null {
  if (typeof value === 'string' && value.startsWith('-')) return null;
  if (spec.kind === 'integer') {
    const number = Number(value);
    if (!/^\d+$/.test(String(value)) || !Number.isSafeInteger(number) || number < (spec.min ?? 0) || number > (spec.max ?? Infinity)) return null;
    return number;
  }
  if (spec.kind === 'string' && spec.options !== undefined && !spec.options.includes(String(value))) return null;
  return value;
}

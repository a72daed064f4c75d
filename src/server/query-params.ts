import { InvalidQueryError } from './errors.js';

/**
 * Query strings are strings: each parameter is read here, explicitly, instead of being coerced
 * by a validator. A repeated parameter and a parameter the route does not know are errors, so a
 * typo (`?tiers=words`) is never silently ignored.
 */
export class QueryParams {
  private constructor(private readonly values: Readonly<Record<string, string>>) {}

  static of(query: unknown, allowed: readonly string[]): QueryParams {
    const values: Record<string, string> = {};
    for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
      if (!allowed.includes(name)) {
        const known = allowed.length > 0 ? `it takes ${allowed.join(', ')}` : 'it takes no query parameters';
        throw new InvalidQueryError(name, `unknown query parameter "${name}"; ${known}`);
      }
      if (Array.isArray(value)) throw new InvalidQueryError(name, `query parameter "${name}" is given ${value.length} times; give it once`);
      values[name] = String(value);
    }
    return new QueryParams(values);
  }

  string(name: string): string | undefined {
    return this.values[name];
  }

  requiredString(name: string, what: string): string {
    const value = this.values[name];
    if (value === undefined || value === '') throw new InvalidQueryError(name, `query parameter "${name}" is required: ${what}`);
    return value;
  }

  /** A whole number in [min, max], written in decimal digits only (no sign, no exponent, no spaces). */
  integer(name: string, { min, max }: { min: number; max: number }): number | undefined {
    const raw = this.values[name];
    if (raw === undefined) return undefined;
    const value = /^(0|[1-9][0-9]*)$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
      throw new InvalidQueryError(name, `query parameter "${name}" must be a whole number ${range}, got ${JSON.stringify(raw)}`);
    }
    return value;
  }

  requiredInteger(name: string, bounds: { min: number; max: number }, what: string): number {
    const value = this.integer(name, bounds);
    if (value === undefined) throw new InvalidQueryError(name, `query parameter "${name}" is required: ${what}`);
    return value;
  }
}

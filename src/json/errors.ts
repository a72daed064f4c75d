import { AnnotError } from '../errors/annot-error.js';

/**
 * A body reached the digest with a mapping key that is not a string. JSON object keys are
 * strings, so such a key would be coerced, and a coercion collision silently drops an entry:
 * two different annotations would digest alike. We refuse rather than give a false hit.
 */
export class NonStringBodyKeyError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_NON_STRING_BODY_KEY';

  constructor(
    /** Where in the body the key was found. */
    readonly path: string,
    /** The key that is not a string. */
    readonly key: unknown,
  ) {
    super(
      `${path} has a non-string key ${describeKey(key)}. JSON object keys are strings, so this key would be ` +
        'coerced, and a coercion collision silently drops an entry, which would make two different annotations ' +
        'digest alike. Fix the producer so the body contains only JSON types.',
    );
  }
}

/** A value that has no canonical JSON form (a function, a symbol, a bigint, NaN, a class instance...). */
export class NotJsonError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_NOT_JSON';

  constructor(
    /** Where in the body the value was found. */
    readonly path: string,
    what: string,
  ) {
    super(`${path} is ${what}, which is not a JSON value; bodies and hashed inputs must be plain JSON.`);
  }
}

function describeKey(key: unknown): string {
  const type = key === null ? 'null' : typeof key === 'object' ? (key as object).constructor?.name ?? 'object' : typeof key;
  let shown: string;
  try {
    shown = typeof key === 'bigint' ? `${key}n` : JSON.stringify(key) ?? String(key);
  } catch {
    shown = String(key);
  }
  return `${shown} of type ${type}`;
}

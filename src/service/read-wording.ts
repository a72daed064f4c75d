import { InvalidInputError, type AnnotError } from '../errors/annot-error.js';

/** The fields of a read a surface names in its messages. */
export type ReadField = 'start' | 'end' | 'relation' | 'after';

/**
 * How a surface words what is wrong with a read: its names for the fields (`--start`, `start`)
 * and the error it raises for a missing or contradictory one (HTTP names the query parameter).
 */
export interface ReadWording {
  /** The name of a field as the surface spells it (`start`, `--start`, `start_seconds`). */
  readonly name: (field: ReadField) => string;
  /** The error to raise for a field that is missing or wrong. */
  readonly refuse: (field: ReadField, message: string) => AnnotError;
  /** What to do to get a good cursor, ending the messages about a bad one. */
  readonly resumeHint: string;
}

/** A wording that names the fields as `names` says and refuses with InvalidInputError. */
export function plainWording(names: Readonly<Record<ReadField, string>>, resumeHint: string): ReadWording {
  return { name: (field) => names[field], refuse: (_field, message) => new InvalidInputError(message), resumeHint };
}

/** The library's own wording: the fields by their ReadInput names. */
export const LIBRARY_WORDING = plainWording({ start: 'start', end: 'end', relation: 'relation', after: 'after' }, 'pass the next of the previous page');

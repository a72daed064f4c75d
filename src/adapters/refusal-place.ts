import { InvalidInputError } from '../errors/annot-error.js';
import { formatLocation, type SourceLocation } from './errors.js';

/** Refusals already named with their file: naming one twice would say the file twice. */
const placed = new WeakSet<Error>();

/**
 * Names the file, and where in it the refused value was read, in a refusal the model made of a
 * value a reader handed it: the model's constructors and its limits (InvalidAnnotationError,
 * InvalidTierError, a metadata entry's InvalidInputError) speak of fields, not files, so
 * `body: at most 1048576 characters ...` becomes `talk.vtt:7: body: at most 1048576 characters ...`,
 * as a reader's own FormatParseError reads. Other errors, and a refusal named already, pass
 * through as they are. Returns the error, for `throw placedInFile(...)`.
 */
export function placedInFile(error: unknown, file: string, location: SourceLocation = {}): unknown {
  if (!(error instanceof InvalidInputError) || placed.has(error)) return error;
  placed.add(error);
  // A reader that worded its refusal itself named the file already.
  if (!error.message.startsWith(`${file}:`) && !error.message.startsWith(`${file} (`)) error.message = `${file}${formatLocation(location)}: ${error.message}`;
  return error;
}

/** Whether the refusal names its file already (placedInFile saw it). */
export function isPlaced(error: unknown): boolean {
  return error instanceof Error && placed.has(error);
}

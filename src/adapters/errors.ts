import { AnnotError } from '../errors/annot-error.js';
import type { ErrorCode } from '../errors/error-table.js';

/** Where in a file something went wrong: a line and column, or a JSON path / XML element. */
export interface SourceLocation {
  /** The line, from 1. */
  line?: number;
  /** The column, from 1. */
  column?: number;
  /** JSON path (`$.items[3].target`) or XML element path (`TIER[2]/ANNOTATION[17]`). */
  path?: string;
}

/**
 * Malformed input. The message names the file, the place and what was expected, e.g.
 * `talk.vtt:12:5: expected "-->" after the cue start time`.
 */
export class FormatParseError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code: ErrorCode = 'ANNOT_FORMAT_PARSE';

  constructor(
    /** The file, as its path was given (`<stdin>` for standard input). */
    readonly file: string,
    /** Where in the file: line and column, or a JSON pointer or XPath. */
    readonly location: SourceLocation,
    /** What the reader expected there. */
    readonly expected: string,
  ) {
    super(`${file}${formatLocation(location)}: ${expected}`);
  }
}

/**
 * Input nested deeper than a reader allows (JSON arrays and objects, XML elements). Readers bound
 * their depth so that hostile input is refused with the place it went too deep, never a stack
 * overflow: `deep.jams:1:513: nesting deeper than 512 levels of JSON arrays and objects`.
 */
export class InputTooDeepError extends FormatParseError {
  override readonly code: ErrorCode = 'ANNOT_INPUT_TOO_DEEP';

  constructor(
    file: string,
    location: SourceLocation,
    readonly depth: number,
    readonly limit: number,
    what: string,
  ) {
    super(file, location, `nesting deeper than ${limit} levels of ${what} (level ${depth} starts here); refused, no real file nests this deep`);
  }
}

/**
 * Input larger than a reader allows: a compressed file that inflates past what any reader can
 * hold, or so far past its compressed size that it can only be a gzip bomb. It is refused while
 * it is read, so the refusal costs a few megabytes, never the size the input claims.
 */
export class InputTooLargeError extends FormatParseError {
  override readonly code: ErrorCode = 'ANNOT_INPUT_TOO_LARGE';

  constructor(
    file: string,
    /** How many bytes had been produced (inflated) when the input was refused. */
    readonly bytes: number,
    description: string,
  ) {
    super(file, {}, description);
  }
}

/**
 * Bytes that do not decode in the encoding chosen for a file (its byte-order mark, `--encoding`,
 * its XML declaration, or the one detected), or a file that mixes encodings. Never replaced by
 * U+FFFD: the message names the byte offset, the line and column, and how to choose an encoding.
 */
export class TextDecodingError extends FormatParseError {
  override readonly code: ErrorCode = 'ANNOT_TEXT_ENCODING';

  constructor(
    file: string,
    location: SourceLocation,
    expected: string,
    /** Where the bytes that do not decode start, from the start of the file. */
    readonly byteOffset: number,
  ) {
    super(file, location, expected);
  }
}

/** An encoding name (`--encoding`, `?encoding=`) that no decoder knows. The message lists some that are. */
export class UnknownEncodingError extends AnnotError {
  readonly code = 'ANNOT_UNKNOWN_ENCODING';
}

/** No adapter matches the name, extension or content given. The message lists the known ones. */
export class UnknownFormatError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_UNKNOWN_FORMAT';
}

/** The store holds something the target format cannot express at all (not merely loses). */
export class UnrepresentableError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_UNREPRESENTABLE';
}

/** `:12:5 (TIER[2]/ANNOTATION[5])`: a location as it follows a file name in a message. */
export function formatLocation(location: SourceLocation): string {
  let text = '';
  if (location.line !== undefined) text += `:${location.line}`;
  if (location.line !== undefined && location.column !== undefined) text += `:${location.column}`;
  if (location.path) text += ` (${location.path})`;
  return text;
}

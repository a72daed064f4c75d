import { AnnotError, InvalidInputError, NotFoundError } from '../errors/annot-error.js';
import type { ValidationIssue } from '../schemas/validation-issue.js';

/** A processor name nobody registered; the message lists the ones that are. */
export class UnknownProcessorError extends NotFoundError {
  /** The stable code of this error (see docs/errors.md). */
  override readonly code = 'ANNOT_UNKNOWN_PROCESSOR';

  constructor(
    /** The processor name that was asked for. */
    readonly processor: string,
    known: readonly string[],
  ) {
    super(`no processor registered as "${processor}"; known: ${known.length > 0 ? known.join(', ') : '(none)'} (annot process --list shows them)`);
  }
}

/** Processor parameters that do not match the processor's params schema (or a `key=value` that cannot be read). */
export class ProcessorParamsError extends InvalidInputError {
  /** The stable code of this error (see docs/errors.md). */
  override readonly code = 'ANNOT_PROCESSOR_PARAMS';

  constructor(
    /** The processor the parameters were for. */
    readonly processor: string,
    /** Every problem with the parameters, each with its path. */
    readonly issues: readonly ValidationIssue[],
  ) {
    super(`${processor}: invalid params: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`);
  }
}

/** A processor that was given valid params but could not do its work (the cause says why). */
export class ProcessorFailedError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_PROCESSOR_FAILED';
}

/** Redis could not be reached, so the queue cannot be used. */
export class QueueUnavailableError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_QUEUE_UNAVAILABLE';
}

/** A job id the queue does not know (never enqueued on this queue, or removed since). */
export class JobNotFoundError extends NotFoundError {
  /** The stable code of this error (see docs/errors.md). */
  override readonly code = 'ANNOT_JOB_NOT_FOUND';
}

import { AnnotError } from './annot-error.js';
import type { ErrorCode } from './error-table.js';
import { isSystemError, systemFailure } from './system-error.js';

/** The registered code any thrown value is reported under: its own, the system error's, else ANNOT_INTERNAL. */
export function errorCodeOf(error: unknown): ErrorCode {
  if (error instanceof AnnotError) return error.code;
  if (isSystemError(error)) return systemFailure(error).code;
  return 'ANNOT_INTERNAL';
}

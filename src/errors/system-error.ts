import type { ErrorCode } from './error-table.js';

/**
 * What the operating system said (a Node.js error with an errno code such as ENOENT), in annot's
 * words and with a registered code (a refused or failed write has its own codes: io/write-failure.ts).
 * Only the errors annot words itself have a code of their own;
 * any other says ANNOT_SYSTEM_ERROR with the system's message.
 */
export interface SystemFailure {
  readonly code: ErrorCode;
  readonly message: string;
}

interface SystemError extends Error {
  code: string;
  path?: string;
}

const WORDED: Readonly<Record<string, { code: ErrorCode; says: string }>> = {
  ENOENT: { code: 'ANNOT_SYSTEM_ENOENT', says: 'no such file or directory' },
  EISDIR: { code: 'ANNOT_SYSTEM_EISDIR', says: 'is a directory, expected a file' },
  ENOTDIR: { code: 'ANNOT_SYSTEM_ENOTDIR', says: 'a part of the path is not a directory' },
};

export function isSystemError(error: unknown): error is SystemError {
  return error instanceof Error && typeof (error as SystemError).code === 'string' && /^E[A-Z]+$/.test((error as SystemError).code);
}

export function systemFailure(error: SystemError): SystemFailure {
  const where = error.path ? `${error.path}: ` : '';
  const worded = Object.prototype.hasOwnProperty.call(WORDED, error.code) ? WORDED[error.code] : undefined;
  if (worded) return { code: worded.code, message: `${where}${worded.says}` };
  return { code: 'ANNOT_SYSTEM_ERROR', message: `${where}${error.message}` };
}

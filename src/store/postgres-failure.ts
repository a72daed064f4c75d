import { AnnotError } from '../errors/annot-error.js';
import { redactUrlCredentials } from '../text/secret-redaction.js';
import {
  StoreAuthenticationError,
  StoreDatabaseNotFoundError,
  StorePermissionError,
  StoreRoleNotFoundError,
  StoreUnreachableError,
} from './errors.js';
import type { StoreUrl } from './postgres-url.js';

/** What a failure message may say about the store: everything in a StoreUrl but the credentials. */
export type StoreTarget = Pick<StoreUrl, 'where' | 'address' | 'database' | 'user' | 'connectTimeoutMs'>;

/** SQLSTATEs (PostgreSQL, appendix A) that say the connection itself is wrong, not the statement. */
const SQLSTATE = {
  invalidCatalogName: '3D000',
  invalidAuthorization: '28000',
  invalidPassword: '28P01',
  insufficientPrivilege: '42501',
  adminShutdown: '57P01',
  crashShutdown: '57P02',
  cannotConnectNow: '57P03',
  tooManyConnections: '53300',
} as const;

/** Node's socket errors that mean the server cannot be reached at all. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE']);

/**
 * A driver failure as one of our typed errors, in one line that says what is wrong and where:
 * `postgres://db:5432/annot: database "annot" does not exist`. The cause keeps the driver's own
 * error; every message is stripped of URL credentials whatever the driver wrote. Our own errors
 * and statement-level failures (a constraint, a syntax error) come back as they are, redacted.
 */
export function storeFailure(error: unknown, target: StoreTarget): unknown {
  if (error instanceof AnnotError) return error;
  const translated = connectionFailure(error, target);
  if (translated !== null) return translated;
  if (isErrorLike(error)) error.message = redactUrlCredentials(error.message);
  return error;
}

/** Duck-typed: errors from node's sockets may come from another realm (a test's VM context), where instanceof Error is false. */
function isErrorLike(error: unknown): error is Error {
  return typeof error === 'object' && error !== null && typeof (error as Error).message === 'string';
}

function connectionFailure(error: unknown, target: StoreTarget): AnnotError | null {
  if (!isErrorLike(error)) return null;
  const { where } = target;
  const code = (error as { code?: unknown }).code;
  const role = target.user === null ? 'the default role' : `role "${target.user}"`;
  switch (code) {
    case SQLSTATE.invalidCatalogName:
      return new StoreDatabaseNotFoundError(`${where}: database "${target.database}" does not exist on the server at ${target.address}; create it (createdb ${target.database}) or fix the URL`, { cause: error });
    case SQLSTATE.invalidPassword:
      return new StoreAuthenticationError(`${where}: password authentication failed for ${role}; check the password in the URL (or PGPASSWORD)`, { cause: error });
    case SQLSTATE.invalidAuthorization:
      return /role .* does not exist/.test(error.message)
        ? new StoreRoleNotFoundError(`${where}: ${role} does not exist on the server at ${target.address}; fix the user in the URL`, { cause: error })
        : new StoreAuthenticationError(`${where}: the server refused ${role}: ${redactUrlCredentials(error.message)}`, { cause: error });
    case SQLSTATE.insufficientPrivilege:
      return new StorePermissionError(`${where}: ${role} may not do this: ${redactUrlCredentials(error.message)}; grant it the privileges (or use a role that has them)`, { cause: error });
    case SQLSTATE.adminShutdown:
    case SQLSTATE.crashShutdown:
    case SQLSTATE.cannotConnectNow:
    case SQLSTATE.tooManyConnections:
      return new StoreUnreachableError(`${where}: the server at ${target.address} is not taking connections (${redactUrlCredentials(error.message)}); try again later`, { cause: error });
  }
  if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return new StoreUnreachableError(`${where}: ${unreachableReason(code, target)}`, { cause: error });
  if (/^SASL: .*password must be a (non-empty )?string/.test(error.message)) {
    return new StoreAuthenticationError(`${where}: the server asks a password of ${role} and the URL gives none; put it in the URL or in PGPASSWORD`, { cause: error });
  }
  if (/^(timeout expired|timeout exceeded when trying to connect|Connection terminated due to connection timeout)/.test(error.message)) {
    return new StoreUnreachableError(`${where}: no answer from ${target.address} within ${target.connectTimeoutMs / 1000} s (set ?connect_timeout=SECONDS in the URL to wait longer)`, { cause: error });
  }
  if (/^Connection terminated/.test(error.message)) {
    return new StoreUnreachableError(`${where}: the server at ${target.address} closed the connection (${error.message}); try again`, { cause: error });
  }
  return null;
}

function unreachableReason(code: string, target: StoreTarget): string {
  switch (code) {
    case 'ECONNREFUSED':
      return `connection refused at ${target.address}; is PostgreSQL running there?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `host "${target.address.replace(/:\d+$/, '')}" not found; check the host in the URL`;
    case 'ETIMEDOUT':
      return `no answer from ${target.address} (timed out); check the host and port, and the network`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `the server at ${target.address} closed the connection; try again`;
    default:
      return `cannot reach ${target.address} (${code})`;
  }
}

import { AnnotError, InvalidInputError, NotFoundError } from '../errors/annot-error.js';
import { errorRow, type ErrorCode } from '../errors/error-table.js';
import type { TierViolation } from '../model/tier-constraint.js';
import { redactSecrets, redactUrlCredentials } from '../text/secret-redaction.js';
import type { ValidationIssue } from '../schemas/validation-issue.js';

/** The one error shape every failing response has, whatever failed: `{error: {code, message, details?}}`. */
export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    details?: Record<string, unknown>;
  };
}

// Errors only the HTTP surface can raise. Their codes are as stable as the library's.

/** No bearer token, or the wrong one, on a server started with --token. */
export class UnauthorizedError extends AnnotError {
  readonly code = 'ANNOT_UNAUTHORIZED';
}

/** A method and path the server does not serve. */
export class RouteNotFoundError extends NotFoundError {
  override readonly code = 'ANNOT_ROUTE_NOT_FOUND';
}

/** GET /schemas/{uri} for a URI nothing is registered under. */
export class SchemaNotFoundError extends NotFoundError {
  override readonly code = 'ANNOT_SCHEMA_NOT_FOUND';
}

/** A request body that is not what its Content-Type says (malformed JSON, an empty JSON body, a broken multipart stream). */
export class MalformedBodyError extends InvalidInputError {
  override readonly code = 'ANNOT_MALFORMED_BODY';
}

/** A request body of a media type the route does not take. */
export class UnsupportedMediaTypeError extends AnnotError {
  readonly code = 'ANNOT_UNSUPPORTED_MEDIA_TYPE';
}

/** A request body over the size limit of its route. */
export class BodyTooLargeError extends AnnotError {
  readonly code = 'ANNOT_BODY_TOO_LARGE';

  constructor(readonly limit: number) {
    super(`request body is larger than the limit of ${limit} bytes; send a smaller body or start the server with a larger --max-body/--max-import`);
  }
}

/** A Range header that lies outside the served media file (answered 416 with a Content-Range header giving the size). */
export class RangeNotSatisfiableError extends AnnotError {
  readonly code = 'ANNOT_RANGE_NOT_SATISFIABLE';
}

/** A request that arrived while the server shuts down (on a connection opened before). */
export class ShuttingDownError extends AnnotError {
  readonly code = 'ANNOT_SHUTTING_DOWN';
}

/** A request fastify refused before a route read it (a malformed URL, a parameter over its length). */
export class BadRequestError extends AnnotError {
  readonly code = 'ANNOT_BAD_REQUEST';
}

/** A query string parameter that is missing, repeated, unknown or not of its type. */
export class InvalidQueryError extends InvalidInputError {
  override readonly code = 'ANNOT_INVALID_QUERY';

  constructor(readonly parameter: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A well-formed JSON body that fails the route's own schema (bodies the service does not read itself). */
export class InvalidBodyError extends InvalidInputError {
  override readonly code = 'ANNOT_INVALID_BODY';

  constructor(readonly issues: readonly ValidationIssue[]) {
    super(`invalid request body: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`);
  }
}

/** fastify's own request errors, as ours (anything else of fastify's with a 4xx keeps its status). */
const FASTIFY_ERRORS: Readonly<Record<string, (error: Error) => AnnotError>> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => new UnsupportedMediaTypeError('this route takes a JSON body: send it with Content-Type: application/json'),
  FST_ERR_CTP_BODY_TOO_LARGE: () => new BodyTooLargeError(-1),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new MalformedBodyError('the request says Content-Type: application/json but its body is empty; send a JSON object'),
  FST_ERR_CTP_INVALID_JSON_BODY: (error) => new MalformedBodyError(`the request body is not valid JSON: ${error.message}`),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new MalformedBodyError('the request body length does not match its Content-Length header'),
};

export interface HttpFailure {
  readonly status: number;
  readonly body: ErrorBody;
  /** For the server's log: only failures that are the server's fault (5xx). */
  readonly internal?: Error;
}

/**
 * Turns anything thrown while answering a request into a status and the error body. Our typed
 * errors keep their code and message; fastify's request errors become ours; anything else is an
 * internal error whose response says nothing about the internals (no stack, no message).
 */
export function httpFailure(error: unknown, options: { bodyLimit?: number } = {}): HttpFailure {
  let failure = error;
  const fastifyCode = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : '';
  if (!(error instanceof AnnotError) && fastifyCode in FASTIFY_ERRORS) {
    failure = FASTIFY_ERRORS[fastifyCode](error as Error);
    if (failure instanceof BodyTooLargeError && options.bodyLimit !== undefined) failure = new BodyTooLargeError(options.bodyLimit);
  } else if (!(error instanceof AnnotError) && (error as SyntaxError)?.name === 'SyntaxError' && (error as { statusCode?: number }).statusCode === 400) {
    failure = new MalformedBodyError(`the request body is not valid JSON: ${(error as Error).message}`);
  }
  if (failure instanceof AnnotError) {
    return { status: statusFor(failure), body: { error: { code: failure.code, message: redactUrlCredentials(failure.message), ...detailsOf(failure) } } };
  }
  const statusCode = (error as { statusCode?: unknown })?.statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    // A request error fastify raised that we have no class for: one documented code, its message kept.
    const refused = new BadRequestError(redactSecrets((error as Error).message));
    return { status: statusFor(refused), body: { error: { code: refused.code, message: refused.message } } };
  }
  return {
    status: 500,
    body: { error: { code: 'ANNOT_INTERNAL', message: 'internal server error; the server log has the details' } },
    internal: error instanceof Error ? error : new Error(String(error)),
  };
}

export function statusFor(error: AnnotError): number {
  // The one registry of codes (src/errors/error-table.ts) decides; the CLI reads its exit statuses from it too.
  const status = errorRow(error.code)?.http;
  if (status !== undefined) return status;
  // Only JavaScript can throw a code the registry lacks (TypeScript refuses it): its family decides.
  if (error instanceof NotFoundError) return 404;
  if (error instanceof InvalidInputError) return 400;
  return 500;
}

/** Machine-readable details a client can act on, for the errors that have them. */
function detailsOf(error: AnnotError): { details?: Record<string, unknown> } {
  const fields = error as AnnotError & { issues?: unknown; currentEtag?: unknown; parameter?: unknown; limit?: unknown; violations?: unknown };
  const details: Record<string, unknown> = {};
  if (Array.isArray(fields.issues)) details.issues = fields.issues;
  if (typeof fields.currentEtag === 'string') details.current_etag = fields.currentEtag;
  if (typeof fields.parameter === 'string') details.parameter = fields.parameter;
  if (Array.isArray(fields.violations)) {
    details.violations = (fields.violations as TierViolation[]).map(({ tier, code, annotation_id, related_ids, message }) => ({ tier, code, annotation_id, related_ids, message }));
  }
  if (error instanceof BodyTooLargeError && error.limit >= 0) details.limit_bytes = error.limit;
  return Object.keys(details).length > 0 ? { details } : {};
}

/** The error body schema (for /openapi.json). */
export const ERROR_BODY_SCHEMA = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      additionalProperties: false,
      properties: {
        code: { type: 'string', description: 'a stable ANNOT_* code to key on' },
        message: { type: 'string', description: 'what went wrong and what to do, for a person' },
        details: { type: 'object', description: 'machine-readable details: issues (validation), current_etag (412), parameter (query), limit_bytes (413), violations (a tier constraint an edit would break, 409)' },
      },
    },
  },
} as const;

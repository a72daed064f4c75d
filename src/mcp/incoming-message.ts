import { ClientRequestSchema, JSONRPCMessageSchema, type JSONRPCErrorResponse, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

/** The error codes JSON-RPC 2.0 (§5.1) reserves for a message the server cannot take. */
export const JSON_RPC_ERROR = {
  parse: -32700,
  invalidRequest: -32600,
  invalidParams: -32602,
} as const;

/**
 * What became of one incoming text or value: a message for the MCP server, or a refusal with the
 * error response the sender gets (null when JSON-RPC forbids one: a malformed notification or
 * response) and one line for the server's log.
 */
export type Incoming =
  | { readonly kind: 'message'; readonly message: JSONRPCMessage }
  | { readonly kind: 'refused'; readonly answer: JSONRPCErrorResponse | null; readonly reason: string };

/** Where the annot code of a refusal goes in a JSON-RPC error's data (as in tool errors' `annot/error_code`). */
export const ANNOT_CODE_KEY = 'annot_code';

export function jsonRpcError(id: RequestId | null, code: number, message: string, data?: Record<string, unknown>): JSONRPCErrorResponse {
  // JSON-RPC answers a request whose id cannot be read with id null; the SDK's type leaves id out instead.
  return { jsonrpc: '2.0', id: id as RequestId, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

/** One line of JSON text (a line of stdio, an HTTP body) as a message or its refusal. */
export function parseIncoming(text: string): Incoming {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const why = (error as Error).message;
    return refused(jsonRpcError(null, JSON_RPC_ERROR.parse, `Parse error: the message is not JSON (${why})`), `a message that is not JSON: ${why}`);
  }
  return readIncoming(value);
}

/**
 * A parsed value as a JSON-RPC message, or the error it earns. The SDK's own check drops what it
 * cannot read without a word, so a client whose request had an id waited for ever: here a
 * request gets -32600 (not a request: no method, a wrong version, an unknown member) or -32602
 * (params that are not an object) with its id, and anything whose id cannot be read gets id null.
 */
export function readIncoming(value: unknown): Incoming {
  const checked = JSONRPCMessageSchema.safeParse(value);
  if (checked.success) return paramsChecked(checked.data as JSONRPCMessage);
  if (Array.isArray(value)) return invalid(null, 'a batch (JSON array) of messages; send one message per line, each a JSON object');
  if (typeof value !== 'object' || value === null) return invalid(null, `a JSON-RPC message must be a JSON object, got ${value === null ? 'null' : typeof value}`);
  const message = value as Record<string, unknown>;
  const id = readableId(message.id);
  const isResponse = 'result' in message || 'error' in message;
  if (!('id' in message) && typeof message.method === 'string') return dropped(`a malformed notification "${message.method}" (${firstProblem(message)}); notifications get no answer`);
  if (isResponse && !('method' in message)) return dropped(`a malformed response (${firstProblem(message)}); responses get no answer`);
  if ('id' in message && id === null) return invalid(null, 'the id must be a string or a number');
  if (message.jsonrpc !== '2.0') return invalid(id, `"jsonrpc" must be "2.0", got ${JSON.stringify(message.jsonrpc) ?? 'nothing'}`);
  if (typeof message.method !== 'string') return invalid(id, 'a request needs a "method" string');
  if ('params' in message && (typeof message.params !== 'object' || message.params === null || Array.isArray(message.params))) {
    const error = jsonRpcError(id, JSON_RPC_ERROR.invalidParams, `Invalid params: "params" of ${message.method} must be an object`);
    return refused(error, error.error.message);
  }
  return invalid(id, firstProblem(message));
}

/** The schema of each request a client may send, by method (the SDK's own, which its server applies too). */
const CLIENT_REQUESTS: ReadonlyMap<string, z.ZodType> = new Map(
  (ClientRequestSchema.options as unknown as Array<z.ZodObject<{ method: z.ZodLiteral<string> }>>).map((schema) => [schema.shape.method.value, schema]),
);

/**
 * A request whose params do not fit its method is answered -32602 in one line here: the SDK
 * answers it -32603 (an internal error) with zod's whole issue list as the message.
 */
function paramsChecked(message: JSONRPCMessage): Incoming {
  if (!('method' in message) || !('id' in message)) return { kind: 'message', message };
  const schema = CLIENT_REQUESTS.get(message.method);
  const checked = schema?.safeParse({ method: message.method, params: message.params });
  if (checked === undefined || checked.success) return { kind: 'message', message };
  const error = jsonRpcError(message.id, JSON_RPC_ERROR.invalidParams, `Invalid params for ${message.method}: ${issueLine(checked.error)}`);
  return refused(error, error.error.message);
}

/** The first of zod's issues as `params.name: expected string, received number`, and how many more there are. */
export function issueLine(error: z.ZodError): string {
  const [first, ...rest] = error.issues;
  const path = first.path.length === 0 ? 'params' : first.path.map(String).join('.');
  return `${path}: ${first.message.replace(/^Invalid input: /, '')}${rest.length > 0 ? ` (and ${rest.length} more)` : ''}`;
}

/** What is wrong with a message the schema refused, in one line: an unknown member, else the first issue. */
function firstProblem(message: Record<string, unknown>): string {
  const known = new Set(['jsonrpc', 'id', 'method', 'params', 'result', 'error']);
  const unknown = Object.keys(message).filter((key) => !known.has(key));
  if (unknown.length > 0) return `unexpected member ${JSON.stringify(unknown[0])} (a message has jsonrpc, id, method and params, or result or error)`;
  if (message.jsonrpc !== '2.0') return `"jsonrpc" must be "2.0", got ${JSON.stringify(message.jsonrpc) ?? 'nothing'}`;
  if ('error' in message) return '"error" must be {code, message}';
  return 'not a JSON-RPC request, notification or response';
}

function readableId(id: unknown): RequestId | null {
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

function invalid(id: RequestId | null, why: string): Incoming {
  return refused(jsonRpcError(id, JSON_RPC_ERROR.invalidRequest, `Invalid Request: ${why}`), `an invalid request: ${why}`);
}

function refused(answer: JSONRPCErrorResponse, reason: string): Incoming {
  return { kind: 'refused', answer, reason };
}

function dropped(reason: string): Incoming {
  return { kind: 'refused', answer: null, reason };
}

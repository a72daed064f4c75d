import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AnnotationService } from '../service/annotation-service.js';
import type { JSONRPCErrorResponse } from '@modelcontextprotocol/sdk/types.js';
import { httpFailure } from '../server/errors.js';
import { ANNOT_CODE_KEY, JSON_RPC_ERROR, jsonRpcError, readIncoming } from './incoming-message.js';
import { buildMcpServer, type McpServerOptions } from './server.js';

export const MCP_HTTP_PATH = '/mcp';

/**
 * Mounts the MCP tools on a fastify app at `/mcp` (streamable HTTP), over the same service, store
 * and op-log as the app's routes, so human edits over REST and agent edits over MCP share one
 * clock in one process (`annot serve --mcp`).
 *
 * Stateless: every POST gets its own server and transport, answering with plain JSON. The tools
 * keep no session state (all of it is in the store), so there is nothing to lose between
 * requests, no session table to leak, and any number of clients can call at once. GET (a
 * server-to-client event stream) and DELETE (ending a session) have no meaning here: 405.
 */
const JSON_RPC = { type: 'object', description: 'a JSON-RPC 2.0 message (Model Context Protocol)' };
const jsonRpc = (description: string) => ({ description, content: { 'application/json': { schema: JSON_RPC } } });
const NOT_ALLOWED_SCHEMA = {
  summary: 'not used: this MCP endpoint is stateless',
  response: { 405: jsonRpc('send JSON-RPC requests with POST'), 401: { description: 'missing or wrong bearer token', content: { 'application/json': { schema: { $ref: 'Error#' } } } } },
};

export async function mountMcpOverHttp(app: FastifyInstance, service: AnnotationService, options: McpServerOptions = {}): Promise<void> {
  app.post(MCP_HTTP_PATH, {
    schema: {
      summary: 'the MCP tools over streamable HTTP (annot serve --mcp); stateless, JSON responses',
      description:
        'One JSON-RPC message per request (or a batch of them). A body that is not JSON is answered 400 with a -32700 parse error; a message ' +
        'that is not a request the server can take 400 with -32600 (or -32602 for params that do not fit the method), with its id when it ' +
        'can be read; a body over --max-body 413 with -32600. Every one of them is a JSON-RPC error object, as the tools\' answers are.',
      body: { content: { 'application/json': { schema: JSON_RPC } } },
      response: {
        200: jsonRpc('the JSON-RPC response'),
        202: { description: 'a notification, accepted', type: 'null' },
        400: jsonRpc('a body that is not JSON (-32700), or not a JSON-RPC message the server can take (-32600, -32602)'),
        413: jsonRpc('a body over the server\'s --max-body (-32600, data.annot_code ANNOT_BODY_TOO_LARGE)'),
        415: jsonRpc('a body that is not application/json (-32600)'),
        ...NOT_ALLOWED_SCHEMA.response,
      },
    },
    errorHandler: answerBodyErrorsAsJsonRpc,
  }, async (request: FastifyRequest, reply: FastifyReply) => {
    const refusal = refusalOf(request.body);
    if (refusal !== null) return reply.code(400).type('application/json; charset=utf-8').send(refusal);
    const server = buildMcpServer(service, options);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // From here on the transport writes the response itself.
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      request.log.error({ err: error }, 'MCP request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'internal error' }, id: null }));
      }
    }
  });
  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send({ jsonrpc: '2.0', error: { code: -32000, message: 'this MCP endpoint is stateless: send JSON-RPC requests with POST' }, id: null });
  app.get(MCP_HTTP_PATH, { schema: NOT_ALLOWED_SCHEMA }, notAllowed);
  app.delete(MCP_HTTP_PATH, { schema: NOT_ALLOWED_SCHEMA }, notAllowed);
}

/**
 * The JSON-RPC error a body earns before it reaches the MCP server, or null when every message
 * in it is one the server can take. (The SDK's transport answers every such body with the same
 * -32700 and id null; this says what is wrong, with the request's id.)
 */
function refusalOf(body: unknown): JSONRPCErrorResponse | null {
  const messages = Array.isArray(body) && body.length > 0 ? body : [body];
  for (const [index, message] of messages.entries()) {
    const incoming = readIncoming(message);
    if (incoming.kind === 'message') continue;
    const answer = incoming.answer ?? jsonRpcError(null, JSON_RPC_ERROR.invalidRequest, `Invalid Request: ${incoming.reason}`);
    if (messages.length > 1) answer.error.message += ` (the batch's message at index ${index})`;
    return answer;
  }
  return null;
}

/**
 * Errors fastify raises while reading the body of /mcp (too large, not JSON, empty, another
 * content type), answered as JSON-RPC errors, since an MCP client reads nothing else there.
 * Anything else (a missing bearer token, a closing server) goes on to the app's error handler.
 */
function answerBodyErrorsAsJsonRpc(error: Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const failure = httpFailure(error, { bodyLimit: request.routeOptions?.bodyLimit });
  const code = failure.body.error.code;
  if (code === 'ANNOT_BODY_TOO_LARGE') {
    const limit = request.routeOptions?.bodyLimit;
    const answer = jsonRpcError(null, JSON_RPC_ERROR.invalidRequest, `Invalid Request: the body is over the limit of ${limit} bytes (annot serve --max-body); none of it was read`, {
      [ANNOT_CODE_KEY]: code,
      limit_bytes: limit,
    });
    return reply.code(413).header('Connection', 'close').type('application/json; charset=utf-8').send(answer);
  }
  if (code === 'ANNOT_MALFORMED_BODY') {
    return reply.code(400).type('application/json; charset=utf-8').send(jsonRpcError(null, JSON_RPC_ERROR.parse, `Parse error: ${failure.body.error.message}`));
  }
  if (code === 'ANNOT_UNSUPPORTED_MEDIA_TYPE') {
    return reply.code(415).type('application/json; charset=utf-8').send(jsonRpcError(null, JSON_RPC_ERROR.invalidRequest, `Invalid Request: ${failure.body.error.message}`));
  }
  throw error;
}

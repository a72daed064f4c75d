import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AnnotationService } from '../service/annotation-service.js';
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
      body: { content: { 'application/json': { schema: JSON_RPC } } },
      response: { 200: jsonRpc('the JSON-RPC response'), 202: { description: 'a notification, accepted', type: 'null' }, ...NOT_ALLOWED_SCHEMA.response },
    },
  }, async (request: FastifyRequest, reply: FastifyReply) => {
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

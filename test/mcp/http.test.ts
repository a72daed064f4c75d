import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { mountMcpOverHttp } from '../../src/mcp/http.js';
import { buildApp } from '../../src/server/app.js';
import { AnnotationService } from '../../src/service/annotation-service.js';
import { MemoryStore } from '../../src/store/memory.js';
import { connectTools, type ToolClient } from './mcp-client.js';

describe('mountMcpOverHttp: the MCP tools over streamable HTTP on the REST app', () => {
  let app: FastifyInstance;
  let base: string;
  let service: AnnotationService;
  const clients: ToolClient[] = [];

  beforeAll(async () => {
    service = new AnnotationService(new MemoryStore());
    app = await buildApp({ service, mountMcp: mountMcpOverHttp, log: () => {} });
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await app.close();
  });

  async function connect(): Promise<ToolClient> {
    const client = await connectTools(new StreamableHTTPClientTransport(new URL('/mcp', base)));
    clients.push(client);
    return client;
  }

  it('lists the eleven tools at /mcp', async () => {
    const tools = await connect();
    const { tools: listed } = await tools.client.listTools();
    expect(listed).toHaveLength(11);
  });

  it('shares one service and one Lamport clock between REST and MCP edits', async () => {
    const tools = await connect();
    const tier = await tools.ok('add_tier', { name: 'words', actor: 'agent:test' });
    expect(tier.clock).toBe(1);

    const rest = await fetch(`${base}/annotations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        tier: 'words',
        reference: { kind: 'media', asset_id: 'talk.wav', interval: { start: { v: 0, r: 1000 }, end: { v: 500, r: 1000 } } },
        body: { text: 'human' },
        body_schema_uri: 'annot://schema/label/v1',
      }),
    });
    expect(rest.status).toBe(201);
    expect(rest.headers.get('x-service-clock')).toBe('2');

    const agent = await tools.ok<{ id: string }>('add_annotation', { tier: 'words', asset_id: 'talk.wav', start_seconds: 0.5, end_seconds: 1, body: { text: 'agent' } });
    expect(agent.clock).toBe(3);
    expect((await tools.ok('latest_clock')).result).toEqual({ clock: 3 });
    const fromRest = (await (await fetch(`${base}/annotations/${agent.result.id}`)).json()) as { body: unknown };
    expect(fromRest.body).toEqual({ text: 'agent' });
    expect(await service.latestClock()).toBe(3);
  });

  it('serves several clients at once, each call answered on its own', async () => {
    const [a, b] = await Promise.all([connect(), connect()]);
    const [ca, cb] = await Promise.all([a.ok<{ clock: number }>('latest_clock'), b.ok<{ clock: number }>('latest_clock')]);
    expect(ca.result.clock).toBe(cb.result.clock);
  });

  it('answers tool failures as tool errors, not HTTP errors', async () => {
    const tools = await connect();
    const failure = await tools.fails('get_annotation', { annotation_id: '00000000-0000-4000-8000-000000000000' });
    expect(failure).toEqual({ message: 'annotation 00000000-0000-4000-8000-000000000000 not found', code: 'ANNOT_ANNOTATION_NOT_FOUND' });
  });

  it('refuses GET and DELETE on /mcp with 405: the endpoint is stateless', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${base}/mcp`, { method, headers: { accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('puts /mcp behind the app\'s bearer token like every other route', async () => {
    const guarded = await buildApp({ service, token: 's3cret', mountMcp: mountMcpOverHttp, log: () => {} });
    await guarded.listen({ host: '127.0.0.1', port: 0 });
    const url = new URL('/mcp', `http://127.0.0.1:${(guarded.server.address() as AddressInfo).port}`);
    try {
      const denied = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(denied.status).toBe(401);
      const tools = await connectTools(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: 'Bearer s3cret' } } }));
      expect((await tools.ok('latest_clock')).result).toEqual({ clock: 3 });
      await tools.close();
    } finally {
      await guarded.close();
    }
  });
});

import { SpanStatusCode } from '@opentelemetry/api';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mountMcpOverHttp } from '../../src/mcp/http.js';
import { buildMcpServer } from '../../src/mcp/server.js';
import { startTestServer } from '../server/http-client.js';
import { AnnotationService } from '../../src/service/annotation-service.js';
import { MemoryStore } from '../../src/store/memory.js';
import { recordSpans, type SpanRecorder } from './span-recorder.js';

describe('MCP tool call spans, through the SDK client over an in-memory transport', () => {
  let recorder: SpanRecorder;
  let client: Client;
  beforeEach(async () => {
    recorder = recordSpans();
    const server = buildMcpServer(new AnnotationService(new MemoryStore()), { version: '0.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'telemetry-test', version: '1.0.0' });
    await client.connect(clientSide);
    await client.listTools();
  });
  afterEach(async () => {
    await client.close();
    await recorder.stop();
  });

  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

  it('records "mcp add_annotation" with the tool and the clock, over the store.apply it made', async () => {
    await call('add_tier', { name: 'words' });
    const answer = await call('add_annotation', { tier: 'words', asset_id: 'talk.wav', start_seconds: 0.5, end_seconds: '1.25', body: { text: 'hi' } });
    expect(answer.isError).toBeFalsy();
    const tool = recorder.one('mcp add_annotation');
    expect(tool.attributes).toEqual({ 'annot.mcp.tool': 'add_annotation', 'annot.clock': 2 });
    const [apply] = recorder.childrenOf(tool);
    expect(apply.name).toBe('store.apply');
    expect(apply.attributes).toMatchObject({ 'annot.mutation.kinds': ['add_annotation'], 'annot.clock': 2 });
    expect(recorder.one('mcp add_tier').attributes['annot.clock']).toBe(1);
  });

  it('records a query tool over its store.query, without a clock', async () => {
    await call('add_tier', { name: 'words' });
    await call('query_annotations', { tier: 'words', start: 0, end: 10 });
    const tool = recorder.one('mcp query_annotations');
    expect(tool.attributes['annot.clock']).toBeUndefined();
    expect(recorder.childrenOf(tool).map((span) => span.name)).toEqual(['store.query']);
  });

  it('marks a tool call that failed as an error with its code, though the model gets a tool result', async () => {
    const answer = await call('add_annotation', { tier: 'ghost', asset_id: 'talk.wav', start_seconds: 0, end_seconds: 1, body: { text: 'x' } });
    expect(answer.isError).toBe(true);
    const tool = recorder.one('mcp add_annotation');
    expect(tool.status.code).toBe(SpanStatusCode.ERROR);
    expect(tool.attributes['annot.error.code']).toBe(answer._meta?.['annot/error_code']);
    expect(tool.events.map((event) => event.name)).toEqual(['exception']);
  });
});

describe('MCP tool call spans under annot serve --mcp', () => {
  it('nests the tool span inside the POST /mcp request span that carried it', async () => {
    const recorder = recordSpans();
    const t = await startTestServer({ mountMcp: mountMcpOverHttp });
    const client = new Client({ name: 'telemetry-test', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', t.url)));
      const answer = (await client.callTool({ name: 'add_tier', arguments: { name: 'words' } })) as CallToolResult;
      expect(answer.isError).toBeFalsy();
      const tool = recorder.one('mcp add_tier');
      const carrier = recorder.spans().find((span) => span.spanContext().spanId === tool.parentSpanContext?.spanId);
      expect(carrier?.name).toBe('POST /mcp');
      expect(carrier?.attributes['http.response.status_code']).toBe(200);
      expect(recorder.childrenOf(tool).map((span) => span.name)).toEqual(['store.apply']);
    } finally {
      await client.close();
      await t.close();
      await recorder.stop();
    }
  });
});

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { buildMcpServer, runTool } from '../../src/mcp/server.js';
import { ANNOT_TOOLS, type AnnotTool } from '../../src/mcp/tools.js';
import { AnnotationService } from '../../src/service/annotation-service.js';
import { MemoryStore } from '../../src/store/memory.js';

describe('the MCP server built over a service', () => {
  let client: Client;

  beforeAll(async () => {
    const server = buildMcpServer(new AnnotationService(new MemoryStore()), { version: '9.9.9' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'in-process', version: '1.0.0' });
    await client.connect(clientSide);
  });
  afterAll(() => client.close());

  it('introduces itself as annot, with instructions that explain times, relations and the clock', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'annot', version: '9.9.9' });
    expect(client.getInstructions()).toMatch(/seconds.*exactly.*Allen.*latest_clock.*state_at/s);
  });

  it('marks read-only tools as read-only and delete as destructive', async () => {
    const { tools } = await client.listTools();
    const hints = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
    for (const name of ['query_annotations', 'get_annotation', 'list_tiers', 'list_formats', 'latest_clock', 'state_at']) expect(hints[name]?.readOnlyHint).toBe(true);
    expect(hints.delete_annotation?.destructiveHint).toBe(true);
  });

  it('refuses an argument the tool does not take, naming it, instead of dropping it', async () => {
    const result = (await client.callTool({ name: 'add_tier', arguments: { name: 'words', stereotpye: 'NONE' } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/stereotpye/);
    expect(((await client.callTool({ name: 'list_tiers', arguments: {} })) as CallToolResult).structuredContent).toEqual({ tiers: [] });
  });

  it('describes every input and output as an object schema with documented properties', () => {
    for (const tool of ANNOT_TOOLS) {
      const input = z.toJSONSchema(z.strictObject(tool.input)) as { type: string; additionalProperties: boolean; properties: Record<string, { description?: string }> };
      expect(input).toMatchObject({ type: 'object', additionalProperties: false });
      for (const [name, property] of Object.entries(input.properties)) expect([tool.name, name, typeof property.description]).toEqual([tool.name, name, 'string']);
      expect((z.toJSONSchema(tool.output) as { type: string }).type).toBe('object');
    }
  });
});

describe('runTool', () => {
  const service = new AnnotationService(new MemoryStore());
  const failing = (error: unknown): AnnotTool => ({
    name: 'failing', title: 'Failing', description: 'always fails', input: {}, output: z.object({}), annotations: {},
    run: async () => {
      throw error;
    },
  });

  it('turns an unexpected exception into a tool error that names it, never a crash', async () => {
    const result = await runTool(failing(new TypeError('boom')), service, {});
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'internal error (TypeError): boom' }],
      structuredContent: { error: { code: 'ANNOT_INTERNAL', message: 'internal error (TypeError): boom' } },
      _meta: { 'annot/error_code': 'ANNOT_INTERNAL' },
    });
  });

  it('reports a thrown non-error value too', async () => {
    const result = await runTool(failing('just a string'), service, {});
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toBe('internal error (string): just a string');
  });
});

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ANNOT_BIN } from '../support/run-cli.js';

/** What the SDK's client connects over (stdio, HTTP, or a test's own). */
export type Transport = Parameters<Client['connect']>[0];

export interface ToolClient {
  readonly client: Client;
  /** Calls a tool that must succeed; returns its structured content and the clock it reported, if any. */
  ok<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<{ result: T; clock?: number; raw: CallToolResult }>;
  /** Calls a tool that must fail; returns the error text and code. */
  fails(name: string, args?: Record<string, unknown>): Promise<{ message: string; code?: string }>;
  close(): Promise<void>;
}

export async function connectTools(transport: Transport): Promise<ToolClient> {
  const client = new Client({ name: 'annot-test', version: '1.0.0' });
  await client.connect(transport);
  // The client checks structured results against the output schemas it has seen: list them first.
  await client.listTools();
  return {
    client,
    async ok(name, args = {}) {
      const raw = (await client.callTool({ name, arguments: args })) as CallToolResult;
      if (raw.isError) throw new Error(`${name} failed: ${JSON.stringify(raw.content)}`);
      const text = (raw.content[0] as { text: string }).text;
      // The text block carries the same JSON as the structured content.
      expect(JSON.parse(text)).toEqual(raw.structuredContent);
      return { result: raw.structuredContent as never, clock: raw._meta?.['annot/clock'] as number | undefined, raw };
    },
    async fails(name, args = {}) {
      const raw = (await client.callTool({ name, arguments: args })) as CallToolResult;
      if (!raw.isError) throw new Error(`${name} should have failed but returned ${JSON.stringify(raw.structuredContent)}`);
      const message = (raw.content[0] as { text: string }).text;
      const code = (raw.structuredContent as { error?: { code?: string } } | undefined)?.error?.code;
      // Our tool errors carry the code in the structured content (and, as before, in _meta); the
      // SDK's own argument check (before a tool runs) has neither.
      if (raw.structuredContent !== undefined) {
        expect(raw._meta?.['annot/error_code']).toBe(code);
        expect((raw.structuredContent as { error: { message: string } }).error.message).toBe(message);
      }
      return { message, code };
    },
    close: () => client.close(),
  };
}

/** `annot mcp [file]` as a child process of the built CLI, driven by the SDK's stdio client. */
/** `annot mcp` as a child process; `location` is a .annot path, or `['--store', url]`. */
export function annotMcpTransport(location?: string | string[]): StdioClientTransport {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [ANNOT_BIN, 'mcp', ...(location === undefined ? [] : Array.isArray(location) ? location : [location])],
    stderr: 'pipe',
  });
  // Read the server's stderr even when no test looks at it: left unread, a full pipe holds the
  // child's stderr open after it exits, and jest then waits on it when the run ends.
  (transport.stderr as NodeJS.ReadableStream | null)?.resume();
  return transport;
}

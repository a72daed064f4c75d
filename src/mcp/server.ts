/**
 * The MCP server of `annot mcp` as a library: buildMcpServer over an AnnotationService. It keeps the
 * MCP SDK out of programs that import only `annot`.
 *
 * @packageDocumentation
 * @module annot/mcp
 */

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { AnnotError } from '../errors/annot-error.js';
import { readPackageSchema } from '../schemas/package-schemas.js';
import type { AnnotationService } from '../service/annotation-service.js';
import { ATTR_CLOCK, ATTR_MCP_TOOL } from '../telemetry/attributes.js';
import { recordFailure, withSpan } from '../telemetry/tracing.js';
import { redactUrlCredentials } from '../text/secret-redaction.js';
import { closestName } from '../text/nearest-name.js';
import { ALLEN_RELATIONS } from '../time/allen.js';
import { ANNOT_TOOLS, type AnnotTool } from './tools.js';
import { toolWording } from './tool-wording.js';

// Types these declarations name that no other entry point exports.
export type { AnnotTool, ToolOutcome } from './tools.js';

/** The server name annot's MCP server gives clients. */
export const MCP_SERVER_NAME = 'annot';

/** Where a mutating tool reports its Lamport clock: the MCP counterpart of HTTP's X-Service-Clock header. */
export const CLOCK_META_KEY = 'annot/clock';
/** Where a tool error carries the stable code of the error (ANNOT_...). */
export const ERROR_CODE_META_KEY = 'annot/error_code';

const INSTRUCTIONS = [
  'annot stores interval annotations over time-based media (audio, video): each annotation sits on a named tier and covers a',
  'half-open span [start, end) of a media asset, or refers to another annotation. Times are given as seconds (numbers or decimal',
  'strings), timecodes "HH:MM:SS.mmm", SMPTE "HH:MM:SS:FF" with fps, or exact {v, r}, and kept exactly (pass rate to choose the',
  'stored ticks per second). Results give each time as {v, r, s}: v/r seconds, s the same as an exact decimal string. Queries take a window and intersects or an Allen',
  `relation (${ALLEN_RELATIONS.join(', ')}). Every change by any client shares one op-log with a Lamport clock: latest_clock`,
  'tells the current clock and state_at(clock) shows the annotations as they were then. Machine suggestions carry a confidence;',
  'accept_ai_suggestion records a review decision without rewriting who made the suggestion. retime shifts, rescales (a frame-rate',
  'change) or two-point syncs the times in place, exactly, in one change.',
].join(' ');

/** Options of buildMcpServer. */
export interface McpServerOptions {
  /** Reported to clients in the initialize handshake; defaults to the package version. */
  readonly version?: string;
}

/**
 * The MCP server over a service: the eleven tools, each a thin adapter over one service operation,
 * so the HTTP routes and the tools share every behaviour and one op-log. Not yet connected: the
 * caller picks the transport (stdio for `annot mcp`, streamable HTTP under `annot serve --mcp`).
 */
export function buildMcpServer(service: AnnotationService, options: McpServerOptions = {}): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, title: 'annot interval annotations', version: options.version ?? packageVersion() }, { instructions: INSTRUCTIONS });
  for (const tool of ANNOT_TOOLS) {
    server.registerTool(
      tool.name,
      // Strict: a misspelt argument is an error the model can correct, not a value silently dropped.
      { title: tool.title, description: tool.description, inputSchema: strictArguments(tool), outputSchema: withToolError(tool.output), annotations: tool.annotations },
      ((args: Record<string, unknown>) => runTool(tool, service, args)) as never,
    );
  }
  return server;
}

/**
 * A tool's arguments, with no others: an unknown one is refused with the arguments the tool does
 * take (and the nearest, when it looks like a typo), so the model can correct its call.
 */
function strictArguments(tool: AnnotTool): z.ZodType {
  const names = Object.keys(tool.input);
  return z.strictObject(tool.input, {
    error: (issue) => {
      if (issue.code !== 'unrecognized_keys') return undefined;
      const unknown = issue.keys.map((key) => {
        const near = closestName(key, names);
        return `"${key}"${near === undefined ? '' : ` (did you mean "${near}"?)`}`;
      });
      return `unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; ${tool.name} takes ${names.join(', ')}`;
    },
  });
}

/** What a failed tool call's structured content holds: the stable code, as HTTP and the CLI give it, and the message. */
const TOOL_ERROR = z.object({
  code: z.string().describe('a stable ANNOT_* code, the same HTTP (error.code) and the CLI ([ANNOT_CODE]) give'),
  message: z.string(),
}).describe('present only when the call failed (isError): then it is the only field');

/**
 * The output schema a client sees: the result's fields, every one present on success, or only
 * `error` on failure (clients check structured content against it either way).
 */
function withToolError(output: z.ZodType<Record<string, unknown>>): z.ZodType<Record<string, unknown>> {
  const shape = (output as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  const optional = Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, field.optional()]));
  const described = output.description ?? 'the result';
  return z.looseObject({ ...optional, error: TOOL_ERROR.optional() })
    .describe(`${described}; every field is present on success, and only error when the call failed`) as unknown as z.ZodType<Record<string, unknown>>;
}

/**
 * Runs one tool and shapes its answer: the JSON as structured content plus the same JSON as text
 * (for clients that show only text). Every failure becomes a tool error the model can read and
 * act on; none reaches the transport, so a bad call never takes the server down.
 */
export function runTool(tool: AnnotTool, service: AnnotationService, args: Record<string, unknown>): Promise<CallToolResult> {
  return withSpan(`mcp ${tool.name}`, { [ATTR_MCP_TOOL]: tool.name }, async (span) => {
    try {
      const { result, clock } = await tool.run(service, args);
      const answer: CallToolResult = { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
      if (clock !== undefined) {
        answer._meta = { [CLOCK_META_KEY]: clock };
        span.setAttribute(ATTR_CLOCK, clock);
      }
      return answer;
    } catch (error) {
      // The model gets the failure as a tool result, not a throw; the span still marks it failed.
      recordFailure(span, error);
      return toolError(error);
    }
  });
}

/**
 * A tool error: the message in the text (in the words of tools, not library methods), and
 * `{error: {code, message}}` as structured content, the code being the same stable ANNOT_* code
 * HTTP and the CLI give for that failure (src/errors/error-table.ts).
 */
function toolError(error: unknown): CallToolResult {
  const known = error instanceof AnnotError;
  const message = redactUrlCredentials(toolWording(known
    ? error.message
    : `internal error (${error instanceof Error ? error.name : typeof error}): ${error instanceof Error ? error.message : String(error)}`));
  const code = known ? error.code : 'ANNOT_INTERNAL';
  return {
    content: [{ type: 'text', text: message }],
    structuredContent: { error: { code, message } },
    isError: true,
    _meta: { [ERROR_CODE_META_KEY]: code },
  };
}

let cachedVersion: string | undefined;

function packageVersion(): string {
  // package.json sits next to schemas/, whichever layout (sources or build) this runs from.
  cachedVersion ??= String((readPackageSchema('../package.json') as { version?: unknown }).version ?? '0.0.0');
  return cachedVersion;
}

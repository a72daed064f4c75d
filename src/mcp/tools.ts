import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { InvalidInputError } from '../errors/annot-error.js';
import { mediaRef, annotationRef } from '../model/annotation.js';
import { LIMITS } from '../model/limits.js';
import { annotationToOutput, referenceToWire, tierToWire, wireWithSeconds, type AnnotationWire } from '../model/wire.js';
import { wireJsonArray } from '../model/wire-json.js';
import { listBodySchemas } from '../schemas/registry.js';
import type { AnnotationService } from '../service/annotation-service.js';
import { encodeCursor } from '../service/read-cursor.js';
import { parseReadRequest } from '../service/read-request.js';
import { plainWording } from '../service/read-wording.js';
import { listFormats } from '../service/formats.js';
import { retimeStore } from '../service/retime-store.js';
import { retimeCallFromWire, retimeResultToWire } from '../service/retime-wire.js';
import { ALLEN_RELATIONS } from '../time/allen.js';
import { RationalTime } from '../time/rational-time.js';
import { intervalFromToolSeconds, type ToolSeconds } from './tool-seconds.js';
import { annotationShape, formatShape, tierShape } from './wire-shapes.js';

/** What a tool hands back: the JSON the model reads, and the clock of the mutation it made, if any. */
export interface ToolOutcome {
  /** The JSON the model reads. */
  readonly result: Record<string, unknown>;
  /** The clock of the mutation the tool made, if any. */
  readonly clock?: number;
}

/** One MCP tool: its metadata for tools/list and the thin adapter over the service that runs it. */
export interface AnnotTool<Input extends z.ZodRawShape = z.ZodRawShape> {
  /** The tool's name (`query_annotations`...). */
  readonly name: string;
  /** A title for people. */
  readonly title: string;
  /** What the tool does, for the model. */
  readonly description: string;
  /** The shape of its arguments. */
  readonly input: Input;
  /** The shape of its result. */
  readonly output: z.ZodType<Record<string, unknown>>;
  /** Hints about its behaviour (read-only, destructive...). */
  readonly annotations: ToolAnnotations;
  /** Runs the tool on the service. */
  run(service: AnnotationService, args: z.infer<z.ZodObject<Input>>): Promise<ToolOutcome>;
}

/** Keeps each tool's argument types while the list holds them all under one type. */
function defineTool<Input extends z.ZodRawShape>(tool: AnnotTool<Input>): AnnotTool {
  return tool as unknown as AnnotTool;
}

export const DEFAULT_ACTOR = 'anonymous';
export const DEFAULT_BODY_SCHEMA_URI = 'annot://schema/label/v1';
export const DEFAULT_QUERY_LIMIT = 100;
export const MAX_QUERY_LIMIT = 10_000;

const seconds = z.union([
  z.number(),
  z.string(),
  z.object({ v: z.number().int(), r: z.number().int().positive(), s: z.string().optional() }).strict(),
]);
/** How every time argument is described: the one vocabulary of src/time/time-input.ts. */
const TIME_FORMS = 'seconds as a number or decimal string ("12.345"), a timecode "HH:MM:SS.mmm" or "MM:SS.mmm" (comma allowed), SMPTE "HH:MM:SS:FF" with fps, or the exact {v, r}';
const fps = z.union([z.number().positive(), z.string()]).optional()
  .describe('frames per second of SMPTE "HH:MM:SS:FF" times: 24, 25, 29.97 or "30000/1001"');
const actor = z.string().min(1).max(LIMITS.idChars).default(DEFAULT_ACTOR)
  .describe('who makes this change, recorded in the op-log (e.g. "agent:claude", "user:alice"); default "anonymous"');
const rate = z.number().int().positive().optional()
  .describe('ticks per second the times are stored at (e.g. 1000 for milliseconds, 48000 for audio samples). Omit it to use the finest decimal rate the digits need, at least 1000; with a rate, a time that is not a whole number of ticks is an error, never rounded');
const annotationId = z.string().min(1).max(64).describe('the annotation\'s id (a UUID)');
/** Tier names are held to LIMITS.nameChars on every surface: the schema says so, and refuses before the service does. */
const tierName = z.string().min(1).max(LIMITS.nameChars).describe(`a tier name (at most ${LIMITS.nameChars} characters)`);

const addAnnotation = defineTool({
  name: 'add_annotation',
  title: 'Add an annotation',
  description:
    'Creates one annotation on a tier and returns it (with its new id). A time-based annotation needs asset_id, start_seconds and end_seconds: ' +
    `the half-open span [start, end) of that media asset, each time given as ${TIME_FORMS}, and stored exactly; ` +
    'start = end makes a point. An annotation about another annotation (a gloss, a translation) gives target_annotation_id instead and has no time. ' +
    'The tier must exist (add_tier first; list_tiers shows them), and the annotation must fit its stereotype: on an INCLUDED_IN or TIME_SUBDIVISION tier ' +
    'inside an annotation of the parent tier, on a symbolic tier referring to one (ANNOT_TIER_CONSTRAINT says which rule it would break). The body is checked against body_schema_uri ' +
    `(default ${DEFAULT_BODY_SCHEMA_URI}, body {"text": "..."}; registered: ${listBodySchemas().join(', ')}). ` +
    'Set generated_by to the model or agent that produced the content (e.g. "agent:whisper-large-v3") and confidence when it is a suggestion ' +
    'a human should review with accept_ai_suggestion.',
  input: {
    tier: tierName.describe('the tier to add it to'),
    asset_id: z.string().min(1).max(LIMITS.idChars).optional().describe(`the media asset the span is on (a file name or URI, at most ${LIMITS.idChars} characters)`),
    start_seconds: seconds.optional().describe(`span start: ${TIME_FORMS}`),
    end_seconds: seconds.optional().describe('span end, exclusive, in the same forms; equal to start for a point'),
    target_annotation_id: z.string().min(1).optional().describe('instead of a span: the id of the annotation this one is about'),
    body: z.record(z.string(), z.unknown()).describe(`the content, an object valid against body_schema_uri, e.g. {"text": "hello"}; at most ${LIMITS.bodyChars} characters as JSON (1 MiB)`),
    body_schema_uri: z.string().max(LIMITS.nameChars).default(DEFAULT_BODY_SCHEMA_URI).describe(`the body's schema URI (default ${DEFAULT_BODY_SCHEMA_URI})`),
    rate,
    fps,
    confidence: z.number().min(0).max(1).nullable().optional().describe('0..1 for a machine suggestion; omit or null for a human annotation'),
    generated_by: z.string().min(1).max(LIMITS.idChars).optional().describe('what produced the content (provenance was_generated_by); default "server:annot"'),
    actor,
  },
  output: annotationShape,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(service, args) {
    const input: Record<string, unknown> = {
      tier: args.tier,
      reference: referenceToWire(referenceFrom(args)),
      body: args.body,
      body_schema_uri: args.body_schema_uri,
      confidence: args.confidence ?? null,
    };
    if (args.generated_by !== undefined) {
      input.provenance = { was_generated_by: args.generated_by, was_attributed_to: args.actor, was_derived_from: [], generated_at_time: RationalTime.now(1000).toWire() };
    }
    const { value, clock } = await service.createAnnotation(input, args.actor);
    return { result: { ...annotationToOutput(value) }, clock };
  },
});

function referenceFrom(args: { asset_id?: string; start_seconds?: ToolSeconds; end_seconds?: ToolSeconds; target_annotation_id?: string; rate?: number; fps?: number | string }) {
  const timed = args.asset_id !== undefined || args.start_seconds !== undefined || args.end_seconds !== undefined;
  if (args.target_annotation_id !== undefined) {
    if (timed) throw new InvalidInputError('give either target_annotation_id or asset_id with start_seconds and end_seconds, not both');
    return annotationRef(args.target_annotation_id);
  }
  if (args.asset_id === undefined || args.start_seconds === undefined || args.end_seconds === undefined) {
    const missing = (['asset_id', 'start_seconds', 'end_seconds'] as const).filter((key) => args[key] === undefined);
    throw new InvalidInputError(`missing ${missing.join(', ')}: a time-based annotation needs asset_id, start_seconds and end_seconds (or give target_annotation_id)`);
  }
  return mediaRef(args.asset_id, intervalFromToolSeconds(args.start_seconds, args.end_seconds, args.rate, args.fps));
}

/** How the read parser words a bad query_annotations call: the arguments by name. */
const QUERY_WORDING = plainWording({ start: 'start', end: 'end', relation: 'relation', after: 'after' }, 'pass the next of the previous answer, with the same tier, start, end and relation');

const queryAnnotationsTool = defineTool({
  name: 'query_annotations',
  title: 'Find annotations',
  description:
    'Lists annotations, optionally only those of one tier and/or those whose span stands in an Allen relation to a time window. ' +
    'With start and end (both or neither) only time-based annotations are considered, ordered by start, end and id; relation "intersects" (the default) ' +
    'finds every annotation sharing some time with the window; otherwise the annotation is the left operand: "during" means strictly inside ' +
    `the window, "contains" means the annotation strictly contains it. Relations: intersects, ${ALLEN_RELATIONS.join(', ')}. ` +
    'Without a window, every annotation (of the tier) is listed in the order it was added, including reviews and other annotations without a time. ' +
    `Pages of at most limit results (default ${DEFAULT_QUERY_LIMIT}); while more remain, next is a cursor: call again with after set to it (and the same tier, start, end and relation) for the next page. ` +
    'A tier that does not exist is an error naming the tiers there are.',
  input: {
    tier: tierName.optional().describe('only annotations on this tier (it must exist: list_tiers shows them)'),
    start: seconds.optional().describe(`window start: ${TIME_FORMS}`),
    end: seconds.optional().describe('window end, exclusive, in the same forms'),
    start_seconds: seconds.optional().describe('deprecated: the former name of start'),
    end_seconds: seconds.optional().describe('deprecated: the former name of end'),
    relation: z.string().max(64).default('intersects').describe(`how an annotation relates to the window: intersects (default) or one of ${ALLEN_RELATIONS.join(', ')}`),
    rate,
    fps,
    limit: z.number().int().positive().max(MAX_QUERY_LIMIT).default(DEFAULT_QUERY_LIMIT).describe(`the most annotations to return (default ${DEFAULT_QUERY_LIMIT}, at most ${MAX_QUERY_LIMIT})`),
    after: z.string().min(1).optional().describe('the next of the previous answer, to read the page after it'),
  },
  output: z.object({
    annotations: z.array(annotationShape),
    count: z.number().int().describe('how many annotations are in this answer'),
    truncated: z.boolean().describe('true when more annotations matched than limit'),
    next: z.string().nullable().describe('while more annotations remain, the cursor to pass as after for the next page; else null'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(service, args) {
    const request = parseReadRequest({
      tier: args.tier,
      start: renamed(args.start, args.start_seconds, 'start'),
      end: renamed(args.end, args.end_seconds, 'end'),
      relation: args.relation,
      rate: args.rate,
      fps: args.fps,
      after: args.after,
      limit: args.limit,
    }, QUERY_WORDING);
    // The texts GET /annotations sends (the .annot file's cached wire JSON), read back as the output forms.
    const page = await service.read(request, 'wire-json');
    const annotations = JSON.parse(wireJsonArray(page.items)) as AnnotationWire[];
    const next = page.next === null ? null : encodeCursor(page.next);
    return { result: { annotations, count: annotations.length, truncated: next !== null, next } };
  },
});

/** An argument given by its name or by its deprecated one (`start_seconds`), not both. */
function renamed(value: ToolSeconds | undefined, deprecated: ToolSeconds | undefined, name: string): ToolSeconds | undefined {
  if (value !== undefined && deprecated !== undefined) throw new InvalidInputError(`give ${name} or ${name}_seconds (its deprecated name), not both`);
  return value ?? deprecated;
}

const getAnnotation = defineTool({
  name: 'get_annotation',
  title: 'Get an annotation',
  description: 'Returns one annotation by id, in its wire form (each time as exact {v, r}: v/r seconds, with s, the same seconds as an exact decimal string like "7.8").',
  input: { annotation_id: annotationId },
  output: annotationShape,
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(service, args) {
    return { result: { ...annotationToOutput(await service.getAnnotation(args.annotation_id)) } };
  },
});

const deleteAnnotation = defineTool({
  name: 'delete_annotation',
  title: 'Delete an annotation',
  description:
    'Deletes one annotation by id and returns what was deleted. The op-log keeps it: state_at with an earlier clock still shows it. ' +
    'An annotation that still has children on a tier constrained by its own (INCLUDED_IN, TIME_SUBDIVISION, symbolic) is not deleted ' +
    '(ANNOT_TIER_CONSTRAINT names them): delete or move the children first.',
  input: { annotation_id: annotationId, actor },
  output: z.object({ deleted: z.literal(true), annotation: annotationShape }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(service, args) {
    const { value, clock } = await service.deleteAnnotation(args.annotation_id, args.actor);
    return { result: { deleted: true, annotation: annotationToOutput(value) }, clock };
  },
});

const acceptAiSuggestion = defineTool({
  name: 'accept_ai_suggestion',
  title: 'Accept or reject an AI suggestion',
  description:
    'Records a human (or reviewing agent) decision on a machine-made annotation. The annotation keeps its id, body and provenance; ' +
    'only its confidence becomes 1.0 (accept=true, the default) or 0.0 (accept=false). The decision is stored as a separate review ' +
    'annotation on tier "review" that refers to it, attributed to actor and stamped with the review time. Returns {annotation, review}.',
  input: {
    annotation_id: annotationId,
    accept: z.boolean().default(true).describe('true to accept the suggestion (default), false to reject it'),
    actor: actor.describe('the reviewer, e.g. "user:alice"; default "anonymous"'),
  },
  output: z.object({ annotation: annotationShape, review: annotationShape }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(service, args) {
    const { value, clock } = await service.acceptAiSuggestion(args.annotation_id, args.accept, args.actor);
    return { result: { annotation: annotationToOutput(value.annotation), review: annotationToOutput(value.review) }, clock };
  },
});

const addTier = defineTool({
  name: 'add_tier',
  title: 'Add a tier',
  description:
    'Creates (or redefines) a tier: a named layer of annotations such as "words", "speaker" or "chapters". ' +
    'stereotype NONE (default) is an independent tier; the others constrain the tier by its parent tier (name it in parent): ' +
    'TIME_SUBDIVISION (children tile each parent annotation), INCLUDED_IN (children lie inside one), ' +
    'SYMBOLIC_SUBDIVISION and SYMBOLIC_ASSOCIATION (children refer to a parent annotation and have no time). Returns the tier.',
  input: {
    name: tierName.describe('the tier name'),
    stereotype: z.enum(['NONE', 'TIME_SUBDIVISION', 'INCLUDED_IN', 'SYMBOLIC_SUBDIVISION', 'SYMBOLIC_ASSOCIATION']).default('NONE')
      .describe('how the tier depends on its parent (NONE: independent, the default)'),
    parent: tierName.nullable().optional().describe('the parent tier, required unless stereotype is NONE'),
    metadata: z.record(z.string(), z.unknown()).optional().describe('free JSON metadata (participant, language, annotator...)'),
    actor,
  },
  output: tierShape,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(service, args) {
    const input: Record<string, unknown> = { name: args.name, stereotype: args.stereotype };
    if (args.parent !== undefined) input.parent = args.parent;
    if (args.metadata !== undefined) input.metadata = args.metadata;
    const { value, clock } = await service.addTier(input, args.actor);
    return { result: { ...tierToWire(value) }, clock };
  },
});

const listTiers = defineTool({
  name: 'list_tiers',
  title: 'List tiers',
  description: 'Lists every tier with its stereotype, parent and metadata.',
  input: {},
  output: z.object({ tiers: z.array(tierShape) }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(service) {
    return { result: { tiers: (await service.listTiers()).map(tierToWire) } };
  },
});

const listFormatsTool = defineTool({
  name: 'list_formats',
  title: 'List file formats',
  description: 'Lists the annotation file formats annot reads and writes (name, file extensions, media types, body schemas it produces).',
  input: {},
  output: z.object({ formats: z.array(formatShape) }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run() {
    return { result: { formats: listFormats() } };
  },
});

const latestClock = defineTool({
  name: 'latest_clock',
  title: 'Latest op-log clock',
  description:
    'Returns the Lamport clock of the latest change (0 when nothing has changed yet). Every change by any client, human or agent, ' +
    'gets the next clock value; note it before a series of edits to look back with state_at.',
  input: {},
  output: z.object({ clock: z.number().int().nonnegative() }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(service) {
    return { result: { clock: await service.latestClock() } };
  },
});

const stateAt = defineTool({
  name: 'state_at',
  title: 'State at a past clock',
  description:
    'Rebuilds the tiers and annotations as they were right after the change with this clock (0: empty) by replaying the op-log; ' +
    'nothing is changed. The clock must be between 0 and latest_clock.',
  input: { clock: z.number().int().nonnegative().describe('an op-log clock, 0..latest_clock') },
  output: z.object({ at_clock: z.number().int(), tiers: z.array(tierShape), annotations: z.array(annotationShape) }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(service, args) {
    const state = await service.stateAt(args.clock);
    return { result: { ...state, annotations: state.annotations.map(wireWithSeconds) } };
  },
});

const frameRate = z.union([z.number().positive(), z.string()]).optional();

const retime = defineTool({
  name: 'retime',
  title: 'Retime annotations',
  description:
    'Retimes every annotation (or those of one tier and the tiers that depend on it) in place, exactly, in one op-log change: ' +
    'shift moves every time by a signed amount; fps_from and fps_to rescale by fps_from/fps_to (23.976 to 25 for a film made for NTSC shown at PAL speed); ' +
    'scale multiplies by a ratio; sync "T1=U1,T2=U2" sends the time that was at T1 to U1 and T2 to U2, linearly. They compose in that order: ' +
    'fps_from/fps_to, then scale, then shift (sync sets the scale and offset itself; a shift applies after it). within [START, END] moves only annotations that start there ' +
    '(a child on an INCLUDED_IN or TIME_SUBDIVISION tier moves with its parent). Annotations referring to another annotation have no time and stay. ' +
    'An annotation moved before 0 s is cut at 0 s, or dropped when it ends there (strict refuses instead); a time that falls between ticks of its rate is rounded and counted ' +
    '(strict_time refuses). Any refusal changes nothing. Returns the counts (moved, cut, dropped, rounded) and the map.',
  input: {
    shift: seconds.optional().describe(`move every time by this signed amount: ${TIME_FORMS}; negative moves earlier`),
    fps_from: frameRate.describe('the frame rate the times were made for: 23.976, "24000/1001", 25, 29.97'),
    fps_to: frameRate.describe('the frame rate of the media the times should fit'),
    scale: z.union([z.number().positive(), z.string()]).optional().describe('a positive ratio to multiply every time by: 1.001 or "25/24"'),
    sync: z.string().max(256).optional().describe('two-point sync "T1=U1,T2=U2", e.g. "00:00:10=00:00:12.5,01:30:00=01:30:04"'),
    within: z.tuple([seconds, seconds]).optional().describe('[START, END]: only annotations that start in [START, END) before the retime move'),
    fps,
    tier: tierName.optional().describe('only this tier, and the tiers that depend on it (it must exist: list_tiers shows them)'),
    strict: z.boolean().default(false).describe('refuse, changing nothing, instead of cutting or dropping an annotation moved before 0 s'),
    strict_time: z.boolean().default(false).describe('refuse, changing nothing, instead of rounding a time to a tick of its rate'),
    actor,
  },
  output: z.object({
    description: z.string().describe('the map for people: "×960/1001, +2.5 s"'),
    map: z.looseObject({ factor: z.string(), offset: z.string() }).describe('the exact map: seconds × factor + offset'),
    moved: z.number().int(),
    cut: z.number().int(),
    dropped: z.number().int(),
    dropped_referring: z.number().int().describe('annotations without a time dropped with the one they referred to'),
    rounded: z.number().int(),
    tiers: z.array(z.string()),
    findings: z.array(z.string()),
    clock: z.number().int().nullable().describe('the op-log clock of the change; null when nothing changed'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(service, args) {
    const { actor: who, ...body } = args;
    const call = retimeCallFromWire(Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)));
    const result = await retimeStore(service, call.request, { tier: call.tier, strict: call.strict, strictTime: call.strictTime, actor: who });
    return { result: { ...retimeResultToWire(result) }, ...(result.clock === null ? {} : { clock: result.clock }) };
  },
});

/** The eleven tools, in the order tools/list shows them. */
export const ANNOT_TOOLS: readonly AnnotTool[] = Object.freeze([
  addAnnotation,
  queryAnnotationsTool,
  getAnnotation,
  deleteAnnotation,
  acceptAiSuggestion,
  addTier,
  listTiers,
  listFormatsTool,
  latestClock,
  stateAt,
  retime,
]);

import type { FastifyInstance } from 'fastify';
import { MUTATION_KINDS } from '../oplog/mutation.js';
import { readPackageSchema } from '../schemas/package-schemas.js';
import { ERROR_BODY_SCHEMA } from './errors.js';
import { META_VALUE_SCHEMA } from './routes/meta.js';
import { ref, type Json } from './route-schema.js';

/** The $defs of schemas/annotation.json, each a component of its own (so every route can name it). */
const ANNOTATION_DEFS: Readonly<Record<string, string>> = {
  uuid: 'Uuid',
  time: 'Time',
  interval: 'Interval',
  media_ref: 'MediaReference',
  annotation_ref: 'AnnotationReference',
  reference: 'Reference',
  provenance: 'Provenance',
};

/** What an annotation's fields may be changed by PATCH. */
const PATCHABLE = ['tier', 'reference', 'body', 'body_schema_uri', 'confidence'];

/**
 * The shared schemas of the HTTP API, registered with app.addSchema: the routes name them
 * (`{$ref: 'Annotation#'}`) and @fastify/swagger makes them the document's components. The
 * annotation and tier schemas are the files the service validates bodies with
 * (schemas/annotation.json, schemas/tier.json), taken as they are, so the document says what the
 * service accepts. The input forms add the time vocabulary (src/time/time-input.ts) where a
 * client may write a time: seconds, timecodes and SMPTE beside the exact {v, r}.
 */
export function registerApiSchemas(app: FastifyInstance): void {
  const annotation = readPackageSchema('annotation.json') as Json;
  const defs = annotation.$defs as Record<string, Json>;
  for (const [name, id] of Object.entries(ANNOTATION_DEFS)) app.addSchema({ $id: id, ...rerooted(defs[name]) });
  const wire = rerooted(annotation);
  delete wire.$defs;
  delete wire.$schema;
  const properties = wire.properties as Json;
  app.addSchema({ ...wire, $id: 'Annotation' });

  app.addSchema(TIME_INPUT);
  app.addSchema({
    $id: 'IntervalInput',
    ...rerooted(defs.interval),
    description: 'an interval {start, end}; each time in any form of TimeInput',
    properties: { start: ref('TimeInput'), end: ref('TimeInput') },
  });
  app.addSchema({
    $id: 'MediaReferenceInput',
    ...rerooted(defs.media_ref),
    properties: { ...(defs.media_ref.properties as Json), interval: ref('IntervalInput') },
  });
  app.addSchema({ $id: 'ReferenceInput', ...JSON.parse(JSON.stringify(rerooted(defs.reference)).replaceAll('"MediaReference#"', '"MediaReferenceInput#"')) });
  const inputProperties: Json = { ...properties, reference: ref('ReferenceInput') };
  app.addSchema({
    ...wire,
    $id: 'AnnotationInput',
    title: 'Annotation (as a client creates it)',
    description:
      'The annotation wire form; id (a new UUID) and provenance (the server as generator, the actor as attribution) may be left out, ' +
      'and the interval\'s times may be written in any form of TimeInput (seconds, timecode, SMPTE with ?fps, or {v, r}).',
    required: (wire.required as string[]).filter((key) => key !== 'id' && key !== 'provenance'),
    properties: inputProperties,
  });
  app.addSchema({
    $id: 'AnnotationPatch',
    type: 'object',
    title: 'Annotation patch',
    description: 'The fields to change; id and provenance never change; confidence null clears it. The result is validated like a new annotation.',
    additionalProperties: false,
    properties: Object.fromEntries(PATCHABLE.map((key) => [key, inputProperties[key]])),
  });

  const tier = readPackageSchema('tier.json') as Json;
  app.addSchema({ ...withoutIds(tier), $id: 'Tier' });
  app.addSchema({ $id: 'MetaValue', ...META_VALUE_SCHEMA });
  app.addSchema({ $id: 'Meta', type: 'object', description: 'store metadata: key to value', additionalProperties: { type: 'string' } });
  app.addSchema({ $id: 'Error', ...ERROR_BODY_SCHEMA });
  for (const schema of OTHER_SCHEMAS) app.addSchema(schema);
}

/**
 * A time as a client may write it (src/time/time-input.ts parses each form exactly). The forms
 * exclude one another: seconds have no colon, a timecode has two or three fields, SMPTE four.
 */
const TIME_INPUT: Json = {
  $id: 'TimeInput',
  description: 'a time: seconds ("12.345", exact), a timecode HH:MM:SS.mmm or MM:SS.mmm (comma allowed), SMPTE HH:MM:SS:FF with fps, or the exact {v, r}',
  oneOf: [
    ref('Time'),
    { type: 'number', description: 'seconds as a JSON number (read from its decimal spelling, exactly)' },
    { type: 'string', pattern: '^\\s*[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?\\s*$|^\\s*[+-]?[0-9]+/[0-9]+\\s*$', description: 'seconds as a decimal ("12.345", "1e-3") or a ratio ("3/4")', examples: ['12.345'] },
    { type: 'string', pattern: '^\\s*[+-]?([0-9]+:)?[0-9]{1,2}:[0-9]{1,2}([.,][0-9]+)?\\s*$', description: 'a timecode HH:MM:SS.mmm or MM:SS.mmm (the point may be a comma)', examples: ['00:01:02.500'] },
    { type: 'string', pattern: '^\\s*[+-]?[0-9]+:[0-9]{1,2}:[0-9]{1,2}[:;][0-9]{1,3}\\s*$', description: 'SMPTE HH:MM:SS:FF, at the frame rate given by ?fps', examples: ['00:00:12:08'] },
  ],
};

const OTHER_SCHEMAS: readonly Json[] = [
  {
    $id: 'OpLogEntry',
    type: 'object',
    required: ['clock', 'kind', 'target_id', 'payload', 'actor', 'received_at'],
    additionalProperties: false,
    properties: {
      clock: { type: 'integer', minimum: 1, description: 'the Lamport clock of the mutation' },
      kind: { enum: [...MUTATION_KINDS] },
      target_id: { type: ['string', 'null'], description: 'annotation id, tier name or meta key' },
      payload: { type: 'object', description: 'what replays the mutation: {annotation}, {tier, enforce_no_overlap}, {value} or {}' },
      actor: { type: 'string' },
      received_at: ref('Time'),
    },
  },
  {
    $id: 'StateSnapshot',
    type: 'object',
    required: ['at_clock', 'tiers', 'annotations'],
    additionalProperties: false,
    properties: {
      at_clock: { type: 'integer', minimum: 0 },
      tiers: { type: 'array', items: ref('Tier') },
      annotations: { type: 'array', items: ref('Annotation') },
    },
  },
  {
    $id: 'Format',
    type: 'object',
    required: ['name', 'extensions', 'media_types', 'body_schemas', 'description'],
    properties: {
      name: { type: 'string' },
      extensions: { type: 'array', items: { type: 'string' } },
      media_types: { type: 'array', items: { type: 'string' } },
      body_schemas: { type: 'array', items: { type: 'string' } },
      description: { type: 'string' },
    },
  },
  {
    $id: 'ImportReport',
    type: 'object',
    required: ['format', 'annotations_added', 'tiers_added', 'clock', 'quantized', 'warnings'],
    properties: {
      format: { type: 'string' },
      annotations_added: { type: 'integer', minimum: 0 },
      tiers_added: { type: 'integer', minimum: 0 },
      clock: { type: 'integer', minimum: 0, description: 'the clock of the last entry the import appended, 0 when it added nothing' },
      quantized: { type: 'object', properties: { count: { type: 'integer' }, max_error_seconds: { type: 'number' } } },
      warnings: { type: 'array', items: { type: 'string' }, description: 'at most 100' },
    },
  },
];

/** A package schema's local refs (`#/$defs/time`) as refs to the components the $defs became (`Time#`). */
function rerooted(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema).replace(/"#\/\$defs\/([a-z_]+)"/g, (_match, name: string) => `"${ANNOTATION_DEFS[name]}#"`)) as Json;
}

function withoutIds(schema: Json): Json {
  const copy = { ...schema };
  delete copy.$id;
  delete copy.$schema;
  return copy;
}

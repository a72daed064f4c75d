import { z } from 'zod';

/**
 * The wire forms the tools return, as zod shapes for their output schemas: what a model reads in
 * tools/list to know what comes back. They describe schemas/annotation.json and schemas/tier.json
 * (which stay the authority: the service validates against those), loosely enough that a field
 * added there does not make a tool's result fail its own output check.
 */

const rationalTime = z.object({
  v: z.number().int().describe('integer ticks'),
  r: z.number().int().positive().describe('ticks per second'),
  s: z.string().describe('the same time in seconds, exact: a decimal like "7.8", or the reduced fraction like "1/3" when v/r has no finite decimal'),
}).describe('an exact time: v/r seconds, with s spelling it in seconds');

const mediaReference = z.looseObject({
  kind: z.literal('media'),
  asset_id: z.string(),
  interval: z.object({ start: rationalTime, end: rationalTime }).describe('half-open [start, end)'),
});

const annotationReference = z.looseObject({
  kind: z.literal('annotation'),
  target_id: z.string().describe('the id of the annotation this one refers to'),
});

export const annotationShape = z.looseObject({
  id: z.string(),
  tier: z.string(),
  reference: z.union([mediaReference, annotationReference]),
  body: z.record(z.string(), z.unknown()),
  body_schema_uri: z.string(),
  provenance: z.looseObject({
    was_generated_by: z.string(),
    was_attributed_to: z.string(),
    was_derived_from: z.array(z.string()),
    generated_at_time: rationalTime,
  }),
  confidence: z.number().nullable(),
}).describe('an annotation in its wire form');

export const tierShape = z.looseObject({
  name: z.string(),
  stereotype: z.string(),
  parent: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
}).describe('a tier in its wire form');

export const formatShape = z.looseObject({
  name: z.string(),
  extensions: z.array(z.string()),
  media_types: z.array(z.string()),
  body_schemas: z.array(z.string()),
  description: z.string(),
});

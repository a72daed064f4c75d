// The body of an annotation the page creates: a new block takes the body schema of its tier's blocks
// (an ELAN annotation, a WebVTT cue, a TextGrid label...), so the served file writes it as one of its
// own, with the fields that schema requires present and empty, and the text the user typed. A schema
// with no text (a JAMS observation, an OTIO clip, a Web Annotation, a Label Studio region) has no
// empty form that means anything: the new block is a plain label, which those formats write as their
// value, name or textual body.
import type { Lane, TimelineModel } from './model.js';
import type { PageContext } from './page-context.js';

/** The plain label: a text and nothing else. */
const LABEL_SCHEMA = 'annot://schema/label/v1';

interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
}

/** A new annotation's body and its schema. */
export interface NewBody {
  body_schema_uri: string;
  body: Record<string, unknown>;
}

const blanks = new Map<string, Promise<NewBody>>();

/** The schema new annotations of the lane follow: its blocks', else any block's, else a plain label. */
export function schemaFor(model: TimelineModel, lane: Lane): string {
  const own = lane.items[0] ?? model.items.values().next().value;
  return own?.wire.body_schema_uri ?? LABEL_SCHEMA;
}

/** The body of a new annotation like those of `schemaUri`, with `text`; each schema fetched once. */
export async function newBody(ctx: Pick<PageContext, 'api'>, schemaUri: string, text: string): Promise<NewBody> {
  let blank = blanks.get(schemaUri);
  if (!blank) {
    blank = ctx.api
      .request<{ required?: string[]; properties?: Record<string, PropertySchema> }>('GET', `/schemas/${encodeURIComponent(schemaUri)}`)
      .then(({ value }): NewBody => {
        if (!value.properties || !('text' in value.properties)) return { body_schema_uri: LABEL_SCHEMA, body: {} };
        return { body_schema_uri: schemaUri, body: Object.fromEntries((value.required ?? []).map((name) => [name, emptyOf(value.properties?.[name] ?? {})])) };
      })
      // A schema the server cannot show: the text alone, and the server's refusal, if any, says what is missing.
      .catch((): NewBody => ({ body_schema_uri: schemaUri, body: {} }));
    blanks.set(schemaUri, blank);
  }
  const { body_schema_uri, body } = await blank;
  return { body_schema_uri, body: { ...body, text } };
}

function emptyOf(schema: PropertySchema): unknown {
  if ('const' in schema) return schema.const;
  if (schema.enum) return schema.enum[0];
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('null')) return null;
  if (types.includes('string')) return '';
  if (types.includes('integer') || types.includes('number')) return 0;
  if (types.includes('boolean')) return false;
  if (types.includes('array')) return [];
  return {};
}

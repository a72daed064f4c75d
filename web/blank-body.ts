// The body of an annotation the page creates: a new block takes the body schema of its tier's blocks
// (an ELAN annotation, a WebVTT cue, a TextGrid label...), so the served file writes it as one of its
// own, with the fields that schema requires present and empty, and the text the user typed.
import type { Lane, TimelineModel } from './model.js';
import type { PageContext } from './page-context.js';

/** When neither the tier nor the store has an annotation to follow. */
const DEFAULT_SCHEMA = 'annot://schema/label/v1';

interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
}

const blanks = new Map<string, Promise<Record<string, unknown>>>();

/** The schema new annotations of the lane take: its blocks', else any block's, else a plain label. */
export function schemaFor(model: TimelineModel, lane: Lane): string {
  const own = lane.items[0] ?? model.items.values().next().value;
  return own?.wire.body_schema_uri ?? DEFAULT_SCHEMA;
}

/** The schema's required fields, each empty of its type (`sequence: null`, `id: ""`), with the text; fetched once per schema. */
export async function blankBody(ctx: Pick<PageContext, 'api'>, schemaUri: string, text: string): Promise<Record<string, unknown>> {
  let blank = blanks.get(schemaUri);
  if (!blank) {
    blank = ctx.api
      .request<{ required?: string[]; properties?: Record<string, PropertySchema> }>('GET', `/schemas/${encodeURIComponent(schemaUri)}`)
      .then(({ value }) => Object.fromEntries((value.required ?? []).map((name) => [name, emptyOf(value.properties?.[name] ?? {})])))
      // A schema the server cannot show: the text alone, and the server's refusal, if any, says what is missing.
      .catch(() => ({}));
    blanks.set(schemaUri, blank);
  }
  return { ...(await blank), text };
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

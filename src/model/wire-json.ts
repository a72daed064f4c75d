import { RationalTime } from '../time/rational-time.js';
import { formatSeconds } from '../time/time-format.js';
import type { Annotation } from './annotation.js';

/**
 * The wire JSON of annotations as text, spelled in one place: `annotationWireJson` for an
 * annotation object and `wireJsonOfParts` for the same thing straight from a store row (the
 * store read fast path: no annotation objects, the body's JSON text as stored). Both give
 * `JSON.stringify(annotationToWire(annotation))` byte for byte, or with `seconds`
 * `JSON.stringify(annotationToOutput(annotation, 'seconds'))` (each time with its exact seconds
 * `s`, as the surfaces answer); a change to the wire form is made in wireJsonOfParts and reaches
 * every surface.
 */

/** What the wire JSON is made of; `bodyJson` and `derivedFromJson` are JSON texts as JSON.stringify writes them. */
export interface AnnotationWireParts {
  readonly id: string;
  readonly tier: string;
  /** Media references have an asset id and an interval; annotation references a target id. */
  readonly assetId: string | null;
  readonly targetId: string | null;
  readonly startV: number;
  readonly startR: number;
  readonly endV: number;
  readonly endR: number;
  readonly bodyJson: string;
  readonly bodySchemaUri: string;
  readonly generatedBy: string;
  readonly attributedTo: string;
  readonly derivedFromJson: string;
  readonly generatedAtV: number;
  readonly generatedAtR: number;
  readonly confidence: number | null;
}

/** Output options: `seconds` adds each time's exact seconds `s` beside `{v, r}` (the surfaces' output form). */
export interface WireJsonOptions {
  readonly seconds?: boolean;
}

function timeJson(v: number, r: number, seconds: boolean): string {
  return seconds ? `{"v":${v},"r":${r},"s":"${formatSeconds(new RationalTime(v, r))}"}` : `{"v":${v},"r":${r}}`;
}

/** One annotation's wire JSON from its parts. */
export function wireJsonOfParts(p: AnnotationWireParts, options: WireJsonOptions = {}): string {
  const seconds = options.seconds ?? false;
  const ref = p.assetId !== null
    ? `{"kind":"media","asset_id":${JSON.stringify(p.assetId)},"interval":{"start":${timeJson(p.startV, p.startR, seconds)},"end":${timeJson(p.endV, p.endR, seconds)}}}`
    : `{"kind":"annotation","target_id":${JSON.stringify(p.targetId)}}`;
  return `{"id":${JSON.stringify(p.id)},"tier":${JSON.stringify(p.tier)},"reference":${ref},"body":${p.bodyJson},` +
    `"body_schema_uri":${JSON.stringify(p.bodySchemaUri)},"provenance":{"was_generated_by":${JSON.stringify(p.generatedBy)},` +
    `"was_attributed_to":${JSON.stringify(p.attributedTo)},"was_derived_from":${p.derivedFromJson},"generated_at_time":${timeJson(p.generatedAtV, p.generatedAtR, seconds)}},` +
    `"confidence":${p.confidence === null ? 'null' : JSON.stringify(p.confidence)}}`;
}

/** `JSON.stringify(annotationToWire(annotation))` (or of annotationToOutput with `seconds`), without building the wire object. */
export function annotationWireJson(annotation: Annotation, options: WireJsonOptions = {}): string {
  const { reference, provenance } = annotation;
  const media = reference.kind === 'media';
  return wireJsonOfParts({
    id: annotation.id,
    tier: annotation.tier,
    assetId: media ? reference.asset_id : null,
    targetId: media ? null : reference.target_id,
    startV: media ? reference.interval.start.v : 0,
    startR: media ? reference.interval.start.r : 0,
    endV: media ? reference.interval.end.v : 0,
    endR: media ? reference.interval.end.r : 0,
    bodyJson: JSON.stringify(annotation.body),
    bodySchemaUri: annotation.body_schema_uri,
    generatedBy: provenance.was_generated_by,
    attributedTo: provenance.was_attributed_to,
    derivedFromJson: provenance.was_derived_from.length === 0 ? '[]' : JSON.stringify(provenance.was_derived_from),
    generatedAtV: provenance.generated_at_time.v,
    generatedAtR: provenance.generated_at_time.r,
    confidence: annotation.confidence,
  }, options);
}

/**
 * `JSON.stringify(annotations.map(annotationToWire))`, or with `seconds`
 * `JSON.stringify(annotations.map((a) => annotationToOutput(a, 'seconds')))`, byte for byte.
 */
export function annotationsToWireJson(annotations: readonly Annotation[], options: WireJsonOptions = {}): string {
  return wireJsonArray(annotations.map((annotation) => annotationWireJson(annotation, options)));
}

/** A JSON array of already-serialised items. */
export function wireJsonArray(items: readonly string[]): string {
  return items.length === 0 ? '[]' : `[${items.join(',')}]`;
}

const OPEN = 0x5b;
const COMMA = 0x2c;
const CLOSE = 0x5d;

/**
 * The UTF-8 bytes of wireJsonArray for items already in UTF-8 (the store's kept bytes): each
 * copied once into one buffer, which `allocate` gives (a server lends it from a pool:
 * response-buffers.ts).
 */
export function wireJsonArrayBytes(items: readonly Uint8Array[], allocate: (length: number) => Buffer = Buffer.allocUnsafe): Buffer {
  let length = items.length === 0 ? 2 : items.length + 1;
  for (const item of items) length += item.length;
  const bytes = allocate(length);
  let at = 0;
  bytes[at++] = OPEN;
  for (let i = 0; i < items.length; i++) {
    if (i > 0) bytes[at++] = COMMA;
    const item = items[i];
    bytes.set(item, at);
    at += item.length;
  }
  bytes[at] = CLOSE;
  return bytes;
}

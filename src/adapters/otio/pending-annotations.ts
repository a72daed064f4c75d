import { makeAnnotation, mediaRef, type Annotation, type AnnotationInit } from '../../model/annotation.js';
import type { TimeInterval } from '../../time/time-interval.js';

/** An annotation of the walk, as little as builds it. */
export interface PendingAnnotation {
  /** Undefined for one nothing refers to: makeAnnotation gives it an id when it is built. */
  readonly id: string | undefined;
  readonly tier: string;
  readonly asset: string;
  readonly interval: TimeInterval;
  readonly body: Record<string, unknown>;
  readonly schema: string;
  /** The JSON path of the item or marker. */
  readonly path: string;
}

/**
 * The annotations, each built when asked for and its parts let go of once it is: a million
 * annotations with their bodies copied would otherwise sit beside the parsed file. `at` says the
 * JSON path of the one built last, for a refusal of it.
 */
export function* builtAnnotations(pending: Array<PendingAnnotation | undefined>, provenance: AnnotationInit['provenance'], at: { path: string }): Generator<Annotation> {
  for (let index = 0; index < pending.length; index++) {
    const { id, tier, asset, interval, body, schema, path } = pending[index] as PendingAnnotation;
    pending[index] = undefined;
    at.path = path;
    yield makeAnnotation({ id, tier, reference: mediaRef(asset, interval), body, body_schema_uri: schema, provenance });
  }
}

import type { Annotation } from './annotation.js';
import { InvalidAnnotationError } from './errors.js';
import { bodyTooLong, checkTierName, LIMITS, tooLong } from './limits.js';
import type { Tier } from './tier.js';

/*
 * The LIMITS held against values built without the model's constructors: a reader's trusted
 * annotations, a processor's mutations, a library caller's own objects.
 */

/** A tier built elsewhere (a reader, a caller of the service) held to the limits. */
export function checkTierBounds(tier: Tier): void {
  checkTierName(tier.name, 'name');
  if (tier.parent !== null) checkTierName(tier.parent, 'parent');
}

/**
 * Every name and text of an annotation held to the limits (for annotations not built by
 * makeAnnotation). `which` names it in the message: its id by default, its place in a file for
 * an import (`bad.vtt: annotation 2 (tier "cues")`), since a reader's ids are new; null names
 * only the field, for a caller that names the place itself (`bad.vtt:7: body: ...`).
 */
export function checkAnnotationBounds(annotation: Annotation, which: string | null = `annotation ${annotation.id}`): void {
  const fail = (path: string, reason: string | null) => {
    if (reason !== null) throw new InvalidAnnotationError(which === null ? path : `${which}: ${path}`, reason);
  };
  fail('tier', tooLong(annotation.tier, LIMITS.nameChars));
  if (annotation.reference.kind === 'media') fail('reference.asset_id', tooLong(annotation.reference.asset_id, LIMITS.idChars));
  const { provenance } = annotation;
  fail('provenance.was_generated_by', tooLong(provenance.was_generated_by, LIMITS.idChars));
  fail('provenance.was_attributed_to', tooLong(provenance.was_attributed_to, LIMITS.idChars));
  provenance.was_derived_from.forEach((id, index) => fail(`provenance.was_derived_from[${index}]`, tooLong(id, LIMITS.idChars)));
  fail('body', bodyTooLong(annotation.body));
}

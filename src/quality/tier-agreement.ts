import { canonicalJson } from '../json/canonical-json.js';
import type { Annotation } from '../model/annotation.js';
import type { TimeInterval } from '../time/time-interval.js';
import { cohenKappa, krippendorffAlpha } from './agreement.js';
import { boundaryIou, intervalIou } from './segmentation.js';
import { matchByMaximalOverlap } from './segment-matching.js';

/** Agreement between two annotators' versions of one tier. */
export interface TierAgreement {
  readonly tier_a: string;
  readonly tier_b: string;
  readonly matched: number;
  readonly missing: number;
  readonly extra: number;
  /** On the labels of matched segments; null when nothing matched. */
  readonly cohen_kappa: number | null;
  readonly krippendorff_alpha: number | null;
  /** The mean of intervalIou over matched pairs; null when nothing matched. */
  readonly mean_interval_iou: number | null;
  /** boundaryIou of the two tiers' segments (default band: 2% of their extent). */
  readonly boundary_iou: number;
}

/** The label agreement is measured on: the body's `text`, else its `label` or `value`, else its canonical JSON. */
export function segmentLabel(annotation: Annotation): string {
  const body = annotation.body as Record<string, unknown>;
  for (const key of ['text', 'label', 'value']) if (typeof body[key] === 'string') return body[key] as string;
  return canonicalJson(annotation.body, 'body');
}

interface Timed {
  readonly interval: TimeInterval;
  readonly label: string;
}

/**
 * Matches the two tiers' timed annotations by maximal overlap (matchByMaximalOverlap) and
 * measures: Cohen's κ and Krippendorff's α (nominal) on the labels of the matched pairs; the mean
 * interval IoU of the matched pairs; the boundary IoU of all segments of each side; and how many
 * segments matched, are missing (in A only) or extra (in B only). Annotations without a time
 * (references to another annotation) take no part.
 */
export function tierAgreement(tierA: string, a: readonly Annotation[], tierB: string, b: readonly Annotation[]): TierAgreement {
  const timed = (list: readonly Annotation[]): Timed[] =>
    list.flatMap((annotation) => (annotation.reference.kind === 'media' ? [{ interval: annotation.reference.interval, label: segmentLabel(annotation) }] : []));
  const segmentsA = timed(a);
  const segmentsB = timed(b);
  const { matched, missing, extra } = matchByMaximalOverlap(segmentsA, segmentsB);
  const labelsA = matched.map(([x]) => x.label);
  const labelsB = matched.map(([, y]) => y.label);
  const any = matched.length > 0;
  return {
    tier_a: tierA,
    tier_b: tierB,
    matched: matched.length,
    missing: missing.length,
    extra: extra.length,
    cohen_kappa: any ? cohenKappa(labelsA, labelsB) : null,
    krippendorff_alpha: any ? krippendorffAlpha([labelsA, labelsB]) : null,
    mean_interval_iou: any ? matched.reduce((sum, [x, y]) => sum + intervalIou(x.interval, y.interval), 0) / matched.length : null,
    boundary_iou: boundaryIou(segmentsA.map((s) => s.interval), segmentsB.map((s) => s.interval)),
  };
}

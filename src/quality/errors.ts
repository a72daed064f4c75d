import { AnnotError } from '../errors/annot-error.js';

/**
 * Metric input of the wrong shape: sequences of different lengths, no items at all, fewer than
 * two annotators, a missing label where the metric has no notion of missing, a width `<= 0`.
 */
export class MetricInputError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_METRIC_INPUT';
}

/**
 * Input of the right shape that holds no information the metric can use: Krippendorff's alpha
 * when no unit has two values to pair. Returning NaN or 0 would read as a verdict; this says why.
 */
export class InsufficientDataError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_INSUFFICIENT_DATA';
}

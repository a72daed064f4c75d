import { AnnotError } from '../errors/annot-error.js';
import type { Annotation } from '../model/annotation.js';
import { LossyTimeConversionError } from '../time/errors.js';
import { RationalTime } from '../time/rational-time.js';
import { mapApplies, TimeMapper, type RetimeMap } from '../time/retime.js';
import { TimeInterval } from '../time/time-interval.js';

/** A retime that `--strict` refuses: it would cut or drop an annotation pushed before 0 s. */
export class RetimeBeforeZeroError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_RETIME_BEFORE_ZERO';
}

/** How strict a retime is about what it cannot keep exactly. */
export interface RetimeStrictness {
  /** Refuse (RetimeBeforeZeroError) instead of cutting or dropping an annotation pushed before 0 s. */
  readonly strict?: boolean;
  /** Refuse (LossyTimeConversionError) instead of rounding a time that falls between ticks at its rate. */
  readonly strictTime?: boolean;
}

/** What a retime did, counted, with the first annotation of each kind for the message. */
export interface RetimeCounts {
  /** Annotations whose interval the map moved (in `within`, when set). */
  moved: number;
  /** Times that fell between ticks at their rate and were rounded to the nearest. */
  rounded: number;
  /** Annotations that started before 0 s after the map and were cut to start at 0. */
  cut: number;
  /** Annotations that ended at or before 0 s after the map (or a point before 0) and were dropped. */
  dropped: number;
}

/**
 * Retimes annotations one at a time, so a conversion applies it as cues stream past. The rule at
 * 0 s is the one subtitle writers already follow for cues before 0: an annotation that straddles 0
 * after the map starts at 0 (cut), one wholly before it is dropped; `strict` refuses either.
 * Annotations that refer to another annotation have no times of their own and pass unchanged.
 */
export class AnnotationRetimer {
  /** What the retime did so far. */
  readonly counts: RetimeCounts = { moved: 0, rounded: 0, cut: 0, dropped: 0 };
  private readonly mapper: TimeMapper;
  private readonly zero = new Map<number, RationalTime>();

  constructor(
    readonly map: RetimeMap,
    private readonly strictness: RetimeStrictness = {},
    /** How to name an annotation in a refusal (a cue number and its time, an id). */
    private readonly describe: (annotation: Annotation) => string = (annotation) => `annotation ${annotation.id}`,
  ) {
    this.mapper = new TimeMapper(map);
  }

  /** The annotation after the map, or null when it is dropped (wholly before 0 s). */
  retime(annotation: Annotation): Annotation | null {
    const reference = annotation.reference;
    if (reference.kind !== 'media') return annotation;
    const { start, end } = reference.interval;
    if (!mapApplies(this.map, start)) return annotation;
    const point = reference.interval.isPoint;
    const newStart = this.mapped(start, annotation, 'start');
    const newEnd = point ? newStart : this.mapped(end, annotation, 'end');
    this.counts.moved++;
    if (newStart.v >= 0) return withInterval(annotation, new TimeInterval(newStart, newEnd));
    // Nothing is left of a point before 0, nor of a stretch that ends at or before it.
    const wholly = point || newEnd.v <= 0;
    if (this.strictness.strict) {
      throw new RetimeBeforeZeroError(
        `${this.describe(annotation)} would start at ${newStart.toSecondsString()} s after the retime, before 0 s; ` +
          `--strict refuses to ${wholly ? 'drop' : 'cut'} it (shift less, or leave out --strict to cut it at 0 s or drop it)`,
      );
    }
    if (wholly) {
      this.counts.dropped++;
      return null;
    }
    this.counts.cut++;
    return withInterval(annotation, new TimeInterval(this.zeroAt(newStart.r), newEnd));
  }

  /** One line per kind of change that lost something (cut, dropped, rounded), for stderr or a report. */
  findings(): string[] {
    const lines: string[] = [];
    const { cut, dropped, rounded } = this.counts;
    if (cut > 0) lines.push(`${plural(cut, 'annotation')} moved to start before 0 s and ${cut === 1 ? 'was' : 'were'} cut to start at 0 s`);
    if (dropped > 0) lines.push(`${plural(dropped, 'annotation')} moved wholly before 0 s and ${dropped === 1 ? 'was' : 'were'} dropped`);
    if (rounded > 0) lines.push(`${plural(rounded, 'time')} fell between ticks after the retime and ${rounded === 1 ? 'was' : 'were'} rounded to the nearest tick (--strict-time refuses)`);
    return lines;
  }

  private mapped(time: RationalTime, annotation: Annotation, which: 'start' | 'end'): RationalTime {
    const { time: result, rounded } = this.mapper.apply(time);
    if (rounded) {
      if (this.strictness.strictTime) {
        throw new LossyTimeConversionError(
          `${this.describe(annotation)}: its ${which} ${time.toSecondsString()} s does not map to a whole tick at rate ${time.r}; --strict-time refuses to round it`,
        );
      }
      this.counts.rounded++;
    }
    return result;
  }

  private zeroAt(rate: number): RationalTime {
    let zero = this.zero.get(rate);
    if (zero === undefined) this.zero.set(rate, (zero = new RationalTime(0, rate)));
    return zero;
  }
}

/** The annotation with a new interval and everything else as it was (it was valid, and only times changed). */
function withInterval(annotation: Annotation, interval: TimeInterval): Annotation {
  const reference = annotation.reference;
  if (reference.kind !== 'media') return annotation;
  return Object.freeze({ ...annotation, reference: Object.freeze({ kind: 'media', asset_id: reference.asset_id, interval }) });
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

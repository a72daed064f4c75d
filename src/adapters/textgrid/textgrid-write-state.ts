import type { Annotation } from '../../model/annotation.js';
import type { JsonValue } from '../../json/json-body.js';
import type { Tier, TierStereotype } from '../../model/tier.js';
import { fractionToDecimal, type Fraction } from '../../time/decimal.js';
import type { WritableTier } from './writer.js';

/** An interval or point to write, its times exact. */
export interface Item {
  readonly start: Fraction;
  readonly end: Fraction;
  readonly text: string;
}

/** What a store tier writes: its intervals and its points. */
export interface TierItems {
  readonly intervals: Item[];
  readonly points: Item[];
}

/**
 * What the passes of the TextGrid dump share: collect (the store's tiers and annotations, each
 * with its time; symbolic ones with their parents') → allocate (the grid's bounds and the
 * TextGrid tiers: tiled interval lanes and point tiers) → emit (the file). `counts` gathers what
 * the report says TextGrid drops.
 */
export class TextGridWriteState {
  // collect
  storeTiers: Tier[] = [];
  readonly byTier = new Map<string, TierItems>();
  readonly classOf = new Map<string, JsonValue | undefined>();
  readonly stereotypeOf = new Map<string, TierStereotype>();
  readonly metadataOf = new Map<string, Readonly<Record<string, JsonValue>>>();
  /** The times given to each annotation placed so far (symbolic ones take their parent's). */
  readonly placed = new Map<string, { start: Fraction; end: Fraction }>();
  /** Symbolic annotations not placed yet (their parent is not placed, or missing). */
  pending: Annotation[] = [];
  /** The grid bounds the file had (store meta), as written. */
  storedMin: string | null = null;
  storedMax: string | null = null;

  // allocate
  gridMin: Fraction = { num: 0n, den: 1n };
  gridMax: Fraction = { num: 0n, den: 1n };
  readonly written: WritableTier[] = [];

  readonly counts = { annotations: 0, confidence: 0, otherFields: 0, noText: 0, symbolic: 0, inexact: 0, movedPoints: 0, splitIntervals: 0, samePointTimes: 0 };

  /** The items of a tier, made for a tier the store did not declare. */
  itemsOf(tier: string): TierItems {
    let entry = this.byTier.get(tier);
    if (!entry) this.byTier.set(tier, (entry = { intervals: [], points: [] }));
    return entry;
  }

  /** A time as the exact decimal TextGrid writes; one with no finite decimal is the nearest double, counted. */
  decimal(value: Fraction): string {
    const text = fractionToDecimal(value.num, value.den);
    if (text !== null) return text;
    this.counts.inexact++;
    return String(Number(value.num) / Number(value.den));
  }
}

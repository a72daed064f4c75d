import type { Annotation } from '../model/annotation.js';
import type { AllenRelation } from '../time/allen.js';
import type { TimeInterval } from '../time/time-interval.js';

/**
 * What an interval query asks: annotations holding any of the Allen relations to the query (the
 * annotation being the left operand), or `'intersects'`: annotations sharing any time with it,
 * points included (not an Allen relation but the union of the ones that share time).
 */
export type IntervalQueryKind = readonly AllenRelation[] | 'intersects';

/**
 * The four interval queries of the store contract, written once: `intersects`, `during`,
 * `contains` and `relate` are all one window query with a different relation set, so a store
 * defines `queryWindow` and inherits the shortcuts. The shortcuts are async so that a
 * `queryWindow` that throws becomes a rejected promise, as the contract's methods do.
 */
export abstract class IntervalQueryShortcuts {
  /** The store's window query; an unknown relation name throws its teaching error. */
  protected abstract queryWindow(query: TimeInterval, relations: IntervalQueryKind): Promise<Annotation[]>;

  /** Annotations whose interval shares some time with the query (a point at its start included). */
  async intersects(query: TimeInterval): Promise<Annotation[]> {
    return this.queryWindow(query, 'intersects');
  }

  /** Annotations strictly inside the query (Allen's `during`). */
  async during(query: TimeInterval): Promise<Annotation[]> {
    return this.queryWindow(query, ['during']);
  }

  /** Annotations strictly containing the query (Allen's `contains`). */
  async contains(query: TimeInterval): Promise<Annotation[]> {
    return this.queryWindow(query, ['contains']);
  }

  /** Annotations that stand in any of the given Allen relations to the query (the annotation as the left operand). */
  async relate(query: TimeInterval, relations: readonly AllenRelation[]): Promise<Annotation[]> {
    return this.queryWindow(query, relations);
  }
}

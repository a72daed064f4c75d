import { annotationInterval, type Annotation } from '../model/annotation.js';
import type { TimeInterval } from '../time/time-interval.js';

/**
 * The one result order every store returns from interval queries: interval start, then end (by
 * rational value, so rates do not matter), then id. Stores whose index orders by something
 * else (float seconds, ticks at one rate) sort their exact matches with this before returning.
 */
export function compareIntervals(a: TimeInterval, b: TimeInterval): number {
  return a.start.compare(b.start) || a.end.compare(b.end);
}

/** Ids compare by UTF-16 code units: for lower-case UUIDs that is also SQL's binary order. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Canonical order of interval annotations. An annotation without an interval (AnnotationRef)
 * sorts after every interval one, by id; interval queries never return those, so this only
 * makes the comparator total.
 */
export function compareByInterval(a: Annotation, b: Annotation): number {
  const x = annotationInterval(a);
  const y = annotationInterval(b);
  if (x !== null && y !== null) return compareIntervals(x, y) || compareIds(a.id, b.id);
  if (x === null && y === null) return compareIds(a.id, b.id);
  return x === null ? 1 : -1;
}

/** A new array of the annotations in canonical order. */
export function sortByInterval(annotations: Iterable<Annotation>): Annotation[] {
  return [...annotations].sort(compareByInterval);
}

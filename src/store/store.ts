import type { Annotation } from '../model/annotation.js';
import type { Tier } from '../model/tier.js';
import type { AllenRelation } from '../time/allen.js';
import type { TimeInterval } from '../time/time-interval.js';
import type { ReadForm, ReadItem, ReadOptions, ReadPage, ReadQuery } from './read-page.js';

/** Options of addTier. `enforceNoOverlap` is honoured by the PostgreSQL store (a database constraint). */
export interface AddTierOptions {
  enforceNoOverlap?: boolean;
}

/**
 * The one contract every store implements (memory, mapping, SQLite `.annot`, PostgreSQL), and the
 * one test suite (test/store/contract.ts) holds them to: every store gives the same answers.
 *
 * Rules all stores share:
 * - Tiers are registered before annotations that name them, and a parent tier before its child
 *   (UnknownTierError). addTier upserts by name.
 * - Ids are unique (DuplicateAnnotationIdError). update replaces the annotation with the same id
 *   (AnnotationNotFoundError when absent); delete returns the removed annotation or null.
 * - addMany is all or nothing: one transaction, nothing written when any annotation is refused.
 * - Interval queries compare by rational value across rates, use Allen's relations with the
 *   annotation as the left operand (`during(q)`: annotations strictly inside q; `contains(q)`:
 *   annotations strictly containing q; `relate(q, [meets])`: annotations ending exactly at
 *   q.start), return each annotation once, and never return annotations without an interval
 *   (AnnotationRef).
 * - Query results are ordered by interval start, then end (rational values), then id; `all()`
 *   streams in insertion order (an update keeps the position).
 * - `read` is the paged form of both (read-page.ts): a window read in that order, a listing in
 *   insertion order, each page resuming after the key of the last one, at the cost of one page.
 * - The mapping facade treats the store as a map from an interval (by rational value, so
 *   [1/2, 1) and [2/4, 4/4) are one key) to the annotations at exactly that interval.
 */
export interface AnnotationStore {
  /** 'memory', 'mapping', 'sqlite' or 'postgres'. */
  readonly kind: string;

  add(annotation: Annotation): Promise<void>;
  addMany(annotations: Iterable<Annotation> | AsyncIterable<Annotation>): Promise<number>;
  get(id: string): Promise<Annotation | null>;
  update(annotation: Annotation): Promise<void>;
  delete(id: string): Promise<Annotation | null>;
  /** Number of annotations, interval-less ones included. */
  count(): Promise<number>;
  /** Every annotation, interval-less ones included, in insertion order, without holding them all at once. */
  all(): AsyncIterable<Annotation>;

  addTier(tier: Tier, options?: AddTierOptions): Promise<void>;
  getTier(name: string): Promise<Tier | null>;
  listTiers(): Promise<Tier[]>;

  setMeta(key: string, value: string): Promise<void>;
  getMeta(key: string): Promise<string | null>;
  listMeta(): Promise<Record<string, string>>;

  /** One keyset page of a query (read-page.ts); the surfaces' one read path. */
  read<F extends ReadForm>(query: ReadQuery, options: ReadOptions<F>): Promise<ReadPage<ReadItem<F>>>;
  /**
   * A hint that window reads will follow over and over (a server): a store that keeps an index of
   * its own in memory starts building it now, without blocking reads meanwhile. Resolves true once
   * it is built, false when there is nothing to build or the build was given up.
   */
  warmUp?(): Promise<boolean>;

  intersects(query: TimeInterval): Promise<Annotation[]>;
  during(query: TimeInterval): Promise<Annotation[]>;
  contains(query: TimeInterval): Promise<Annotation[]>;
  relate(query: TimeInterval, relations: readonly AllenRelation[]): Promise<Annotation[]>;
  /** Every annotation on the tier, interval-less ones included, in insertion order. */
  byTier(tier: string): Promise<Annotation[]>;
  /** Annotations on the tier that intersect the query. */
  atTier(tier: string, query: TimeInterval): Promise<Annotation[]>;

  getAt(key: TimeInterval): Promise<Annotation[]>;
  setAt(key: TimeInterval, annotations: readonly Annotation[]): Promise<void>;
  deleteAt(key: TimeInterval): Promise<number>;
  /** The distinct intervals that have annotations, ordered by start then end. */
  intervals(): AsyncIterable<TimeInterval>;

  close(): Promise<void>;
}

import type { Annotation } from '../model/annotation.js';
import type { Tier } from '../model/tier.js';
import type { AllenRelation } from '../time/allen.js';
import type { TimeInterval } from '../time/time-interval.js';
import type { ReadForm, ReadItem, ReadOptions, ReadPage, ReadQuery } from './read-page.js';

/** Options of addTier. `enforceNoOverlap` is honoured by the PostgreSQL store (a database constraint). */
export interface AddTierOptions {
  /**
   * Make the store refuse overlapping annotations in this tier (TierOverlapError); only PostgreSQL honours it, with a database constraint.
   */
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

  /**
   * Adds an annotation (DuplicateAnnotationIdError when its id is taken, UnknownTierError when its tier is not registered).
   */
  add(annotation: Annotation): Promise<void>;
  /** Adds annotations all or nothing, in one transaction; returns how many were added. */
  addMany(annotations: Iterable<Annotation> | AsyncIterable<Annotation>): Promise<number>;
  /** The annotation with this id, or null. */
  get(id: string): Promise<Annotation | null>;
  /**
   * Replaces the annotation with the same id, keeping its place in insertion order (AnnotationNotFoundError when absent).
   */
  update(annotation: Annotation): Promise<void>;
  /** Removes the annotation with this id; returns it, or null when there was none. */
  delete(id: string): Promise<Annotation | null>;
  /** Number of annotations, interval-less ones included. */
  count(): Promise<number>;
  /** Every annotation, interval-less ones included, in insertion order, without holding them all at once. */
  all(): AsyncIterable<Annotation>;

  /** Registers a tier, or replaces the one of the same name (its parent must be registered first). */
  addTier(tier: Tier, options?: AddTierOptions): Promise<void>;
  /** The tier of this name, or null. */
  getTier(name: string): Promise<Tier | null>;
  /** Every registered tier. */
  listTiers(): Promise<Tier[]>;

  /** Sets a metadata value of the store (a string under a key). */
  setMeta(key: string, value: string): Promise<void>;
  /** The metadata value under this key, or null. */
  getMeta(key: string): Promise<string | null>;
  /** Every metadata key and value. */
  listMeta(): Promise<Record<string, string>>;

  /** One keyset page of a query (read-page.ts); the surfaces' one read path. */
  read<F extends ReadForm>(query: ReadQuery, options: ReadOptions<F>): Promise<ReadPage<ReadItem<F>>>;
  /**
   * A hint that window reads will follow over and over (a server): a store that keeps an index of
   * its own in memory starts building it now, without blocking reads meanwhile. Resolves true once
   * it is built, false when there is nothing to build or the build was given up.
   */
  warmUp?(): Promise<boolean>;

  /** Annotations whose interval shares some time with the query (a point at its start included). */
  intersects(query: TimeInterval): Promise<Annotation[]>;
  /** Annotations strictly inside the query (Allen's `during`). */
  during(query: TimeInterval): Promise<Annotation[]>;
  /** Annotations strictly containing the query (Allen's `contains`). */
  contains(query: TimeInterval): Promise<Annotation[]>;
  /** Annotations that stand in any of the given Allen relations to the query (the annotation as the left operand). */
  relate(query: TimeInterval, relations: readonly AllenRelation[]): Promise<Annotation[]>;
  /** Every annotation on the tier, interval-less ones included, in insertion order. */
  byTier(tier: string): Promise<Annotation[]>;
  /** Annotations on the tier that intersect the query. */
  atTier(tier: string, query: TimeInterval): Promise<Annotation[]>;

  /** The annotations at exactly this interval (by rational value). */
  getAt(key: TimeInterval): Promise<Annotation[]>;
  /** Replaces the annotations at exactly this interval with these (each must have that interval). */
  setAt(key: TimeInterval, annotations: readonly Annotation[]): Promise<void>;
  /** Removes the annotations at exactly this interval; returns how many. */
  deleteAt(key: TimeInterval): Promise<number>;
  /** The distinct intervals that have annotations, ordered by start then end. */
  intervals(): AsyncIterable<TimeInterval>;

  /** Releases what the store holds open (a file, a connection pool); the store is not used after. */
  close(): Promise<void>;
}

import { annotationInterval, type Annotation } from '../model/annotation.js';
import type { Tier } from '../model/tier.js';
import { TimeInterval } from '../time/time-interval.js';
import {
  AnnotationNotFoundError,
  DuplicateAnnotationIdError,
  KeyMismatchError,
  UnknownTierError,
} from './errors.js';
import { InsertionOrder } from './insertion-order.js';
import { IntervalIndex } from './interval-index.js';
import type { IntervalQueryKind } from './interval-query-shortcuts.js';
import { MemoryOpLoggedStore } from './memory-op-logged.js';
import {
  checkLimit, inForm, insertionPosition, intervalKeyOf, intervalPosition, resumeKey,
  type IntervalKey, type ReadForm, type ReadItem, type ReadOptions, type ReadPage, type ReadQuery,
} from './read-page.js';
import { candidateBounds, matchesIntersects, matchesRelations } from './relation-filter.js';
import type { OpLoggedStore } from '../oplog/op-logged-store.js';
import type { AddTierOptions } from './store.js';

/**
 * One validated change, handed to `MemoryStoreOptions.beforeCommit` after every check has passed
 * and before the store changes. `put` lists annotations to write (new or replacing the same id),
 * `delete` the ids to drop; `tiers` and `meta` carry the whole registry after the change, so a
 * persister can rewrite it under one key.
 */
export type StoreChange =
  | {
      /** Annotations were added, replaced or removed. */
      readonly kind: 'annotations';
      /** The annotations added or replaced. */
      readonly put: readonly Annotation[];
      /** The ids removed. */
      readonly delete: readonly string[];
    }
  | {
      /** A tier was registered or replaced. */
      readonly kind: 'tier';
      /** That tier. */
      readonly tier: Tier;
      /** The whole registry after the change. */
      readonly tiers: readonly Tier[];
    }
  | {
      /** A metadata value was set. */
      readonly kind: 'meta';
      /** Its key. */
      readonly key: string;
      /** Its value. */
      readonly value: string;
      /** All the metadata after the change. */
      readonly meta: Readonly<Record<string, string>>;
    };

/** Options of a MemoryStore. */
export interface MemoryStoreOptions {
  /**
   * Called with each change once it is known to be valid; if it throws, the store is left as it
   * was and the error propagates. MappingStore writes through here; an op-log can append here.
   */
  beforeCommit?: (change: StoreChange) => void;
}

/** What `load` fills an empty store from: a snapshot someone else kept (a mapping, a replay). */
export interface MemoryStoreSnapshot {
  /** The tiers, parents before children. */
  tiers: readonly Tier[];
  /** The store's metadata. */
  meta: Readonly<Record<string, string>>;
  /** In all() order. */
  annotations: Iterable<Annotation>;
}

interface Entry {
  annotation: Annotation;
  /** Insertion rank, kept across updates: the listings' order and their paging key. */
  readonly seq: number;
  /** False once deleted (the insertion orders drop it lazily). */
  live: boolean;
}

/** all() hands annotations out in slices of this size, so a consumer never waits on the whole store. */
const STREAM_SLICE = 1024;

/**
 * The in-memory store: an id map in insertion order (JS Maps keep it, and `set` on an existing
 * key keeps the place, which is exactly "an update keeps its position"), the same order as a
 * sorted array overall and per tier (the listings' pages seek into it by rank), and an
 * IntervalIndex over the annotations that have an interval (window pages are its in-order
 * walk). Every mutation validates the whole change first and only then touches any structure,
 * so a refused call changes nothing.
 */
export class MemoryStore extends MemoryOpLoggedStore implements OpLoggedStore {
  /** What kind of store this is: 'memory', 'mapping', 'sqlite' or 'postgres'. */
  readonly kind: string = 'memory';

  private readonly entries = new Map<string, Entry>();
  private readonly order = new InsertionOrder<Entry>((entry) => entry.live);
  private readonly tierOrders = new Map<string, InsertionOrder<Entry>>();
  private readonly index = new IntervalIndex<Annotation>();
  private readonly tiers = new Map<string, Tier>();
  private readonly meta = new Map<string, string>();
  private nextSeq = 0;
  private readonly beforeCommit: (change: StoreChange) => void;

  constructor(options: MemoryStoreOptions = {}) {
    super();
    this.beforeCommit = options.beforeCommit ?? (() => undefined);
  }

  /**
   * Fills an empty store from a snapshot, checking the same rules as addTier and addMany (a
   * tier's parent among the snapshot's tiers, known tiers, unique ids) but keeping the snapshot's
   * tier order. Nothing is passed to beforeCommit: the snapshot is where the data came from.
   */
  load(snapshot: MemoryStoreSnapshot): void {
    if (this.entries.size > 0 || this.tiers.size > 0 || this.meta.size > 0) {
      throw new Error('MemoryStore.load fills an empty store only');
    }
    const names = new Set(snapshot.tiers.map((t) => t.name));
    for (const t of snapshot.tiers) {
      if (t.parent !== null && !names.has(t.parent)) {
        throw new UnknownTierError(`tier ${JSON.stringify(t.name)} names parent ${JSON.stringify(t.parent)}, which is not among the tiers`);
      }
    }
    const annotations = [...snapshot.annotations];
    const tierNames = names;
    this.checkNewAnnotations(annotations, (name) => tierNames.has(name));
    for (const t of snapshot.tiers) this.tiers.set(t.name, t);
    for (const [key, value] of Object.entries(snapshot.meta)) this.meta.set(key, value);
    for (const annotation of annotations) this.insert(annotation);
  }

  /**
   * Adds an annotation (DuplicateAnnotationIdError when its id is taken, UnknownTierError when its tier is not registered).
   */
  async add(annotation: Annotation): Promise<void> {
    this.commitNew([annotation]);
  }

  /** Adds annotations all or nothing, in one transaction; returns how many were added. */
  async addMany(annotations: Iterable<Annotation> | AsyncIterable<Annotation>): Promise<number> {
    const batch: Annotation[] = [];
    for await (const annotation of annotations) batch.push(annotation);
    this.commitNew(batch);
    return batch.length;
  }

  /** The annotation with this id, or null. */
  async get(id: string): Promise<Annotation | null> {
    return this.entries.get(id)?.annotation ?? null;
  }

  /**
   * Replaces the annotation with the same id, keeping its place in insertion order (AnnotationNotFoundError when absent).
   */
  async update(annotation: Annotation): Promise<void> {
    if (!this.entries.has(annotation.id)) {
      throw new AnnotationNotFoundError(`update: no annotation with id ${annotation.id} in the store; add it instead`);
    }
    this.checkTier(annotation);
    this.beforeCommit({ kind: 'annotations', put: [annotation], delete: [] });
    this.replace(annotation);
  }

  /** Removes the annotation with this id; returns it, or null when there was none. */
  async delete(id: string): Promise<Annotation | null> {
    const entry = this.entries.get(id);
    if (entry === undefined) return null;
    this.beforeCommit({ kind: 'annotations', put: [], delete: [id] });
    this.remove(entry.annotation);
    return entry.annotation;
  }

  /** Number of annotations, interval-less ones included. */
  async count(): Promise<number> {
    return this.entries.size;
  }

  /** Every annotation, interval-less ones included, in insertion order, without holding them all at once. */
  async *all(): AsyncIterable<Annotation> {
    // A Map iterator is live: entries deleted meanwhile are skipped, entries added are reached.
    let slice: Annotation[] = [];
    for (const entry of this.entries.values()) {
      slice.push(entry.annotation);
      if (slice.length === STREAM_SLICE) {
        yield* slice;
        slice = [];
      }
    }
    yield* slice;
  }

  /** Registers a tier, or replaces the one of the same name (its parent must be registered first). */
  async addTier(tier: Tier, _options: AddTierOptions = {}): Promise<void> {
    if (tier.parent !== null && !this.tiers.has(tier.parent)) {
      throw new UnknownTierError(
        `tier ${JSON.stringify(tier.name)} names parent ${JSON.stringify(tier.parent)}, which is not registered; add the parent tier first`,
      );
    }
    const tiers = new Map(this.tiers).set(tier.name, tier);
    this.beforeCommit({ kind: 'tier', tier, tiers: [...tiers.values()] });
    this.tiers.set(tier.name, tier);
  }

  /** The tier of this name, or null. */
  async getTier(name: string): Promise<Tier | null> {
    return this.tiers.get(name) ?? null;
  }

  /** Every registered tier. */
  async listTiers(): Promise<Tier[]> {
    return [...this.tiers.values()];
  }

  /** Sets a metadata value of the store (a string under a key). */
  async setMeta(key: string, value: string): Promise<void> {
    if (typeof key !== 'string' || typeof value !== 'string') {
      throw new TypeError(`setMeta: key and value must be strings, got ${typeof key} and ${typeof value}`);
    }
    const meta = Object.fromEntries(new Map(this.meta).set(key, value));
    this.beforeCommit({ kind: 'meta', key, value, meta });
    this.meta.set(key, value);
  }

  /** The metadata value under this key, or null. */
  async getMeta(key: string): Promise<string | null> {
    return this.meta.get(key) ?? null;
  }

  /** Every metadata key and value. */
  async listMeta(): Promise<Record<string, string>> {
    return Object.fromEntries(this.meta);
  }

  /** The annotations whose interval stands in one of the relations to the query, in interval order. */
  protected async queryWindow(query: TimeInterval, relations: IntervalQueryKind): Promise<Annotation[]> {
    return this.search(query, relations);
  }

  /** Every annotation on the tier, interval-less ones included, in insertion order. */
  async byTier(tier: string): Promise<Annotation[]> {
    const members = this.tierOrders.get(tier);
    return members === undefined ? [] : [...members.after(-1)].map((entry) => entry.annotation);
  }

  /** One keyset page of a query: a window read in interval order, or a listing in insertion order (see ReadQuery). */
  async read<F extends ReadForm>(query: ReadQuery, options: ReadOptions<F>): Promise<ReadPage<ReadItem<F>>> {
    const limit = checkLimit(options.limit);
    const resume = resumeKey(query, options.after);
    if (query.window === undefined) {
      const listing = query.tier === undefined ? this.order : this.tierOrders.get(query.tier);
      const found: Entry[] = [];
      for (const entry of listing?.after((resume as number | null) ?? -1) ?? []) {
        found.push(entry);
        if (found.length > limit) break;
      }
      const page = found.slice(0, limit);
      const next = found.length > limit ? insertionPosition(query, page[page.length - 1].seq) : null;
      return { items: inForm(page.map((entry) => entry.annotation), options.form), next };
    }
    const hits = this.windowPage(query, resume as IntervalKey | null, limit + 1);
    const page = hits.slice(0, limit);
    const next = hits.length > limit ? intervalPosition(query, intervalKeyOf(page[page.length - 1])) : null;
    return { items: inForm(page, options.form), next };
  }

  /** The first `count` hits of a window read after `after`: the interval index's in-order walk from that key. */
  private windowPage(query: ReadQuery, after: IntervalKey | null, count: number): Annotation[] {
    const window = query.window as TimeInterval;
    const relation = query.relation ?? 'intersects';
    const relations: IntervalQueryKind = relation === 'intersects' ? 'intersects' : [relation];
    const bounds = candidateBounds(window, relations);
    if (bounds === null) return [];
    const { tier } = query;
    const accept = (interval: TimeInterval, annotation: Annotation): boolean =>
      (tier === undefined || annotation.tier === tier) &&
      (relations === 'intersects' ? matchesIntersects(interval, window) : matchesRelations(interval, window, relations));
    const from = after === null ? null : { interval: new TimeInterval(after.start, after.end), id: after.id };
    return this.index.page(bounds, accept, from, count);
  }

  /** Annotations on the tier that intersect the query, in interval order. */
  async atTier(tier: string, query: TimeInterval): Promise<Annotation[]> {
    return (await this.search(query, 'intersects')).filter((annotation) => annotation.tier === tier);
  }

  /** The annotations at exactly this interval (by rational value). */
  async getAt(key: TimeInterval): Promise<Annotation[]> {
    return this.index.at(key);
  }

  /** Replaces the annotations at exactly this interval with these (each must have that interval). */
  async setAt(key: TimeInterval, annotations: readonly Annotation[]): Promise<void> {
    const current = new Set(this.index.at(key).map((annotation) => annotation.id));
    const seen = new Set<string>();
    for (const annotation of annotations) {
      const interval = annotationInterval(annotation);
      if (interval === null || !interval.equals(key)) {
        throw new KeyMismatchError(
          `setAt ${key.toString()}: annotation ${annotation.id} ${interval === null ? 'has no interval (an AnnotationRef)' : `is at ${interval.toString()}`}; ` +
            'every annotation written under a key must sit at exactly that interval',
        );
      }
      if (seen.has(annotation.id)) throw new DuplicateAnnotationIdError(`setAt ${key.toString()}: annotation id ${annotation.id} appears twice in the list`);
      seen.add(annotation.id);
      if (this.entries.has(annotation.id) && !current.has(annotation.id)) {
        throw new DuplicateAnnotationIdError(
          `setAt ${key.toString()}: annotation id ${annotation.id} is already in the store at another interval; delete or update it there`,
        );
      }
      this.checkTier(annotation);
    }
    const dropped = [...current].filter((id) => !seen.has(id));
    this.beforeCommit({ kind: 'annotations', put: annotations, delete: dropped });
    for (const id of dropped) this.remove((this.entries.get(id) as Entry).annotation);
    for (const annotation of annotations) {
      if (this.entries.has(annotation.id)) this.replace(annotation);
      else this.insert(annotation);
    }
  }

  /** Removes the annotations at exactly this interval; returns how many. */
  async deleteAt(key: TimeInterval): Promise<number> {
    const doomed = this.index.at(key);
    if (doomed.length === 0) return 0;
    this.beforeCommit({ kind: 'annotations', put: [], delete: doomed.map((annotation) => annotation.id) });
    for (const annotation of doomed) this.remove(annotation);
    return doomed.length;
  }

  /** The distinct intervals that have annotations, ordered by start then end. */
  async *intervals(): AsyncIterable<TimeInterval> {
    yield* this.index.intervals();
  }

  /** Nothing to release; the store stays usable. */
  async close(): Promise<void> {}

  private search(query: TimeInterval, relations: IntervalQueryKind): Annotation[] {
    const bounds = candidateBounds(query, relations);
    if (bounds === null) return [];
    const accept =
      relations === 'intersects'
        ? (interval: TimeInterval) => matchesIntersects(interval, query)
        : (interval: TimeInterval) => matchesRelations(interval, query, relations);
    return this.index.search(bounds, accept);
  }

  private commitNew(batch: readonly Annotation[]): void {
    this.checkNewAnnotations(batch, (name) => this.tiers.has(name));
    if (batch.length === 0) return;
    this.beforeCommit({ kind: 'annotations', put: batch, delete: [] });
    for (const annotation of batch) this.insert(annotation);
  }

  private checkNewAnnotations(batch: readonly Annotation[], tierKnown: (name: string) => boolean): void {
    const seen = new Set<string>();
    for (const annotation of batch) {
      if (this.entries.has(annotation.id)) {
        throw new DuplicateAnnotationIdError(`annotation id ${annotation.id} is already in the store; use update to replace it`);
      }
      if (seen.has(annotation.id)) throw new DuplicateAnnotationIdError(`annotation id ${annotation.id} appears twice in the batch`);
      seen.add(annotation.id);
      if (!tierKnown(annotation.tier)) throw this.unknownTier(annotation);
    }
  }

  private checkTier(annotation: Annotation): void {
    if (!this.tiers.has(annotation.tier)) throw this.unknownTier(annotation);
  }

  private unknownTier(annotation: Annotation): UnknownTierError {
    return new UnknownTierError(
      `annotation ${annotation.id} is on tier ${JSON.stringify(annotation.tier)}, which is not registered; add the tier first (addTier)`,
    );
  }

  private insert(annotation: Annotation): void {
    const entry: Entry = { annotation, seq: this.nextSeq++, live: true };
    this.entries.set(annotation.id, entry);
    this.order.append(entry);
    this.members(annotation.tier).append(entry);
    const interval = annotationInterval(annotation);
    if (interval !== null) this.index.insert(interval, annotation.id, annotation);
  }

  private replace(annotation: Annotation): void {
    const entry = this.entries.get(annotation.id) as Entry;
    const old = entry.annotation;
    entry.annotation = annotation;
    if (old.tier !== annotation.tier) {
      // The entry leaves its tier's order (dropped lazily) and joins the new one at its rank.
      this.leaveTier(old.tier);
      this.members(annotation.tier).insert(entry);
    }
    const before = annotationInterval(old);
    const after = annotationInterval(annotation);
    // Same ticks at the same rates: the node stays where it is and just holds the new value.
    if (before !== null && after !== null && before.start.isIdentical(after.start) && before.end.isIdentical(after.end)) {
      this.index.replace(before, annotation.id, annotation);
      return;
    }
    if (before !== null) this.index.remove(before, old.id);
    if (after !== null) this.index.insert(after, annotation.id, annotation);
  }

  private remove(annotation: Annotation): void {
    const entry = this.entries.get(annotation.id) as Entry;
    entry.live = false;
    this.entries.delete(annotation.id);
    this.order.leave();
    this.leaveTier(annotation.tier);
    const interval = annotationInterval(annotation);
    if (interval !== null) this.index.remove(interval, annotation.id);
  }

  /** The insertion order of a tier's live members, made on its first annotation. */
  private members(tier: string): InsertionOrder<Entry> {
    let members = this.tierOrders.get(tier);
    if (members === undefined) {
      members = new InsertionOrder<Entry>((entry) => entry.live && entry.annotation.tier === tier);
      this.tierOrders.set(tier, members);
    }
    return members;
  }

  private leaveTier(tier: string): void {
    const members = this.tierOrders.get(tier);
    if (members === undefined) return;
    members.leave();
    if (members.isEmpty) this.tierOrders.delete(tier);
  }
}

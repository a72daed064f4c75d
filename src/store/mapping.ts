import { isUuid } from '../model/ids.js';
import type { OpLoggedStore } from '../oplog/op-logged-store.js';
import type { Annotation } from '../model/annotation.js';
import type { Tier } from '../model/tier.js';
import { annotationFromWire, annotationToWire, tierFromWire, tierToWire } from '../model/wire.js';
import type { TimeInterval } from '../time/time-interval.js';
import { StoreFormatError } from './errors.js';
import type { IntervalQueryKind } from './interval-query-shortcuts.js';
import { MemoryOpLoggedStore } from './memory-op-logged.js';
import { MemoryStore, type StoreChange } from './memory.js';
import type { ReadForm, ReadItem, ReadOptions, ReadPage, ReadQuery } from './read-page.js';
import type { AddTierOptions } from './store.js';

/** The part of a Map a MappingStore needs. A plain `Map<string, V>` is one. */
export interface MapLike<V> {
  /** The value under a key, or undefined. */
  get(key: string): V | undefined;
  /** Sets the value under a key. */
  set(key: string, value: V): unknown;
  /** Removes a key. */
  delete(key: string): unknown;
  /** Every key. */
  keys(): Iterable<string>;
}

/** How JSON-ready values (annotation and tier wire forms) become the map's values and back. */
export interface MappingCodec<V> {
  /** A JSON-ready value as the map's value. */
  encode(json: unknown): V;
  /** The map's value back as the JSON-ready value. */
  decode(value: V): unknown;
}

/**
 * Stores the JSON-ready object itself (a copy, so later changes to it cannot reach the store).
 * The copy goes through JSON rather than structuredClone, which can hand back objects of another
 * realm's Object prototype (vm contexts, test runners) that the model's plain-JSON check refuses.
 */
export const JSON_VALUE_CODEC: MappingCodec<unknown> = Object.freeze({
  encode: (json: unknown) => JSON.parse(JSON.stringify(json)) as unknown,
  decode: (value: unknown) => value,
});

/** Stores JSON text. */
export const JSON_TEXT_CODEC: MappingCodec<string> = Object.freeze({
  encode: (json: unknown) => JSON.stringify(json),
  decode: (value: string) => JSON.parse(value) as unknown,
});

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();

/** Stores UTF-8 JSON bytes, for byte-valued key-value stores. */
export const JSON_BYTES_CODEC: MappingCodec<Uint8Array> = Object.freeze({
  encode: (json: unknown) => utf8Encoder.encode(JSON.stringify(json)),
  decode: (value: Uint8Array) => JSON.parse(utf8Decoder.decode(value)) as unknown,
});

/** The reserved key holding `{tiers: [<tier wire>...]}` in registration order. */
export const MAPPING_TIERS_KEY = '__annot_tiers__';
/** The reserved key holding `{meta: {<key>: <value>}}`. */
export const MAPPING_META_KEY = '__annot_meta__';

/** Options of a MappingStore. */
export interface MappingStoreOptions<V> {
  /** Defaults to JSON_VALUE_CODEC (the map holds JSON-ready objects). */
  codec?: MappingCodec<V>;
}

/**
 * A store kept in a caller's key-value map: one key per annotation id (its wire JSON), the tier
 * registry under MAPPING_TIERS_KEY and the metadata under MAPPING_META_KEY. Queries are answered
 * by a MemoryStore holding the same data, which the constructor loads from the map.
 *
 * Writes go through to the map first: each change is validated, then written, then applied to
 * the in-memory index; a map write that throws is undone as far as the map allows (keys written
 * by the failed change are restored or removed) and leaves the index untouched.
 *
 * Single writer: the map is read once, at construction. Another MappingStore over the same map,
 * or anyone writing the map directly, is not seen, and its writes may be overwritten. Give the
 * store a map (or a prefix-scoped view of one) dedicated to it.
 */
export class MappingStore<V = unknown> extends MemoryOpLoggedStore implements OpLoggedStore {
  /** What kind of store this is: 'memory', 'mapping', 'sqlite' or 'postgres'. */
  readonly kind = 'mapping';

  private readonly codec: MappingCodec<V>;
  private readonly memory: MemoryStore;

  constructor(
    private readonly map: MapLike<V>,
    options: MappingStoreOptions<V> = {},
  ) {
    super();
    this.codec = options.codec ?? (JSON_VALUE_CODEC as MappingCodec<V>);
    this.memory = new MemoryStore({ beforeCommit: (change) => this.writeThrough(change) });
    const snapshot = this.readSnapshot();
    try {
      this.memory.load(snapshot);
    } catch (error) {
      // load() checks tiers, parents and ids; here its complaints are about the map's content.
      throw new StoreFormatError(`MappingStore cannot load its map: ${(error as Error).message}`, { cause: error });
    }
  }

  /**
   * Adds an annotation (DuplicateAnnotationIdError when its id is taken, UnknownTierError when its tier is not registered).
   */
  add(annotation: Annotation): Promise<void> {
    return this.memory.add(annotation);
  }

  /** Adds annotations all or nothing, in one transaction; returns how many were added. */
  addMany(annotations: Iterable<Annotation> | AsyncIterable<Annotation>): Promise<number> {
    return this.memory.addMany(annotations);
  }

  /** The annotation with this id, or null. */
  get(id: string): Promise<Annotation | null> {
    return this.memory.get(id);
  }

  /**
   * Replaces the annotation with the same id, keeping its place in insertion order (AnnotationNotFoundError when absent).
   */
  update(annotation: Annotation): Promise<void> {
    return this.memory.update(annotation);
  }

  /** Removes the annotation with this id; returns it, or null when there was none. */
  delete(id: string): Promise<Annotation | null> {
    return this.memory.delete(id);
  }

  /** Number of annotations, interval-less ones included. */
  count(): Promise<number> {
    return this.memory.count();
  }

  /** Every annotation, interval-less ones included, in insertion order, without holding them all at once. */
  all(): AsyncIterable<Annotation> {
    return this.memory.all();
  }

  /** Registers a tier, or replaces the one of the same name (its parent must be registered first). */
  addTier(tier: Tier, options?: AddTierOptions): Promise<void> {
    return this.memory.addTier(tier, options);
  }

  /** The tier of this name, or null. */
  getTier(name: string): Promise<Tier | null> {
    return this.memory.getTier(name);
  }

  /** Every registered tier. */
  listTiers(): Promise<Tier[]> {
    return this.memory.listTiers();
  }

  /** Sets a metadata value of the store (a string under a key). */
  setMeta(key: string, value: string): Promise<void> {
    return this.memory.setMeta(key, value);
  }

  /** The metadata value under this key, or null. */
  getMeta(key: string): Promise<string | null> {
    return this.memory.getMeta(key);
  }

  /** Every metadata key and value. */
  listMeta(): Promise<Record<string, string>> {
    return this.memory.listMeta();
  }

  /** The annotations whose interval stands in one of the relations to the query, in interval order. */
  protected queryWindow(query: TimeInterval, relations: IntervalQueryKind): Promise<Annotation[]> {
    return relations === 'intersects' ? this.memory.intersects(query) : this.memory.relate(query, relations);
  }

  /** One keyset page of a query: a window read in interval order, or a listing in insertion order (see ReadQuery). */
  read<F extends ReadForm>(query: ReadQuery, options: ReadOptions<F>): Promise<ReadPage<ReadItem<F>>> {
    return this.memory.read(query, options);
  }

  /** Every annotation on the tier, interval-less ones included, in insertion order. */
  byTier(tier: string): Promise<Annotation[]> {
    return this.memory.byTier(tier);
  }

  /** Annotations on the tier that intersect the query, in interval order. */
  atTier(tier: string, query: TimeInterval): Promise<Annotation[]> {
    return this.memory.atTier(tier, query);
  }

  /** The annotations at exactly this interval (by rational value). */
  getAt(key: TimeInterval): Promise<Annotation[]> {
    return this.memory.getAt(key);
  }

  /** Replaces the annotations at exactly this interval with these (each must have that interval). */
  setAt(key: TimeInterval, annotations: readonly Annotation[]): Promise<void> {
    return this.memory.setAt(key, annotations);
  }

  /** Removes the annotations at exactly this interval; returns how many. */
  deleteAt(key: TimeInterval): Promise<number> {
    return this.memory.deleteAt(key);
  }

  /** The distinct intervals that have annotations, ordered by start then end. */
  intervals(): AsyncIterable<TimeInterval> {
    return this.memory.intervals();
  }

  /** The map belongs to the caller; nothing to release, and the store stays usable. */
  async close(): Promise<void> {}

  private readSnapshot(): { tiers: Tier[]; meta: Record<string, string>; annotations: Annotation[] } {
    let tiers: Tier[] = [];
    let meta: Record<string, string> = {};
    const annotations: Annotation[] = [];
    for (const key of [...this.map.keys()]) {
      if (key === MAPPING_TIERS_KEY) {
        tiers = this.readTiers(key);
      } else if (key === MAPPING_META_KEY) {
        meta = this.readMeta(key);
      } else if (isUuid(key)) {
        annotations.push(this.readAnnotation(key));
      } else {
        throw new StoreFormatError(
          `MappingStore found the key ${JSON.stringify(key)} in its map: it is neither an annotation id (a UUID) nor ` +
            `${MAPPING_TIERS_KEY} or ${MAPPING_META_KEY}. Give the store a map (or a scoped view of one) that holds nothing else.`,
        );
      }
    }
    return { tiers, meta, annotations };
  }

  private decodeAt(key: string): unknown {
    try {
      return this.codec.decode(this.map.get(key) as V);
    } catch (error) {
      throw new StoreFormatError(`MappingStore cannot decode the value at key ${JSON.stringify(key)}: ${(error as Error).message}; is the codec the one it was written with?`, { cause: error });
    }
  }

  private readAnnotation(key: string): Annotation {
    let annotation: Annotation;
    try {
      annotation = annotationFromWire(this.decodeAt(key));
    } catch (error) {
      if (error instanceof StoreFormatError) throw error;
      throw new StoreFormatError(`MappingStore: the value at key ${key} is not an annotation: ${(error as Error).message}`, { cause: error });
    }
    if (annotation.id !== key) {
      throw new StoreFormatError(`MappingStore: the annotation at key ${key} has id ${annotation.id}; each annotation must sit under its own id, spelt lower-case`);
    }
    return annotation;
  }

  private readTiers(key: string): Tier[] {
    const json = this.decodeAt(key) as { tiers?: unknown } | null;
    if (typeof json !== 'object' || json === null || !Array.isArray(json.tiers)) {
      throw new StoreFormatError(`MappingStore: the value at ${key} must be {"tiers": [...]}`);
    }
    return json.tiers.map((wire, i) => {
      try {
        return tierFromWire(wire);
      } catch (error) {
        throw new StoreFormatError(`MappingStore: ${key} tiers[${i}] is not a tier: ${(error as Error).message}`, { cause: error });
      }
    });
  }

  private readMeta(key: string): Record<string, string> {
    const json = this.decodeAt(key) as { meta?: unknown } | null;
    const meta = typeof json === 'object' && json !== null ? json.meta : undefined;
    if (typeof meta !== 'object' || meta === null || Array.isArray(meta) || Object.values(meta).some((v) => typeof v !== 'string')) {
      throw new StoreFormatError(`MappingStore: the value at ${key} must be {"meta": {<key>: <string value>}}`);
    }
    return meta as Record<string, string>;
  }

  /** Writes one change to the map, restoring every key it touched if any write throws. */
  private writeThrough(change: StoreChange): void {
    const writes: Array<[key: string, value: V | undefined]> = [];
    switch (change.kind) {
      case 'annotations':
        for (const id of change.delete) writes.push([id, undefined]);
        for (const annotation of change.put) writes.push([annotation.id, this.codec.encode(annotationToWire(annotation))]);
        break;
      case 'tier':
        writes.push([MAPPING_TIERS_KEY, this.codec.encode({ tiers: change.tiers.map(tierToWire) })]);
        break;
      case 'meta':
        writes.push([MAPPING_META_KEY, this.codec.encode({ meta: change.meta })]);
        break;
    }
    const undo: Array<() => void> = [];
    try {
      for (const [key, value] of writes) {
        const had = this.hasKey(key);
        const previous = had ? this.map.get(key) : undefined;
        undo.push(had ? () => this.map.set(key, previous as V) : () => this.map.delete(key));
        if (value === undefined) this.map.delete(key);
        else this.map.set(key, value);
      }
    } catch (error) {
      for (const step of undo.reverse()) {
        try {
          step();
        } catch {
          // Best effort: the original error is the one worth reporting.
        }
      }
      throw error;
    }
  }

  private hasKey(key: string): boolean {
    return this.map.get(key) !== undefined;
  }
}

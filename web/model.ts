// What the page knows of the store: tiers in lane order and annotations indexed for drawing.
import type { AnnotationWire, TierWire, Time } from './wire.js';

export interface Item {
  wire: AnnotationWire;
  /** Seconds; for an annotation referring to another, the target's times. */
  start: number;
  end: number;
  /** The ETag of `wire`, when known (from an event or a GET); null until then. */
  etag: string | null;
}

export interface Lane {
  tier: TierWire;
  depth: number;
  items: Item[];
  /** The longest item, so a window query can start its binary search early enough. */
  maxDuration: number;
  sorted: boolean;
}

export const seconds = (time: Time): number => time.v / time.r;

/** Two exact times are the same instant (at any rates); BigInt, as v × r can pass 2^53. */
export const sameTime = (a: Time, b: Time): boolean => BigInt(a.v) * BigInt(b.r) === BigInt(b.v) * BigInt(a.r);

/** The label of a block: the body's text, else a short JSON of the body. */
export function labelOf(wire: AnnotationWire): string {
  const text = wire.body.text;
  if (typeof text === 'string') return text;
  for (const key of ['label', 'value', 'name']) {
    const value = wire.body[key];
    if (typeof value === 'string') return value;
  }
  const json = JSON.stringify(wire.body);
  return json.length > 60 ? `${json.slice(0, 57)}…` : json;
}

export class TimelineModel {
  readonly items = new Map<string, Item>();
  private tiers = new Map<string, TierWire>();
  lanes: Lane[] = [];
  private laneByTier = new Map<string, Lane>();
  /** The clock of the last op-log entry applied. */
  clock = 0;
  /**
   * Per annotation, the clock of the version the page holds (or of its deletion): the page's own
   * saves answer before the stream brings the same entries, and an entry older than what the page
   * holds (a deletion, then the page's undo of it under the same id) must not undo it again.
   */
  private readonly clocks = new Map<string, number>();
  /** Bumped on every change, so the view knows to redraw. */
  version = 0;

  setTiers(tiers: TierWire[]): void {
    this.tiers = new Map(tiers.map((tier) => [tier.name, tier]));
    this.layout();
  }

  upsertTier(tier: TierWire): void {
    this.tiers.set(tier.name, tier);
    this.layout();
  }

  /** Lanes in depth-first order: each tier right under its parent, children in the order they came. */
  private layout(): void {
    const children = new Map<string | null, TierWire[]>();
    for (const tier of this.tiers.values()) {
      const parent = tier.parent !== null && this.tiers.has(tier.parent) ? tier.parent : null;
      if (!children.has(parent)) children.set(parent, []);
      children.get(parent)!.push(tier);
    }
    const old = this.laneByTier;
    this.lanes = [];
    this.laneByTier = new Map();
    const visit = (parent: string | null, depth: number) => {
      for (const tier of children.get(parent) ?? []) {
        const lane: Lane = old.get(tier.name) ?? { tier, depth, items: [], maxDuration: 0, sorted: true };
        lane.tier = tier;
        lane.depth = depth;
        this.lanes.push(lane);
        this.laneByTier.set(tier.name, lane);
        if (depth < 32) visit(tier.name, depth + 1);
      }
    };
    visit(null, 0);
    // Items that arrived before their tier.
    for (const item of this.items.values()) if (!old.has(item.wire.tier)) this.place(item);
    this.version++;
  }

  /** Notes that the page holds the annotation (or its deletion) as of `clock`. */
  heldAt(id: string, clock: number): void {
    if (clock > (this.clocks.get(id) ?? 0)) this.clocks.set(id, clock);
  }

  /** Whether an op-log entry about the annotation is newer than what the page holds of it. */
  isNewer(id: string, clock: number): boolean {
    return clock > (this.clocks.get(id) ?? 0);
  }

  upsert(wire: AnnotationWire, etag: string | null): Item {
    const existing = this.items.get(wire.id);
    if (existing) this.unplace(existing);
    const item: Item = existing ?? { wire, start: 0, end: 0, etag };
    // Without an ETag, the one held stays only for the very same version (compared before it is replaced).
    item.etag = etag ?? (existing && JSON.stringify(existing.wire) === JSON.stringify(wire) ? existing.etag : null);
    item.wire = wire;
    this.time(item);
    this.items.set(wire.id, item);
    this.place(item);
    this.version++;
    return item;
  }

  /** Bulk load: no per-item version bump, one sort per lane later. */
  load(wires: AnnotationWire[]): void {
    for (const wire of wires) {
      const item: Item = { wire, start: 0, end: 0, etag: null };
      this.items.set(wire.id, item);
    }
    for (const wire of wires) {
      const item = this.items.get(wire.id)!;
      this.time(item);
      this.place(item);
    }
    this.version++;
  }

  remove(id: string): void {
    const item = this.items.get(id);
    if (!item) return;
    this.unplace(item);
    this.items.delete(id);
    this.version++;
  }

  private time(item: Item): void {
    const reference = item.wire.reference;
    if (reference.kind === 'media') {
      item.start = seconds(reference.interval.start);
      item.end = seconds(reference.interval.end);
    } else {
      const target = this.items.get(reference.target_id);
      item.start = target ? target.start : 0;
      item.end = target ? target.end : 0;
    }
  }

  private place(item: Item): void {
    const lane = this.laneByTier.get(item.wire.tier);
    if (!lane) return;
    lane.items.push(item);
    lane.sorted = false;
    lane.maxDuration = Math.max(lane.maxDuration, item.end - item.start);
  }

  private unplace(item: Item): void {
    const lane = this.laneByTier.get(item.wire.tier);
    if (!lane) return;
    const at = lane.items.indexOf(item);
    if (at >= 0) lane.items.splice(at, 1);
  }

  /** The lane's items in start order. */
  sorted(lane: Lane): Item[] {
    if (!lane.sorted) {
      lane.items.sort((a, b) => a.start - b.start || a.end - b.end);
      lane.sorted = true;
    }
    return lane.items;
  }

  /** The index of the first item of the (sorted) lane starting at or after `time`. */
  firstStartingAt(lane: Lane, time: number): number {
    const items = this.sorted(lane);
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (items[mid].start < time) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Where an item is in its (sorted) lane: a binary search by start, then the few items starting with it. */
  indexIn(lane: Lane, item: Item): number {
    const items = this.sorted(lane);
    for (let i = this.firstStartingAt(lane, item.start); i < items.length && items[i].start === item.start; i++) if (items[i] === item) return i;
    return items.indexOf(item);
  }

  /** The items of a lane that may intersect [from, to], in start order. */
  visible(lane: Lane, from: number, to: number): Item[] {
    const items = this.sorted(lane);
    const out: Item[] = [];
    for (let i = this.firstStartingAt(lane, from - lane.maxDuration); i < items.length && items[i].start <= to; i++) if (items[i].end >= from) out.push(items[i]);
    return out;
  }

  /** The span of all annotations, for "fit". */
  extent(): [number, number] {
    let min = Infinity;
    let max = -Infinity;
    for (const item of this.items.values()) {
      if (item.start < min) min = item.start;
      if (item.end > max) max = item.end;
    }
    return min <= max ? [min, max] : [0, 10];
  }

  /**
   * On a TIME_SUBDIVISION tier, the sibling whose edge is exactly `item`'s `edge` under the same
   * parent annotation (one on the parent tier holds the boundary strictly inside): the two move
   * that boundary together, as ELAN does, since either alone would open a gap or an overlap.
   */
  sharingEdge(item: Item, edge: 'start' | 'end'): Item | null {
    const lane = this.laneOf(item);
    const reference = item.wire.reference;
    if (!lane || lane.tier.stereotype !== 'TIME_SUBDIVISION' || reference.kind !== 'media' || lane.tier.parent === null) return null;
    const parentLane = this.laneByTier.get(lane.tier.parent);
    if (!parentLane) return null;
    const at = reference.interval[edge];
    const t = seconds(at);
    const sameAsset = (other: Item) => other.wire.reference.kind === 'media' && other.wire.reference.asset_id === reference.asset_id;
    const sibling = this.visible(lane, t, t).find((other) => {
      const theirs = other.wire.reference;
      return other !== item && theirs.kind === 'media' && theirs.asset_id === reference.asset_id && sameTime(theirs.interval[edge === 'end' ? 'start' : 'end'], at);
    });
    if (!sibling) return null;
    return this.visible(parentLane, t, t).some((parent) => sameAsset(parent) && parent.start < t && t < parent.end) ? sibling : null;
  }

  laneOf(item: Item): Lane | undefined {
    return this.laneByTier.get(item.wire.tier);
  }

  laneNamed(tier: string): Lane | undefined {
    return this.laneByTier.get(tier);
  }

  /** The shortest block of the lane holding `t` (start <= t < end), if any. */
  holding(lane: Lane, t: number): Item | null {
    const found = this.visible(lane, t, t).filter((item) => item.start <= t && t < item.end);
    return found.length === 0 ? null : found.reduce((best, item) => (item.end - item.start < best.end - best.start ? item : best));
  }
}

import type { RationalTime } from '../../time/rational-time.js';
import { NESTED_ITEM_KEY, LAYER_KEY, LONE_ITEM_LAYER } from './otio-model.js';
import type { Collected, TierContent, Timed } from './write-collect.js';

/** How one tier is written: its lanes (a track cannot hold overlapping items) and where it goes. */
export interface TrackPlan {
  readonly content: TierContent;
  /** Lane 0 is the tier's own track; the others hold what overlaps it. */
  readonly lanes: Timed[][];
  /** The tier held an item that stood alone in a stack: written back alone when it still is one item. */
  readonly loneItem: boolean;
  /** A nested tier whose item is gone (or loops): written at the top, saying which tier it was. */
  readonly orphan: boolean;
}

export interface Plan {
  readonly collected: Collected;
  /** The tracks of the timeline's stack, in the store's order of tiers. */
  readonly top: TrackPlan[];
  /** The tiers each nested stack or track holds, by the item's annotation id, in the store's order. */
  readonly inside: Map<string, TrackPlan[]>;
}

/**
 * The writer's second pass: where each tier goes. A tier read from inside a nested stack or track
 * goes back inside that item's annotation (NESTED_ITEM_KEY), a nested track holding one tier; a
 * tier whose item is gone, or whose chain of items loops, goes to the top. Every other tier is a
 * track of the timeline's stack.
 */
export function allocate(collected: Collected): Plan {
  const plans = new Map(collected.tiers.map((content) => [content.name, planOf(content)]));
  const plan: Plan = { collected, top: [], inside: new Map() };
  for (const [name, tierPlan] of plans) {
    const itemId = reachableItem(collected, plans, name);
    const layers = itemId === null ? [] : (plan.inside.get(itemId) ?? []);
    // A nested track is one track: a second tier naming it goes to the top.
    const full = itemId !== null && layers.length > 0 && isTrackItem(collected.nestedItems.get(itemId)?.item);
    if (itemId === null || full) {
      plan.top.push(isNested(tierPlan.content) ? { ...tierPlan, orphan: true } : tierPlan);
      continue;
    }
    layers.push(tierPlan);
    plan.inside.set(itemId, layers);
  }
  return plan;
}

function planOf(content: TierContent): TrackPlan {
  return { content, lanes: intoLanes(content.items), loneItem: content.tier?.metadata[LAYER_KEY] === LONE_ITEM_LAYER, orphan: false };
}

/** The nested item a tier goes into, when it exists and its chain of holders reaches the top. */
function reachableItem(collected: Collected, plans: ReadonlyMap<string, TrackPlan>, name: string): string | null {
  const first = itemIdOf(plans.get(name)?.content);
  const seen = new Set<string>([name]);
  let itemId = first;
  while (itemId !== null) {
    const holder = collected.nestedItems.get(itemId);
    if (holder === undefined) return null;
    if (seen.has(holder.tier)) return null;
    seen.add(holder.tier);
    itemId = itemIdOf(plans.get(holder.tier)?.content);
  }
  return first;
}

function itemIdOf(content: TierContent | undefined): string | null {
  const id = content?.tier?.metadata[NESTED_ITEM_KEY];
  return typeof id === 'string' ? id : null;
}

function isNested(content: TierContent): boolean {
  return typeof content.tier?.metadata.nested_in === 'string';
}

function isTrackItem(item: Timed | undefined): boolean {
  return item !== undefined && typeof item.body.otio_schema === 'string' && /^(Track|Sequence)\./.test(item.body.otio_schema);
}

/** Greedy lanes: each item goes to the first lane whose last item ends by its start. */
export function intoLanes(items: readonly Timed[]): Timed[][] {
  const sorted = [...items].sort((a, b) => a.reference.interval.start.compare(b.reference.interval.start) || a.reference.interval.end.compare(b.reference.interval.end));
  const lanes: Timed[][] = [];
  const ends: RationalTime[] = [];
  for (const item of sorted) {
    const index = ends.findIndex((end) => end.le(item.reference.interval.start));
    if (index === -1) {
      lanes.push([item]);
      ends.push(item.reference.interval.end);
    } else {
      lanes[index].push(item);
      ends[index] = item.reference.interval.end;
    }
  }
  if (lanes.length === 0) lanes.push([]);
  return lanes;
}

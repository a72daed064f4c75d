// Moving the selection from the keyboard, as in ELAN: along a lane, to the lane above or below, to a lane's ends.
// Every step is a binary search in the lane's sorted items, so it costs the same with 100,000 annotations.
import type { Item, Lane, TimelineModel } from './model.js';

export type Move = 'previous' | 'next' | 'up' | 'down' | 'first' | 'last';

/** The block a move leads to from `from` (null: none there, the selection stays). */
export function moveFrom(model: TimelineModel, from: Item, move: Move): Item | null {
  const lane = model.laneOf(from);
  if (!lane) return null;
  const items = model.sorted(lane);
  switch (move) {
    case 'previous':
    case 'next': {
      const at = model.indexIn(lane, from) + (move === 'next' ? 1 : -1);
      return items[at] ?? null;
    }
    case 'first':
      return items[0] ?? null;
    case 'last':
      return items[items.length - 1] ?? null;
    case 'up':
    case 'down': {
      const target = laneWithItems(model, lane, move === 'down' ? 1 : -1);
      return target ? nearestIn(model, target, (from.start + from.end) / 2) : null;
    }
  }
}

/** The nearest lane above (-1) or below (+1) that has any block; empty lanes are skipped. */
function laneWithItems(model: TimelineModel, lane: Lane, direction: 1 | -1): Lane | null {
  for (let index = model.lanes.indexOf(lane) + direction; index >= 0 && index < model.lanes.length; index += direction) {
    if (model.lanes[index].items.length > 0) return model.lanes[index];
  }
  return null;
}

/**
 * The block of a lane at a time: the shortest one holding it, else the one whose nearer edge is
 * closest. Only the blocks around the time are looked at (those that may hold it, and one on each side).
 */
export function nearestIn(model: TimelineModel, lane: Lane, at: number): Item | null {
  const items = model.sorted(lane);
  if (items.length === 0) return null;
  const holding = model.visible(lane, at, at).filter((item) => item.start <= at && at <= item.end);
  if (holding.length > 0) return holding.reduce((best, item) => (item.end - item.start < best.end - best.start ? item : best));
  const after = model.firstStartingAt(lane, at);
  const candidates = [items[after - 1], items[after]].filter((item): item is Item => item !== undefined);
  const distance = (item: Item) => Math.min(Math.abs(item.start - at), Math.abs(item.end - at));
  return candidates.reduce((best, item) => (distance(item) < distance(best) ? item : best));
}

/** Where the keyboard starts when nothing is selected: the first block in view, lane by lane, else the first block at all. */
export function entryBlock(model: TimelineModel, viewStart: number, viewEnd: number): Item | null {
  for (const lane of model.lanes) {
    const items = model.sorted(lane);
    const after = model.firstStartingAt(lane, viewStart);
    if (items[after - 1] && items[after - 1].end >= viewStart) return items[after - 1];
    if (items[after] && items[after].start <= viewEnd) return items[after];
  }
  for (const lane of model.lanes) if (lane.items.length > 0) return model.sorted(lane)[0];
  return null;
}

import { annotationToWire, tierToWire, type AnnotationWire, type TierWire } from '../model/wire.js';
import { MemoryStore } from './memory.js';
import { applyMutation } from '../oplog/apply-mutation.js';
import { ClockOutOfRangeError } from '../oplog/errors.js';
import { mutationOf } from '../oplog/op-log-entry.js';
import type { OpLoggedStore } from '../oplog/op-logged-store.js';

/** A store's state at a clock, in wire form (what `state_at` answers). */
export interface StateSnapshot {
  /** The clock it is the state at. */
  readonly at_clock: number;
  /** The tiers then. */
  readonly tiers: TierWire[];
  /** The annotations then. */
  readonly annotations: AnnotationWire[];
}

/**
 * Replays the log up to `clock` (inclusive) into a fresh memory store: the state as it was right
 * after that mutation. Clock 0 is the empty state; a clock beyond the latest is an error rather
 * than a silent "now", so a typo is not mistaken for the present.
 */
export async function replayInto(store: OpLoggedStore, clock: number): Promise<MemoryStore> {
  if (!Number.isSafeInteger(clock) || clock < 0) throw new ClockOutOfRangeError(`clock must be a whole number >= 0, got ${clock}`);
  const latest = await store.latestClock();
  if (clock > latest) throw new ClockOutOfRangeError(`clock ${clock} is beyond the latest clock ${latest}`);
  const replayed = new MemoryStore();
  const pageSize = 10000;
  let from = 1;
  while (from <= clock) {
    const until = Math.min(clock, from + pageSize - 1);
    for (const entry of await store.readOpLog({ fromClock: from, untilClock: until })) {
      await applyMutation(replayed, mutationOf(entry));
    }
    from = until + 1;
  }
  return replayed;
}

/** The state of an op-logged store as it was at a clock: its op-log replayed up to it into a memory store. */
export async function stateAt(store: OpLoggedStore, clock: number): Promise<StateSnapshot> {
  const replayed = await replayInto(store, clock);
  const annotations: AnnotationWire[] = [];
  for await (const annotation of replayed.all()) annotations.push(annotationToWire(annotation));
  return { at_clock: clock, tiers: (await replayed.listTiers()).map(tierToWire), annotations };
}

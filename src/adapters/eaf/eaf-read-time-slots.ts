import type { EafReadState } from './eaf-read-state.js';

/**
 * The second pass: the TIME_ORDER. The scan already made its slots columns (ids, milliseconds,
 * NaN for an unaligned slot) and checked each one; this throws the first broken slot, then
 * resolves the slots of annotations the file gave before its TIME_ORDER (a slot they name that
 * no TIME_SLOT defines is kept as the annotations' error, thrown by the tiers pass in file order).
 * Times for unaligned slots are given later, tier by tier (see the alignable pass).
 */
export function readTimeSlots(state: EafReadState): void {
  state.failWith(state.bulk.slotError);
  state.bulk.finish();
}

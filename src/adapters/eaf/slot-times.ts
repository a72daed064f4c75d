/** A time slot as the interpolation sees it: its place in the TIME_ORDER and its time, if aligned. */
export interface SlotPosition {
  readonly index: number;
  /** Milliseconds, or null for an unaligned slot. */
  readonly value: number | null;
}

/**
 * Times for the unaligned slots one tier uses, as ELAN displays them: spread evenly between the
 * nearest aligned slots of the same tier (a subdivided parent's boundaries), falling back to the
 * nearest aligned slots of the whole TIME_ORDER, then to 0 before the first one and to the last
 * one after it. Whole milliseconds, rounded down. `known` holds the times earlier tiers gave
 * unaligned slots: a slot two tiers share (a parent's and its subdivision's edge) has one time,
 * the parent's, so the child stays inside it. The reader gives unaligned slots these times;
 * the writer checks that the slots it writes unaligned get their times back from them.
 */
export function resolveSlotTimes<S extends SlotPosition>(pairs: ReadonlyArray<readonly [S, S]>, all: readonly SlotPosition[], known: ReadonlyMap<SlotPosition, number> = new Map()): Map<S, number> {
  const times = new Map<S, number>();
  const valueOf = (slot: SlotPosition): number | null => slot.value ?? known.get(slot) ?? null;
  if (!pairs.some(([slot1, slot2]) => valueOf(slot1) === null || valueOf(slot2) === null)) return times;
  const used = new Set<S>();
  for (const [slot1, slot2] of pairs) {
    used.add(slot1);
    used.add(slot2);
  }
  const sequence = [...used].sort((a, b) => a.index - b.index);
  const globalBefore = (slot: S): number | null => {
    for (let index = slot.index - 1; index >= 0; index--) if (valueOf(all[index]) !== null) return valueOf(all[index]);
    return null;
  };
  const globalAfter = (slot: S): number | null => {
    for (let index = slot.index + 1; index < all.length; index++) if (valueOf(all[index]) !== null) return valueOf(all[index]);
    return null;
  };
  for (let index = 0; index < sequence.length; index++) {
    if (valueOf(sequence[index]) !== null) continue;
    let end = index;
    while (end + 1 < sequence.length && valueOf(sequence[end + 1]) === null) end++;
    const before = index > 0 ? (valueOf(sequence[index - 1]) as number) : (globalBefore(sequence[index]) ?? 0);
    const after = end + 1 < sequence.length ? (valueOf(sequence[end + 1]) as number) : (globalAfter(sequence[end]) ?? before);
    const count = end - index + 1;
    const span = Math.max(0, after - before);
    for (let k = 1; k <= count; k++) times.set(sequence[index + k - 1], before + Math.floor((span * k) / (count + 1)));
    index = end;
  }
  return times;
}

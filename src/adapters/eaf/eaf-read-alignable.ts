import type { Annotation } from '../../model/annotation.js';
import type { Tier } from '../../model/tier.js';
import { ImportClock } from '../import-clock.js';
import { importProvenance } from '../import-provenance.js';
import { EafAnnotationBuilder, type TierGifts } from './eaf-annotation-builder.js';
import { ALIGNABLE } from './eaf-bulk.js';
import type { EafReadState } from './eaf-read-state.js';
import { resolveSlotTimes, type SlotPosition } from './slot-times.js';

/**
 * The fourth pass: the time-aligned annotations, tier by tier, parents first. Unaligned slots
 * get the time ELAN shows for them (see resolveSlotTimes); an annotation whose aligned end is
 * before its start is an error. The annotations of related tiers (in a parent-child relation or
 * referred to: references need their targets' ids, the constraint check needs them all) and the
 * first of every other tier (which checks what the tier gives all of them) are built now; the
 * times of the others are checked with a probe clock, and they are built as they are consumed.
 */
export function readAlignableAnnotations(state: EafReadState): void {
  relatedTiers(state);
  state.builder = new EafAnnotationBuilder(state.records, state.slots, state.interpolated, state.asset, state.rate);
  // A clock of its own for annotations built later, so the import's clock counts each rounding
  // once, when the annotation is built.
  const probe = new ImportClock(state.rate, state.options.strictTime);
  const positions: { all: SlotPosition[] | null } = { all: null };
  const tierIndexOf = new Map(state.tiers.map((tier, index) => [tier.name, index]));
  for (const tier of state.ordered) {
    const index = tierIndexOf.get(tier.name) as number;
    interpolateUnalignedSlots(state, index, positions);
    for (let record = state.bulk.tierStart[index]; record < state.bulk.tierEnd[index]; record++) {
      if (state.records.kind[record] !== ALIGNABLE) continue;
      checkEndNotBeforeStart(state, record);
      buildOrProbe(state, tier, record, probe);
    }
  }
}

/** Tiers with a parent, their parents, and the tiers references point into. */
function relatedTiers(state: EafReadState): void {
  for (const tier of state.tiers) {
    if (tier.parent === null) continue;
    state.related.add(tier.name);
    state.related.add(tier.parent);
  }
  for (const index of state.referredTiers) state.related.add(state.tiers[index].name);
}

/** Times for a tier's unaligned slots, given after its parents' (a shared slot keeps the parent's time). */
function interpolateUnalignedSlots(state: EafReadState, tierIndex: number, positions: { all: SlotPosition[] | null }): void {
  const { records, slots } = state;
  const first = state.bulk.tierStart[tierIndex];
  const end = state.bulk.tierEnd[tierIndex];
  let unaligned = false;
  for (let record = first; record < end && !unaligned; record++) {
    if (records.kind[record] === ALIGNABLE && (Number.isNaN(slots.values[records.slot1[record]]) || Number.isNaN(slots.values[records.slot2[record]]))) unaligned = true;
  }
  if (!unaligned) return;
  // Slots as positions only for a file that has unaligned ones, and only once.
  const all = (positions.all ??= Array.from({ length: slots.count }, (_, index) => ({ index, value: Number.isNaN(slots.values[index]) ? null : slots.values[index] })));
  const known = new Map<SlotPosition, number>();
  for (const [index, ms] of state.interpolated) known.set(all[index], ms);
  const pairs: Array<readonly [SlotPosition, SlotPosition]> = [];
  for (let record = first; record < end; record++) if (records.kind[record] === ALIGNABLE) pairs.push([all[records.slot1[record]], all[records.slot2[record]]]);
  for (const [slot, ms] of resolveSlotTimes(pairs, all, known)) state.interpolated.set(slot.index, ms);
}

/** An end before the start is an error when both slots are aligned; interpolation may do it to unsorted slots, and the end then moves to the start. */
function checkEndNotBeforeStart(state: EafReadState, record: number): void {
  const builder = state.builder as EafAnnotationBuilder;
  if (builder.rawEndMs(record) >= builder.startMs(record)) return;
  const { records, slots } = state;
  const slot1 = records.slot1[record];
  const slot2 = records.slot2[record];
  if (Number.isNaN(slots.values[slot1]) || Number.isNaN(slots.values[slot2])) return;
  state.failAt(records.offset[record], state.recordPath(record), `an end (TIME_SLOT_REF2 "${slots.ids[slot2]}" = ${slots.values[slot2]} ms) not before the start (TIME_SLOT_REF1 "${slots.ids[slot1]}" = ${slots.values[slot1]} ms)`);
}

function buildOrProbe(state: EafReadState, tier: Tier, record: number, probe: ImportClock): void {
  const builder = state.builder as EafAnnotationBuilder;
  if (state.related.has(tier.name) || !state.builtFirst.has(tier.name)) {
    state.builtFirst.add(tier.name);
    let annotation: Annotation;
    try {
      annotation = builder.alignable(record, tier.name, giftsFor(state, tier), state.clock);
    } catch (error) {
      throw state.refusalOf(error, record);
    }
    state.prebuilt.set(record, annotation);
    state.recordOfUuid.set(annotation.id, record);
  } else {
    builder.interval(record, probe);
  }
}

/**
 * What a tier gives each of its annotations: ELAN's PARTICIPANT says who speaks on a tier, so
 * each annotation carries it as body.speaker; its ANNOTATOR goes to the provenance.
 */
export function giftsFor(state: EafReadState, tier: Tier): TierGifts {
  let gifts = state.giftsOf.get(tier.name);
  if (gifts) return gifts;
  const { participant, annotator } = tier.metadata;
  gifts = {
    speaker: typeof participant === 'string' && participant.trim() !== '' ? participant : undefined,
    provenance: importProvenance('eaf', state.options, typeof annotator === 'string' ? annotator : undefined),
  };
  state.giftsOf.set(tier.name, gifts);
  return gifts;
}

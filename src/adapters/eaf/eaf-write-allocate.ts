import type { Annotation } from '../../model/annotation.js';
import type { JsonValue } from '../../json/json-body.js';
import type { Tier } from '../../model/tier.js';
import type { RationalTime } from '../../time/rational-time.js';
import type { TimeInterval } from '../../time/time-interval.js';
import { UnrepresentableError } from '../errors.js';
import { bodyText } from '../flat-cues.js';
import { parentsFirst } from '../load-into-store.js';
import { CONSTRAINT_OF_STEREOTYPE, type PlainElement } from './eaf-model.js';
import { SYMBOLIC, type EafWriteState, type SlotOut, type WrittenAnnotation } from './eaf-write-state.js';
import { resolveSlotTimes, type SlotPosition } from './slot-times.js';
import { splitBySpeaker } from './speaker-tiers.js';

/**
 * The second pass: everything the document names, decided before a byte is written. Tiers split
 * by speaker (see splitBySpeaker); an ELAN id per annotation; per tier, the annotations it writes
 * with their slots or targets; the time slots in TIME_ORDER order, unaligned ones only where
 * their neighbours give their time back; the main media; a linguistic type per tier.
 */
export function allocate(state: EafWriteState): void {
  splitBySpeaker(state.tiers, state.tierByName, state.byTier);
  allocateIds(state);
  const subMillisecond = { count: 0 };
  for (const tier of state.tiers) state.written.set(tier.name, writtenAnnotations(state, tier, subMillisecond));
  if (subMillisecond.count > 0) state.drop('sub-millisecond times (rounded to the nearest millisecond)', subMillisecond.count);
  chooseMainAsset(state);
  const savedTypes = new Map((state.parts?.elements ?? []).filter((element) => element.name === 'LINGUISTIC_TYPE').map((element) => [element.attributes.LINGUISTIC_TYPE_ID, element]));
  for (const tier of state.tiers) state.typeOf.set(tier.name, linguisticTypeFor(tier, savedTypes, state.generatedTypes));
  orderSlots(state);
}

/** ELAN ids: the body's annotation_id when it is free, else a fresh a<n> past every a<n> reserved. */
function allocateIds(state: EafWriteState): void {
  for (const id of state.reservedIds) {
    const number = /^a(\d+)$/.exec(id);
    if (number) state.lastNumber = Math.max(state.lastNumber, Number(number[1]));
  }
  for (const list of state.byTier.values()) {
    for (const annotation of list) {
      const wanted = annotation.body.annotation_id;
      let eafId: string;
      if (typeof wanted === 'string' && wanted !== '' && !state.takenIds.has(wanted)) eafId = wanted;
      else {
        do eafId = `a${++state.lastNumber}`;
        while (state.reservedIds.has(eafId) || state.takenIds.has(eafId));
      }
      state.takenIds.add(eafId);
      state.eafIdOf.set(annotation.id, eafId);
    }
  }
}

/** What one tier writes: REF_ANNOTATIONs on a symbolic tier, ALIGNABLE_ANNOTATIONs (with their slots) on any other. */
function writtenAnnotations(state: EafWriteState, tier: Tier, subMillisecond: { count: number }): WrittenAnnotation[] {
  const out: WrittenAnnotation[] = [];
  const symbolic = SYMBOLIC.has(tier.stereotype);
  const lastChildOf = new Map<string, string>();
  for (const annotation of state.byTier.get(tier.name) ?? []) {
    const eafId = state.eafIdOf.get(annotation.id) as string;
    if (!symbolic) {
      const item = alignable(state, annotation, eafId, subMillisecond);
      if (item !== null) out.push(item);
      continue;
    }
    if (annotation.reference.kind !== 'annotation') {
      state.drop('time-aligned annotations on symbolic tiers');
      continue;
    }
    const target = state.eafIdOf.get(annotation.reference.target_id);
    if (target === undefined) {
      state.drop('references to annotations not in the store');
      continue;
    }
    const previous = tier.stereotype === 'SYMBOLIC_SUBDIVISION' ? lastChildOf.get(target) : undefined;
    lastChildOf.set(target, eafId);
    out.push({ annotation, eafId, ref: target, previous });
  }
  return out;
}

/** A time-aligned annotation and its two slots: the ones its body names when they still fit, else fresh ones. */
function alignable(state: EafWriteState, annotation: Annotation, eafId: string, subMillisecond: { count: number }): WrittenAnnotation | null {
  const interval = intervalOf(state, annotation);
  if (interval === null) {
    state.drop('references to annotations not in the store');
    return null;
  }
  if (annotation.reference.kind === 'annotation') state.drop("symbolic annotations on time-aligned tiers (written with their target's time)");
  else state.assets.set(annotation.reference.asset_id, (state.assets.get(annotation.reference.asset_id) ?? 0) + 1);
  const startMs = toMs(interval.start, subMillisecond);
  const endMs = toMs(interval.end, subMillisecond);
  if (startMs < 0 || endMs > EAF_LAST_MS) {
    throw new UnrepresentableError(
      `eaf: the annotation ${annotation.id}${describedBy(annotation)} of tier ${JSON.stringify(annotation.tier)} runs from ${interval.start.toSecondsString()} s to ${interval.end.toSecondsString()} s; EAF's times are whole milliseconds from 0 to ${EAF_LAST_MS / 1000} s (49.7 days), so it cannot hold it`,
    );
  }
  const { unaligned } = annotation.body;
  const isUnaligned = (side: 'start' | 'end', ms: number): boolean =>
    typeof unaligned === 'object' && unaligned !== null && !Array.isArray(unaligned) && (unaligned as Record<string, JsonValue>)[side] === ms;
  const names = Array.isArray(annotation.body.time_slots) ? annotation.body.time_slots : [];
  const slot1 = slotFor(state, names[0], startMs, !isUnaligned('start', startMs));
  const slot2 = slotFor(state, names[1], endMs, !isUnaligned('end', endMs));
  return { annotation, eafId, slot1, slot2 };
}

/** The time of an annotation, or of the annotation it refers to (null when the chain leaves the store or loops). */
function intervalOf(state: EafWriteState, annotation: Annotation, seen = new Set<string>()): TimeInterval | null {
  if (annotation.reference.kind === 'media') return annotation.reference.interval;
  if (seen.has(annotation.id)) return null;
  seen.add(annotation.id);
  const target = state.byId.get(annotation.reference.target_id);
  return target ? intervalOf(state, target, seen) : null;
}

/** ` ("its text")`, the first words of an annotation's text, for a message; nothing when it has none. */
function describedBy(annotation: Annotation): string {
  const text = bodyText(annotation.body);
  if (text === null || text.trim() === '') return '';
  const words = text.trim().replace(/\s+/g, ' ');
  return ` (${JSON.stringify(words.length > 40 ? `${words.slice(0, 40)}...` : words)})`;
}

/** EAF's TIME_VALUE is an xsd:unsignedInt of milliseconds. */
const EAF_LAST_MS = 4_294_967_295;

function toMs(time: RationalTime, subMillisecond: { count: number }): number {
  const scaled = time.v * 1000;
  if (Number.isSafeInteger(scaled) && scaled % time.r === 0) return scaled / time.r;
  subMillisecond.count++;
  return Math.round((time.v / time.r) * 1000);
}

/** The slot a body names, when it is new or says the same time; else a fresh ts<n>. Shared slots stay shared. */
function slotFor(state: EafWriteState, wanted: JsonValue | undefined, ms: number, aligned: boolean): string {
  const { slots } = state;
  if (typeof wanted === 'string' && wanted !== '') {
    const existing = slots.get(wanted);
    if (existing === undefined) {
      slots.set(wanted, { name: wanted, ms, aligned, order: slots.size });
      return wanted;
    }
    if (existing.ms === ms && existing.aligned === aligned) return wanted;
  }
  let name: string;
  do name = `ts${++state.freshSlot}`;
  while (state.reservedSlots.has(name) || slots.has(name));
  slots.set(name, { name, ms, aligned, order: slots.size });
  return name;
}

/** The media: the most used asset (the header kept from the import names it, if there is one). */
function chooseMainAsset(state: EafWriteState): void {
  const counts = [...state.assets.entries()];
  state.mainAsset = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (state.mainAsset === undefined) return;
  const others = counts.filter(([asset]) => asset !== state.mainAsset).reduce((sum, [, count]) => sum + count, 0);
  if (others > 0) state.drop('asset ids other than the main media (EAF has one timeline)', others);
}

/**
 * The linguistic type a tier is written with: the one it came with when that one still says the
 * tier's constraint (or the import had to relax the tier), else one generated per stereotype and
 * controlled vocabulary.
 */
export function linguisticTypeFor(tier: Tier, saved: ReadonlyMap<string, PlainElement>, generated: PlainElement[]): string {
  const constraint = CONSTRAINT_OF_STEREOTYPE[tier.stereotype];
  const wanted = typeof tier.metadata.linguistic_type === 'string' ? tier.metadata.linguistic_type : undefined;
  const vocabulary = typeof tier.metadata.controlled_vocabulary === 'string' ? tier.metadata.controlled_vocabulary : undefined;
  if (wanted !== undefined) {
    const type = saved.get(wanted);
    if (type && ((type.attributes.CONSTRAINTS ?? null) === constraint || tier.metadata.stereotype_coerced === true)) return wanted;
  }
  const matches = (element: PlainElement): boolean => (element.attributes.CONSTRAINTS ?? null) === constraint && element.attributes.CONTROLLED_VOCABULARY_REF === vocabulary;
  const existing = generated.find(matches);
  if (existing) return existing.attributes.LINGUISTIC_TYPE_ID;
  const taken = (id: string): boolean => saved.has(id) || generated.some((element) => element.attributes.LINGUISTIC_TYPE_ID === id);
  const base = wanted !== undefined && !taken(wanted) ? wanted : `lt_${tier.stereotype.toLowerCase()}${vocabulary ? `_${vocabulary}` : ''}`;
  let id = base;
  for (let n = 2; taken(id); n++) id = `${base}_${n}`;
  const attributes: Record<string, string> = {};
  if (constraint) attributes.CONSTRAINTS = constraint;
  if (vocabulary) attributes.CONTROLLED_VOCABULARY_REF = vocabulary;
  attributes.GRAPHIC_REFERENCES = 'false';
  attributes.LINGUISTIC_TYPE_ID = id;
  attributes.TIME_ALIGNABLE = SYMBOLIC.has(tier.stereotype) ? 'false' : 'true';
  generated.push({ name: 'LINGUISTIC_TYPE', attributes });
  return id;
}

/** The slots by time (fresh ones by number, others as made), and unaligned only where interpolation gives their time back. */
function orderSlots(state: EafWriteState): void {
  state.orderedSlots = [...state.slots.values()].sort((a, b) => a.ms - b.ms || slotNumber(a) - slotNumber(b) || a.order - b.order);
  const inReadOrder = parentsFirst(state.tiers).map((tier) => state.written.get(tier.name) ?? []);
  const realigned = alignWhereInterpolationDiffers(state.orderedSlots, state.slots, inReadOrder);
  if (realigned > 0) state.drop('unaligned time slots whose time the neighbouring slots no longer give (written aligned)', realigned);
}

function slotNumber(slot: SlotOut): number {
  const number = /^ts(\d+)$/.exec(slot.name);
  return number ? Number(number[1]) : Number.MAX_SAFE_INTEGER;
}

/**
 * An unaligned slot is read back at the time interpolated from its neighbours in the TIME_ORDER
 * (see resolveSlotTimes); one whose own time that would not give (an edit, or a damaged file whose
 * slots were out of order) is written aligned instead. Aligning one slot changes what its unaligned
 * neighbours get, so this repeats until nothing changes. Returns how many were aligned.
 */
export function alignWhereInterpolationDiffers(ordered: readonly SlotOut[], slots: ReadonlyMap<string, SlotOut>, tiersInReadOrder: ReadonlyArray<ReadonlyArray<{ slot1?: string; slot2?: string }>>): number {
  let aligned = 0;
  const indexOf = new Map(ordered.map((slot, index) => [slot, index]));
  while (ordered.some((slot) => !slot.aligned)) {
    const all = ordered.map((slot, index) => ({ index, value: slot.aligned ? slot.ms : null }));
    const positionOf = (name: string | undefined): SlotPosition => all[indexOf.get(slots.get(name as string) as SlotOut) as number];
    let changed = false;
    const known = new Map<SlotPosition, number>();
    for (const list of tiersInReadOrder) {
      const pairs = list.filter((item) => item.slot1 !== undefined).map((item) => [positionOf(item.slot1), positionOf(item.slot2)] as const);
      for (const [position, ms] of resolveSlotTimes(pairs, all, known)) {
        known.set(position, ms);
        const slot = ordered[position.index];
        if (!slot.aligned && slot.ms !== ms) {
          slot.aligned = true;
          aligned++;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return aligned;
}


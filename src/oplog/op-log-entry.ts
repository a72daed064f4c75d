import { annotationFromWire, annotationToWire, tierFromWire, tierToWire } from '../model/wire.js';
import type { JsonObject } from '../json/json-body.js';
import type { RationalTime, RationalTimeWire } from '../time/rational-time.js';
import type { Mutation, MutationKind } from './mutation.js';

/**
 * One entry of the op-log: the Lamport clock the mutation got, what it was, on what, with a
 * payload that replays it, who made it and when the service received it.
 */
export interface OpLogEntry {
  /** The Lamport clock the mutation got, unique in the store's op-log. */
  readonly clock: number;
  /** What the mutation was. */
  readonly kind: MutationKind;
  /** The annotation or tier it was on, or null (set_meta). */
  readonly target_id: string | null;
  /** What replays it: the mutation in wire form. */
  readonly payload: JsonObject;
  /** Who made it. */
  readonly actor: string;
  /** Wall-clock time of receipt, `{v, r}` at rate 1000 (a time, so never a float). */
  readonly received_at: RationalTimeWire;
}

/** Who made a batch of mutations and when it was received: the same for every entry of the batch. */
export interface MutationContext {
  /** Who made the batch. */
  readonly actor: string;
  /** When the service received it. */
  readonly receivedAt: RationalTime;
}

/** The entry a mutation appends, without its clock (the store assigns it inside the transaction). */
export function entryFor(mutation: Mutation, context: MutationContext): Omit<OpLogEntry, 'clock'> {
  const common = { actor: context.actor, received_at: context.receivedAt.toWire() };
  switch (mutation.kind) {
    case 'add_tier':
      return {
        ...common,
        kind: mutation.kind,
        target_id: mutation.tier.name,
        payload: { tier: tierToWire(mutation.tier) as unknown as JsonObject, enforce_no_overlap: mutation.enforceNoOverlap ?? false },
      };
    case 'add_annotation':
    case 'update_annotation':
      return { ...common, kind: mutation.kind, target_id: mutation.annotation.id, payload: { annotation: annotationToWire(mutation.annotation) as unknown as JsonObject } };
    case 'delete_annotation':
      return { ...common, kind: mutation.kind, target_id: mutation.id, payload: {} };
    case 'set_meta':
      return { ...common, kind: mutation.kind, target_id: mutation.key, payload: { value: mutation.value } };
  }
}

/** The mutation an entry replays (the inverse of entryFor, preconditions dropped: they held when logged). */
export function mutationOf(entry: Pick<OpLogEntry, 'kind' | 'target_id' | 'payload'>): Mutation {
  const payload = entry.payload as Record<string, unknown>;
  switch (entry.kind) {
    case 'add_tier':
      return { kind: 'add_tier', tier: tierFromWire(payload.tier), enforceNoOverlap: payload.enforce_no_overlap === true };
    case 'add_annotation':
      return { kind: 'add_annotation', annotation: annotationFromWire(payload.annotation) };
    case 'update_annotation':
      return { kind: 'update_annotation', annotation: annotationFromWire(payload.annotation) };
    case 'delete_annotation':
      return { kind: 'delete_annotation', id: String(entry.target_id) };
    case 'set_meta':
      return { kind: 'set_meta', key: String(entry.target_id), value: String(payload.value) };
  }
}

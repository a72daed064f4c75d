import type { Annotation } from '../../model/annotation.js';
import type { Tier, TierStereotype } from '../../model/tier.js';
import type { DocumentParts, PlainElement } from './eaf-model.js';

export const SYMBOLIC = new Set<TierStereotype>(['SYMBOLIC_SUBDIVISION', 'SYMBOLIC_ASSOCIATION']);

/** A TIME_SLOT to write: its id, its time, whether it is written with TIME_VALUE, and when it was made. */
export interface SlotOut {
  name: string;
  ms: number;
  aligned: boolean;
  order: number;
}

/** One ANNOTATION to write: an ALIGNABLE_ANNOTATION (its slots) or a REF_ANNOTATION (its target and predecessor). */
export interface WrittenAnnotation {
  readonly annotation: Annotation;
  readonly eafId: string;
  readonly slot1?: string;
  readonly slot2?: string;
  readonly ref?: string;
  readonly previous?: string;
}

/**
 * What the passes of writeEaf share: collect (the store's tiers, annotations and kept document
 * parts) → allocate (ELAN ids, time slots, linguistic types, what each tier writes) → emit (the
 * document, streamed). Each field says which pass fills it; `dropped` counts what EAF cannot keep.
 */
export class EafWriteState {
  readonly dropped = new Map<string, number>();

  // collect
  tiers: Tier[] = [];
  readonly tierByName = new Map<string, Tier>();
  readonly byTier = new Map<string, Annotation[]>();
  readonly byId = new Map<string, Annotation>();
  /** The document parts the import kept, or null for a store that did not come from EAF. */
  parts: DocumentParts | null = null;
  /** ELAN ids and slot names the bodies ask for: fresh ones never take them. */
  readonly reservedIds = new Set<string>();
  readonly reservedSlots = new Set<string>();

  // allocate
  readonly eafIdOf = new Map<string, string>();
  readonly takenIds = new Set<string>();
  /** The highest a<n> id reserved or generated. */
  lastNumber = 0;
  readonly slots = new Map<string, SlotOut>();
  freshSlot = 0;
  /** The slots in TIME_ORDER order. */
  orderedSlots: SlotOut[] = [];
  readonly written = new Map<string, WrittenAnnotation[]>();
  readonly assets = new Map<string, number>();
  mainAsset: string | undefined = undefined;
  readonly typeOf = new Map<string, string>();
  readonly generatedTypes: PlainElement[] = [];

  drop(what: string, count = 1): void {
    this.dropped.set(what, (this.dropped.get(what) ?? 0) + count);
  }
}

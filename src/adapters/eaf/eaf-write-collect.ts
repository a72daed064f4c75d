import type { Annotation } from '../../model/annotation.js';
import type { Tier } from '../../model/tier.js';
import type { AnnotationStore } from '../../store/store.js';
import { bodyTextKey } from '../flat-cues.js';
import { ANNOTATION_ATTRIBUTE_KEYS, EAF_DOCUMENT_META, type DocumentParts } from './eaf-model.js';
import type { EafWriteState } from './eaf-write-state.js';
import { asEaf30 } from './eaf-write-version.js';

/** Body keys the EAF format keeps; any other body field is reported as dropped. */
const KEPT_BODY_KEYS = new Set(['text', 'speaker', 'annotation_id', 'time_slots', 'unaligned', ...ANNOTATION_ATTRIBUTE_KEYS.map(([, key]) => key)]);

/**
 * The first pass: what the store holds. Its tiers (and, as independent tiers, any tier an
 * annotation names that the store never declared), its annotations by tier and by id, the ELAN
 * ids and slot names their bodies ask for, and the document parts an EAF import kept. Counts
 * what EAF cannot keep of each annotation.
 */
export async function collectStore(state: EafWriteState, store: AnnotationStore): Promise<void> {
  state.tiers = await store.listTiers();
  // What an older EAF kept is written as EAF 3.0, the version the writer writes.
  state.parts = asEaf30(readParts(await store.getMeta(EAF_DOCUMENT_META)));
  for (const tier of state.tiers) {
    state.tierByName.set(tier.name, tier);
    state.byTier.set(tier.name, []);
  }
  let total = 0;
  for await (const annotation of store.all()) {
    total++;
    collectAnnotation(state, annotation);
  }
  if (total > 0) {
    state.drop('provenance', total);
    state.drop('annotation ids (UUIDs; ELAN ANNOTATION_IDs are kept)', total);
  }
  for (const name of state.byTier.keys()) {
    if (state.tierByName.has(name)) continue;
    const tier: Tier = { name, stereotype: 'NONE', parent: null, metadata: {} };
    state.tiers.push(tier);
    state.tierByName.set(name, tier);
  }
}

function collectAnnotation(state: EafWriteState, annotation: Annotation): void {
  state.byId.set(annotation.id, annotation);
  let list = state.byTier.get(annotation.tier);
  if (!list) state.byTier.set(annotation.tier, (list = []));
  list.push(annotation);
  const { body } = annotation;
  if (typeof body.annotation_id === 'string') state.reservedIds.add(body.annotation_id);
  if (Array.isArray(body.time_slots)) for (const slot of body.time_slots) if (typeof slot === 'string') state.reservedSlots.add(slot);
  if (annotation.confidence !== null) state.drop('confidence');
  const textKey = bodyTextKey(body);
  if (Object.keys(body).some((key) => !KEPT_BODY_KEYS.has(key) && key !== textKey)) state.drop('body fields other than the text (text, label or value) and ELAN attributes');
}

function readParts(raw: string | null): DocumentParts | null {
  if (raw === null) return null;
  try {
    const parsed = JSON.parse(raw) as DocumentParts;
    if (typeof parsed === 'object' && parsed !== null && typeof parsed.attributes === 'object' && Array.isArray(parsed.elements)) return parsed;
  } catch {
    // A damaged entry is ignored: the document is written from the tiers alone.
  }
  return null;
}

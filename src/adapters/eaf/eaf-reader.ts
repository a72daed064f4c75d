import type { Annotation } from '../../model/annotation.js';
import type { Tier } from '../../model/tier.js';
import type { LoadOptions } from '../adapter.js';
import type { ImportClock } from '../import-clock.js';
import type { EafAnnotationBuilder, TierGifts } from './eaf-annotation-builder.js';
import type { AnnotationColumns } from './eaf-bulk.js';
import { EAF_DOCUMENT_META } from './eaf-model.js';
import { readAlignableAnnotations } from './eaf-read-alignable.js';
import { reportTierViolations } from './eaf-read-constraints.js';
import { readHeader } from './eaf-read-header.js';
import { readReferences } from './eaf-read-references.js';
import { EafReadState } from './eaf-read-state.js';
import { readTiers } from './eaf-read-tiers.js';
import { readTimeSlots } from './eaf-read-time-slots.js';

export interface ReadEaf {
  tiers: Tier[];
  meta: Record<string, string>;
  /** Built as they are consumed (once), in the order a store needs them: parents first. */
  annotations: Iterable<Annotation>;
  clock: ImportClock;
}

/**
 * Reads an EAF document into tiers, store meta and annotations. Time-aligned annotations become
 * MediaRefs at their slots' milliseconds (exact at rate 1000); REF_ANNOTATIONs become
 * AnnotationRefs to their parent annotation, in PREVIOUS_ANNOTATION order; unaligned slots get the
 * time ELAN shows for them and keep their unalignedness in the body so they are written back
 * unaligned. Everything else in the document is kept verbatim in store meta.
 *
 * It reads in passes over one state, as ELAN's own reader does: header → time slots → tiers →
 * alignable annotations → references, then the tiers' constraints (each pass in its own file).
 *
 * Memory: the scan hands over time slots and annotations one by one (EafBulk), so they are
 * columns, never an element tree. Everything that can fail or be reported (errors, findings,
 * per-record time checks) is done before this returns, while the text is there to give lines
 * and columns; then the annotations are built as they are consumed, from columns that hold no
 * reference to the text, which can go as soon as the caller drops it.
 */
export function readEaf(text: string, options: LoadOptions): ReadEaf {
  const state = new EafReadState(text, options);
  readHeader(state);
  readTimeSlots(state);
  readTiers(state);
  readAlignableAnnotations(state);
  readReferences(state);
  reportTierViolations(state);
  const meta: Record<string, string> = { [EAF_DOCUMENT_META]: JSON.stringify(state.parts) };
  return { tiers: state.ordered, meta, annotations: built(streamPlan(state)), clock: state.clock };
}

/** What the annotations still to build need: the state without the source text. */
interface StreamPlan {
  readonly order: Int32Array;
  readonly prebuilt: Map<number, Annotation>;
  readonly builder: EafAnnotationBuilder;
  readonly records: AnnotationColumns;
  readonly tierNameByIndex: readonly string[];
  readonly giftsOf: ReadonlyMap<string, TierGifts>;
  readonly clock: ImportClock;
}

function streamPlan(state: EafReadState): StreamPlan {
  return {
    order: state.order.subarray(0, state.emittedCount),
    prebuilt: state.prebuilt,
    builder: state.builder as EafAnnotationBuilder,
    records: state.records,
    tierNameByIndex: state.tiers.map((tier) => tier.name),
    // Every tier with an annotation built later had its first built during the read, so its gifts are known.
    giftsOf: state.giftsOf,
    clock: state.clock,
  };
}

/**
 * The annotations in emission order: those built during the read, then each of the others built
 * as it is asked for. A module-level function given only the plan, so that what it keeps alive is
 * what it is given, not the state, which holds the text.
 */
function* built(plan: StreamPlan): Generator<Annotation> {
  const { order, prebuilt, builder, records, tierNameByIndex, giftsOf, clock } = plan;
  for (let index = 0; index < order.length; index++) {
    const record = order[index];
    const ready = prebuilt.get(record);
    if (ready !== undefined) {
      prebuilt.delete(record);
      yield ready;
    } else {
      const tier = tierNameByIndex[records.tier[record]];
      yield builder.alignable(record, tier, giftsOf.get(tier) as TierGifts, clock);
    }
  }
}

import type { Annotation } from '../../model/annotation.js';
import type { Tier } from '../../model/tier.js';
import type { LoadOptions } from '../adapter.js';
import type { SourceLocation } from '../errors.js';
import type { ImportClock } from '../import-clock.js';
import type { EafAnnotationBuilder, TierGifts } from './eaf-annotation-builder.js';
import type { AnnotationColumns } from './eaf-bulk.js';
import { EAF_DOCUMENT_META } from './eaf-model.js';
import { readAlignableAnnotations } from './eaf-read-alignable.js';
import { reportTierViolations } from './eaf-read-constraints.js';
import { readHeader } from './eaf-read-header.js';
import { readReferences } from './eaf-read-references.js';
import { EafReadState, recordPath } from './eaf-read-state.js';
import { readTiers } from './eaf-read-tiers.js';
import { readTimeSlots } from './eaf-read-time-slots.js';
import { lineAndColumn } from './xml-scan.js';

export interface ReadEaf {
  tiers: Tier[];
  meta: Record<string, string>;
  /** Built as they are consumed (once), in the order a store needs them: parents first. */
  annotations: Iterable<Annotation>;
  clock: ImportClock;
  /** The element of the annotation being built or handed over last, and its line (see placeOfRecord). */
  placeOfAnnotation: () => SourceLocation;
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
export function readEaf(text: string, options: LoadOptions, reread?: () => string): ReadEaf {
  const state = new EafReadState(text, options);
  readHeader(state);
  readTimeSlots(state);
  readTiers(state);
  readAlignableAnnotations(state);
  readReferences(state);
  reportTierViolations(state);
  const meta: Record<string, string> = { [EAF_DOCUMENT_META]: JSON.stringify(state.parts) };
  const plan = streamPlan(state);
  return { tiers: state.ordered, meta, annotations: built(plan), clock: state.clock, placeOfAnnotation: () => placeOfRecord(plan, reread) };
}

/**
 * Where a record is, for a refusal of its annotation after the text is gone: its element, and its
 * line when `reread` gives the text again (the file read anew: a refusal is rare, and holding the
 * text, or a line per record, for it would cost every read).
 */
function placeOfRecord(plan: StreamPlan, reread: (() => string) | undefined): SourceLocation {
  const { records, tierStart, at } = plan;
  const path = recordPath(records, tierStart, at.record);
  let text: string | undefined;
  try {
    text = reread?.();
  } catch {
    text = undefined; // the file is gone or changed: its element still says where
  }
  return text === undefined ? { path } : { ...lineAndColumn(text, records.offset[at.record]), path };
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
  readonly tierStart: readonly number[];
  /** The record being built or handed over last. */
  readonly at: { record: number };
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
    tierStart: state.bulk.tierStart,
    at: { record: 0 },
  };
}

/**
 * The annotations in emission order: those built during the read, then each of the others built
 * as it is asked for. A module-level function given only the plan, so that what it keeps alive is
 * what it is given, not the state, which holds the text.
 */
function* built(plan: StreamPlan): Generator<Annotation> {
  const { order, prebuilt, builder, records, tierNameByIndex, giftsOf, clock, at } = plan;
  for (let index = 0; index < order.length; index++) {
    const record = order[index];
    at.record = record;
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

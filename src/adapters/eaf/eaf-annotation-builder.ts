import { annotationRef, makeAnnotation, mediaRef, type Annotation } from '../../model/annotation.js';
import { newAnnotationId } from '../../model/ids.js';
import type { ProvenanceInit } from '../../model/provenance.js';
import { RationalTime } from '../../time/rational-time.js';
import { TimeInterval } from '../../time/time-interval.js';
import type { ImportClock } from '../import-clock.js';
import type { AnnotationColumns, SlotColumns } from './eaf-bulk.js';
import { ANNOTATION_ATTRIBUTE_KEYS, EAF_ANNOTATION_SCHEMA } from './eaf-model.js';

/** What a tier gives each of its annotations. */
export interface TierGifts {
  readonly speaker?: string;
  readonly provenance: ProvenanceInit;
}

/**
 * Builds the annotation of one EAF record. It holds the columns and nothing of the source text,
 * so the annotations of a large file can be built one at a time as they are consumed, after the
 * text is gone.
 */
export class EafAnnotationBuilder {
  constructor(
    private readonly annotations: AnnotationColumns,
    private readonly slots: SlotColumns,
    /** Times given to unaligned slots (see resolveSlotTimes), by slot index. */
    private readonly interpolated: ReadonlyMap<number, number>,
    private readonly asset: string,
    private readonly rate: number,
  ) {}

  startMs(record: number): number {
    const slot = this.annotations.slot1[record];
    const value = this.slots.values[slot];
    return Number.isNaN(value) ? (this.interpolated.get(slot) as number) : value;
  }

  /** The end as written or interpolated, before an interpolated end before the start is moved to it. */
  rawEndMs(record: number): number {
    const slot = this.annotations.slot2[record];
    const value = this.slots.values[slot];
    return Number.isNaN(value) ? (this.interpolated.get(slot) as number) : value;
  }

  /** The interval of a time-aligned record, its times turned by `clock` (the import's, or a probe's). */
  interval(record: number, clock: ImportClock): TimeInterval {
    const startMs = this.startMs(record);
    const endMs = Math.max(startMs, this.rawEndMs(record));
    const start = this.milliseconds(startMs, clock);
    return new TimeInterval(start, endMs === startMs ? start : this.milliseconds(endMs, clock));
  }

  alignable(record: number, tier: string, gifts: TierGifts, clock: ImportClock): Annotation {
    const interval = this.interval(record, clock);
    const slot1 = this.annotations.slot1[record];
    const slot2 = this.annotations.slot2[record];
    const timeFields: Record<string, unknown> = {};
    if (this.slots.uses[slot1] > 1 || this.slots.uses[slot2] > 1) timeFields.time_slots = [this.slots.ids[slot1], this.slots.ids[slot2]];
    const aligned1 = !Number.isNaN(this.slots.values[slot1]);
    const aligned2 = !Number.isNaN(this.slots.values[slot2]);
    if (!aligned1 || !aligned2) {
      const unaligned: Record<string, number> = {};
      if (!aligned1) unaligned.start = this.startMs(record);
      if (!aligned2) unaligned.end = Math.max(this.startMs(record), this.rawEndMs(record));
      timeFields.unaligned = unaligned;
    }
    return this.build(record, tier, gifts, mediaRef(this.asset, interval), timeFields);
  }

  reference(record: number, tier: string, gifts: TierGifts, target: string): Annotation {
    return this.build(record, tier, gifts, annotationRef(target));
  }

  private build(record: number, tier: string, gifts: TierGifts, reference: ReturnType<typeof annotationRef> | ReturnType<typeof mediaRef>, timeFields?: Record<string, unknown>): Annotation {
    const body: Record<string, unknown> = { text: this.annotations.value[record], annotation_id: this.annotations.eafId[record] };
    if (gifts.speaker !== undefined) body.speaker = gifts.speaker;
    const attributes = this.annotations.attributes.get(record);
    if (attributes) for (const [attribute, key] of ANNOTATION_ATTRIBUTE_KEYS) if (attributes[attribute] !== undefined) body[key] = attributes[attribute];
    if (timeFields) Object.assign(body, timeFields);
    return makeAnnotation({ id: newAnnotationId(), tier, reference, body, body_schema_uri: EAF_ANNOTATION_SCHEMA, provenance: gifts.provenance });
  }

  private milliseconds(ms: number, clock: ImportClock): RationalTime {
    return Number.isInteger(ms) && this.rate === 1000 ? new RationalTime(ms, 1000) : clock.seconds(`${ms}e-3`);
  }
}

import type { JsonObject } from '../../json/json-body.js';
import { makeAnnotation, mediaRef, trustedAnnotation, type Annotation } from '../../model/annotation.js';
import type { Provenance } from '../../model/provenance.js';
import { RationalTime } from '../../time/rational-time.js';
import { TimeInterval } from '../../time/time-interval.js';
import type { CueFindings } from '../cue-findings.js';
import type { ImportClock } from '../import-clock.js';
import { ASS_EVENT_SCHEMA, type AssEvent, type AssEventBody } from './ass-model.js';
import { assPlainText, assTextOf } from './ass-text.js';
import { parseAssTime, standardAssTime, type AssTimestamp } from './ass-time.js';

/** What turning events into annotations needs: where they go, the clock, and where to report. */
export interface EventTarget {
  readonly tier: string;
  readonly assetId: string;
  readonly provenance: Provenance;
  /** The rate the user chose (`--rate`), or null: the times' own (100, or 1000 for milliseconds). */
  readonly rate: number | null;
  readonly clock: ImportClock;
  readonly file: string;
  readonly findings: CueFindings;
}

/**
 * The annotations pass: an event becomes an annotation on the tier at its start and end, with
 * the body of ass-model.ts. An event whose times do not read is dropped with a warning (libass
 * reads such a time as 0); a negative time is read as 0, as players show it; an end before the
 * start makes the event a point at its start, the end kept as written, and is an error finding.
 */
export class EventAnnotations {
  private checked = false;

  constructor(private readonly target: EventTarget) {}

  /** The event as an annotation, or null when its times do not read. */
  convert(event: AssEvent): Annotation | null {
    // Most files write every time h:mm:ss.cc: read so at rate 100 without more ado.
    const startCs = standardAssTime(event.start);
    const endCs = standardAssTime(event.end);
    if (startCs !== -1 && endCs !== -1 && this.target.rate === null) {
      return this.annotated(event, new RationalTime(startCs, 100), new RationalTime(endCs, 100));
    }
    const { findings } = this.target;
    const start = parseAssTime(event.start);
    const end = parseAssTime(event.end);
    if (start === null || end === null) {
      findings.dropped(event.line, `event dropped: its ${start === null ? 'Start' : 'End'} ${JSON.stringify((start === null ? event.start : event.end).trim().slice(0, 20))} is not a time like "0:00:01.50"`);
      return null;
    }
    for (const time of [start, end]) {
      if (time.negative) findings.note('timestamp_negative', 'warning', event.line, 'negative times', `time ${(time === start ? event.start : event.end).trim()} is negative; read as 0:00:00.00, as players show it`);
      else if (!time.standard) findings.nonstandardTimestamp(event.line, `time ${JSON.stringify((time === start ? event.start : event.end).trim())} is not SubStation's "h:mm:ss.cc"`);
    }
    return this.annotated(event, this.time(start, event.line), this.time(end, event.line));
  }

  /** The annotation of an event at these times; an end before the start makes it a point, with an error finding. */
  private annotated(event: AssEvent, startTime: RationalTime, endTime: RationalTime): Annotation {
    const backwards = endTime.lt(startTime);
    this.target.findings.cue(event.line, (startTime.v * 1000) / startTime.r, (endTime.v * 1000) / endTime.r, event.start, event.end);
    const interval = backwards ? TimeInterval.point(startTime) : new TimeInterval(startTime, endTime);
    return this.annotation(interval, eventBody(event, backwards ? event.end.trim() : null));
  }

  private time(time: AssTimestamp, line: number): RationalTime {
    const ticks = time.negative ? 0 : time.ticks;
    const rate = this.target.rate;
    if (rate === null || rate === time.rate) return new RationalTime(ticks, time.rate);
    if (rate % time.rate === 0) return new RationalTime(ticks * (rate / time.rate), rate);
    return this.target.clock.seconds(`${ticks}/${time.rate}`, `${this.target.file}:${line}`);
  }

  private annotation(interval: TimeInterval, body: AssEventBody): Annotation {
    const { tier, assetId, provenance } = this.target;
    if (!this.checked) {
      this.checked = true;
      return makeAnnotation({ tier, reference: mediaRef(assetId, interval), body: body as unknown as Record<string, unknown>, body_schema_uri: ASS_EVENT_SCHEMA, provenance });
    }
    // The first event checked tier, asset id and provenance; the rest are strings and numbers the reader made.
    return trustedAnnotation(tier, Object.freeze({ kind: 'media', asset_id: assetId, interval }), Object.freeze(body) as unknown as JsonObject, ASS_EVENT_SCHEMA, provenance);
  }
}

const OVERRIDE_BLOCK = /(?:^|[^\\])\{/;

/** The body of an event: fields at their defaults (layer and margins 0, no effect) are left out. */
export function eventBody(event: AssEvent, writtenEnd: string | null): AssEventBody {
  const text = assPlainText(event.text);
  const body: AssEventBody = { text, style: event.style };
  // The raw text is kept only when the plain text, written back, would not give it; a text with
  // nothing read out of it gives itself back unless it holds what writing escapes.
  // An override block (a brace no backslash escapes) is never what writing escapes gives: kept without asking.
  if (text === event.text ? /[\u00a0{}]/.test(text) : OVERRIDE_BLOCK.test(event.text) || assTextOf(text) !== event.text) body.raw = event.text;
  if (event.comment) body.comment = true;
  const speaker = event.name.trim();
  if (speaker.length > 0) body.speaker = speaker;
  if (event.layer !== 0) body.layer = event.layer;
  if (event.marginL !== 0) body.margin_l = event.marginL;
  if (event.marginR !== 0) body.margin_r = event.marginR;
  if (event.marginV !== 0) body.margin_v = event.marginV;
  if (event.effect.length > 0) body.effect = event.effect;
  if (writtenEnd !== null) body.written_end = writtenEnd;
  if (event.other !== null) body.fields = event.other;
  return body;
}

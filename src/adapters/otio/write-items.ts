import { RationalTime } from '../../time/rational-time.js';
import { plainCueText } from '../plain-cue-text.js';
import { isObject, type OtioObject, type OtioValue } from './otio-json.js';
import { addTimes, rateOf, subtractTimes, writeOtioRange, writeOtioTime } from './otio-time.js';
import type { Timed } from './write-collect.js';
import { availableRange, keptRange, keptTime, ZERO } from './write-time.js';

/**
 * The items of a track as OTIO objects. What the import kept in a body (schema, name, metadata,
 * media references, source range, effects, marker colours) is written back as it was, times
 * re-derived from the annotation's interval (verbatim when it still matches); an annotation from
 * elsewhere gets OTIO's defaults.
 */
export function gap(duration: RationalTime): OtioObject {
  return { OTIO_SCHEMA: 'Gap.1', metadata: {}, name: '', source_range: writeOtioRange(ZERO, duration), effects: [], markers: [], enabled: true };
}

export interface WrittenItem {
  readonly object: OtioObject;
  /** Where the item's own time starts: its markers are placed from there. */
  readonly sourceStart: RationalTime;
}

/** A clip or kept item, with its source range re-derived when the interval no longer matches it. */
export function writeItem(item: Timed): WrittenItem {
  const body = item.body as Record<string, OtioValue>;
  const interval = item.reference.interval;
  const duration = subtractTimes(interval.end, interval.start);
  const kept = keptRange(body.source_range);
  const verbatim = typeof body.otio_schema === 'string';
  // A kept item without a source_range is written without one while what times it still does:
  // a clip's media's available range, a nested item's children (see the emit pass).
  const timedByMedia = body.kind === 'item' || keptRange(availableRange(body)).duration?.equals(duration) === true;
  const range: OtioObject = body.source_range === undefined && verbatim && timedByMedia ? {} : { source_range: sourceRange(body, duration, kept) };
  const metadata: OtioObject = isObject(body.metadata) ? { metadata: body.metadata } : verbatim ? {} : { metadata: {} };
  const extra = isObject(body.extra) ? body.extra : {};
  const name = typeof body.name === 'string' ? body.name : (plainCueText(item) ?? '');
  if (body.kind === 'item') {
    const schema = typeof body.otio_schema === 'string' ? body.otio_schema : 'Gap.1';
    // Gaps and compositions own markers (attached once placed); nested children are filled in then.
    const own: OtioObject = /^(Gap|Stack|Track|Sequence)\./.test(schema) ? { markers: [] } : {};
    const children: OtioObject = /^(Stack|Track|Sequence)\./.test(schema) ? { children: [] } : {};
    return { object: { OTIO_SCHEMA: schema, ...metadata, name, ...own, ...extra, ...children, ...range }, sourceStart: kept.start ?? ZERO };
  }
  const defaults: OtioObject = verbatim ? {} : { effects: [], enabled: true };
  const clip: OtioObject = { OTIO_SCHEMA: verbatim ? (body.otio_schema as string) : 'Clip.2', ...metadata, name, ...range, ...defaults, markers: [], ...extra };
  writeMediaReferences(clip, body, item.reference.asset_id);
  // A clip timed by its media: its markers are in the media's time, which starts at the available range's start.
  const mediaStart = body.source_range === undefined || body.source_range === null ? keptRange(availableRange(body)).start : null;
  return { object: clip, sourceStart: kept.start ?? mediaStart ?? ZERO };
}

function sourceRange(body: Record<string, OtioValue>, duration: RationalTime, kept: { start: RationalTime | null; duration: RationalTime | null }): OtioValue {
  if (body.source_range === undefined) return writeOtioRange(keptRange(availableRange(body)).start ?? ZERO, duration);
  if (kept.duration && kept.duration.equals(duration)) return body.source_range as OtioValue;
  if (body.source_range === null && (body.kind === 'item' || keptRange(availableRange(body)).duration?.equals(duration))) return null;
  return writeOtioRange(kept.start ?? ZERO, duration, rateOf(body.source_range));
}

function writeMediaReferences(clip: OtioObject, body: Record<string, OtioValue>, asset: string): void {
  if (body.media_reference !== undefined || body.media_references !== undefined) {
    if (body.media_reference !== undefined) clip.media_reference = body.media_reference;
    if (body.media_references !== undefined) clip.media_references = body.media_references;
    if (typeof body.active_media_reference_key === 'string') clip.active_media_reference_key = body.active_media_reference_key;
    return;
  }
  const reference: OtioObject = asset.startsWith('otio:')
    ? { OTIO_SCHEMA: 'MissingReference.1', metadata: {}, name: '', available_range: null }
    : { OTIO_SCHEMA: 'ExternalReference.1', metadata: {}, name: '', available_range: null, target_url: asset };
  if (clip.OTIO_SCHEMA === 'Clip.1') clip.media_reference = reference;
  else {
    clip.media_references = { DEFAULT_MEDIA: reference };
    clip.active_media_reference_key = 'DEFAULT_MEDIA';
  }
}

/** A transition's cut: start + in_offset (or end - out_offset) as the body kept them, else the middle of the interval. */
export function cutOf(transition: Timed): RationalTime {
  const interval = transition.reference.interval;
  const extra = transition.body.extra as OtioValue | undefined;
  const before = isObject(extra) ? keptTime(extra.in_offset) : null;
  const after = isObject(extra) ? keptTime(extra.out_offset) : null;
  const length = subtractTimes(interval.end, interval.start);
  if (before && after && addTimes(before, after).equals(length)) return addTimes(interval.start, before);
  // One offset missing (the load read it as zero): the other still places the cut.
  if (before && !after && before.le(length)) return addTimes(interval.start, before);
  if (after && !before && after.le(length)) return subtractTimes(interval.end, after);
  return addTimes(interval.start, new RationalTime(length.v, length.r * 2));
}

export function writeTransition(transition: Timed, cut: RationalTime): OtioObject {
  const body = transition.body as Record<string, OtioValue>;
  const extra = isObject(body.extra) ? body.extra : {};
  const interval = transition.reference.interval;
  const rate = rateOf(extra.in_offset);
  const out: OtioObject = {
    OTIO_SCHEMA: typeof body.otio_schema === 'string' ? body.otio_schema : 'Transition.1',
    metadata: isObject(body.metadata) ? body.metadata : {},
    name: typeof body.name === 'string' ? body.name : '',
    ...extra,
  };
  if (!isObject(body.extra)) {
    out.transition_type = 'SMPTE_Dissolve';
    out.parameters = {};
  }
  // Assigning keeps the keys where the file had them.
  out.in_offset = writeOtioTime(subtractTimes(cut, interval.start), rate);
  out.out_offset = writeOtioTime(subtractTimes(interval.end, cut), rate);
  return out;
}

/** A marker at its time relative to `origin` (the owner's time zero on the timeline). */
export function writeMarker(marker: Timed, origin: RationalTime): OtioObject {
  const body = marker.body as Record<string, OtioValue>;
  const interval = marker.reference.interval;
  const start = subtractTimes(interval.start, origin);
  const duration = subtractTimes(interval.end, interval.start);
  const kept = keptRange(body.marked_range);
  const markedRange = kept.start && kept.duration && kept.start.equals(start) && kept.duration.equals(duration) ? body.marked_range : writeOtioRange(start, duration, rateOf(body.marked_range));
  const extra = isObject(body.extra) ? body.extra : {};
  const name = typeof body.name === 'string' ? body.name : (plainCueText(marker) ?? '');
  const verbatim = typeof body.otio_schema === 'string';
  const out: OtioObject = {
    OTIO_SCHEMA: verbatim ? (body.otio_schema as string) : 'Marker.2',
    ...(isObject(body.metadata) ? { metadata: body.metadata } : verbatim ? {} : { metadata: {} }),
    name,
    ...(body.color !== undefined ? { color: body.color } : verbatim ? {} : { color: 'RED' }),
    marked_range: markedRange as OtioValue,
    ...extra,
  };
  if (typeof body.comment === 'string') out.comment = body.comment;
  return out;
}

// What the user asked for, as request bodies: a retime, one edge moved, a boundary two blocks share, a new
// text (PATCH); and what the edits of split-edits.ts add to them, annotations created and deleted.
import { labelOf, sameTime, type Item } from './model.js';
import type { AnnotationWire, Time } from './wire.js';

/** One annotation's part of an edit: a partial update. */
export interface EditPart {
  id: string;
  /** What the user asked for, as a PATCH body. */
  patch: Partial<AnnotationWire>;
  /** The ETag of the version the user started from. */
  etag: Promise<string>;
  /** That version, so the edit can be undone (and the conflict view can show what it would have become). */
  before: AnnotationWire;
}

/** An annotation the edit creates: its wire form as POST /annotations takes it (the id and provenance may be left to the server). */
export interface CreatePart {
  input: Record<string, unknown>;
}

/** An annotation the edit deletes, as the user last saw it, and the ETag of that version. */
export interface DeletePart {
  id: string;
  etag: Promise<string>;
  before: AnnotationWire;
}

/** An annotation as the server saved it, with its ETag. */
export interface Saved {
  wire: AnnotationWire;
  etag: string;
}

/** What a saved edit did: what the undo history records. */
export interface SaveOutcome {
  created: Saved[];
  updated: Saved[];
  deleted: string[];
}

/**
 * What the user did, saved together or not at all: annotations changed (one, or two sharing a
 * boundary), created, deleted, or several of these at once (a split, a merge).
 */
export interface Edit {
  parts: EditPart[];
  creates?: CreatePart[];
  deletes?: DeletePart[];
  /** The edit as a noun phrase: the status line, the overlay, the undo history ("text "the dog"", "split of "the cat" at 0.4 s"). */
  describe: string;
  /** What is said when it is saved (default "saved <describe>"). */
  done?: string;
  /** Run once it is saved instead of recording it in the undo history (an undo or a redo moves its step). */
  onSaved?: (outcome: SaveOutcome) => void;
}

export type Grab = 'start' | 'end' | 'move';

/** A time at the annotation's own rate, so the stored value keeps its exactness. */
export function timeAtRate(seconds: number, rate: number): Time {
  return { v: Math.round(seconds * rate), r: rate };
}

/** The annotation at new times, at its own rate; null when that changes nothing. */
export function retimePatch(item: Item, start: number, end: number): Partial<AnnotationWire> | null {
  const reference = item.wire.reference;
  if (reference.kind !== 'media') return null;
  const rate = rateOf(item);
  const s = timeAtRate(Math.max(0, start), rate);
  const e = timeAtRate(Math.max(0, end), rate);
  if (sameTime(s, reference.interval.start) && sameTime(e, reference.interval.end)) return null;
  return { reference: { kind: 'media', asset_id: reference.asset_id, interval: { start: s, end: e } } };
}

/** The same annotation with one edge at an exact time, the other kept as it is; null when nothing changes. */
export function edgePatch(item: Item, edge: 'start' | 'end', time: Time): Partial<AnnotationWire> | null {
  const reference = item.wire.reference;
  if (reference.kind !== 'media' || sameTime(reference.interval[edge], time)) return null;
  const exact = ({ v, r }: Time): Time => ({ v, r });
  const interval = { start: exact(reference.interval.start), end: exact(reference.interval.end), [edge]: time };
  return { reference: { kind: 'media', asset_id: reference.asset_id, interval } };
}

/** The boundary two blocks share, at the finer of their rates, so both store the very same time. */
export function boundaryTime(seconds: number, item: Item, neighbour: Item): Time {
  return timeAtRate(Math.max(0, seconds), Math.max(rateOf(item), rateOf(neighbour)));
}

/**
 * A block retimed to [start, end] by a drag or a nudge, as an edit. An edge grabbed changes that
 * edge alone; with a neighbour (the TIME_SUBDIVISION sibling sharing it) the boundary moves for
 * both, in one request. The body grabbed moves both edges.
 */
export function retimeEdit(item: Item, grab: Grab, start: number, end: number, neighbour: Item | null, etagOf: (item: Item) => Promise<string>): Edit | null {
  if (grab === 'move') {
    const patch = retimePatch(item, start, end);
    return patch ? { parts: [{ id: item.wire.id, patch, etag: etagOf(item), before: item.wire }], describe: `retime of "${labelOf(item.wire)}"` } : null;
  }
  const at = grab === 'start' ? start : end;
  if (!neighbour) {
    const patch = edgePatch(item, grab, timeAtRate(Math.max(0, at), rateOf(item)));
    return patch ? { parts: [{ id: item.wire.id, patch, etag: etagOf(item), before: item.wire }], describe: `${grab} of "${labelOf(item.wire)}"` } : null;
  }
  const time = boundaryTime(at, item, neighbour);
  const mine = edgePatch(item, grab, time);
  const theirs = edgePatch(neighbour, grab === 'start' ? 'end' : 'start', time);
  if (!mine || !theirs) return null;
  return {
    parts: [
      { id: item.wire.id, patch: mine, etag: etagOf(item), before: item.wire },
      { id: neighbour.wire.id, patch: theirs, etag: etagOf(neighbour), before: neighbour.wire },
    ],
    describe: `boundary of "${labelOf(item.wire)}" and "${labelOf(neighbour.wire)}"`,
  };
}

/** Edits are never coarser than milliseconds: times read as whole seconds ({v: 5, r: 1}) would snap a drag to seconds. */
const FINEST_COMMON_RATE = 1000;

/** The rate an edit of the annotation writes its times at: the finer of its two times', at least milliseconds. */
export function rateOf(item: Item): number {
  const reference = item.wire.reference;
  return reference.kind === 'media' ? Math.max(reference.interval.start.r, reference.interval.end.r, FINEST_COMMON_RATE) : FINEST_COMMON_RATE;
}

/** A new text for the block, the rest of its body kept. */
export function textEdit(item: Item, text: string, etag: Promise<string>): Edit {
  return { parts: [{ id: item.wire.id, patch: { body: { ...item.wire.body, text } }, etag, before: item.wire }], describe: `text "${text}"` };
}

/** A time without the `s` (its exact seconds) the server adds to what it answers: {v, r}, as a request sends it. */
export function exact({ v, r }: Time): Time {
  return { v, r };
}

/** An annotation's wire form as a request sends it: the times without their `s`. */
export function requestForm(wire: AnnotationWire): Record<string, unknown> {
  const reference = wire.reference;
  const sent = reference.kind === 'media' ? { ...reference, interval: { start: exact(reference.interval.start), end: exact(reference.interval.end) } } : reference;
  const provenance = { ...wire.provenance, generated_at_time: exact(wire.provenance.generated_at_time) };
  return { ...wire, reference: sent, provenance };
}

/** The fields a PATCH may change. */
const CHANGEABLE = ['tier', 'body', 'body_schema_uri', 'confidence', 'reference'] as const;

/** The PATCH that turns one version of an annotation into another: the changeable fields that differ. */
export function patchBetween(from: AnnotationWire, to: AnnotationWire): Partial<AnnotationWire> {
  const sent = requestForm(to) as Partial<AnnotationWire>;
  const before = requestForm(from) as Partial<AnnotationWire>;
  const patch: Record<string, unknown> = {};
  for (const field of CHANGEABLE) if (JSON.stringify(before[field]) !== JSON.stringify(sent[field])) patch[field] = sent[field] ?? null;
  return patch as Partial<AnnotationWire>;
}

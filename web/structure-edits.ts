// Edits that make or remove annotations, as ELAN's: create, delete, split a block in two at a time,
// merge a block with the next one of its tier. On a TIME_SUBDIVISION tier a split and a merge keep the
// parent covered by going in one request with the change of the neighbouring block (PATCH /annotations).
import type { NewBody } from './blank-body.js';
import { edgePatch, exact, rateOf, timeAtRate, type Edit } from './edits.js';
import { labelOf, type Item } from './model.js';
import { formatTime, type TimeFormat } from './time-format.js';

/** A new annotation, as POST /annotations takes it. */
export function createEdit(input: Record<string, unknown>, tier: string, text: string, span: string): Edit {
  return { parts: [], creates: [{ input }], describe: `creation of "${text}" on ${tier}`, done: `created "${text}" on ${tier}, ${span}` };
}

/** The block deleted (DELETE with If-Match). */
export function deleteEdit(item: Item, etag: Promise<string>): Edit {
  const name = `"${labelOf(item.wire)}" on ${item.wire.tier}`;
  return { parts: [], deletes: [{ id: item.wire.id, etag, before: item.wire }], describe: `deletion of ${name}`, done: `deleted ${name}` };
}

/**
 * The block cut in two at `seconds` (strictly inside it, at its own rate): it keeps its text and
 * ends there; the new block starts there, with the body `second` (empty of text), and ends where it ended.
 */
export function splitEdit(item: Item, seconds: number, etag: Promise<string>, second: NewBody, format: TimeFormat): Edit | null {
  const reference = item.wire.reference;
  if (reference.kind !== 'media') return null;
  const at = timeAtRate(seconds, rateOf(item));
  const patch = edgePatch(item, 'end', at);
  if (!patch) return null;
  const input = {
    tier: item.wire.tier,
    reference: { kind: 'media', asset_id: reference.asset_id, interval: { start: at, end: exact(reference.interval.end) } },
    ...second,
  };
  const name = `"${labelOf(item.wire)}" at ${formatTime(seconds, format)}`;
  return { parts: [{ id: item.wire.id, patch, etag, before: item.wire }], creates: [{ input }], describe: `split of ${name}`, done: `split ${name} in two` };
}

/** The texts of two merged blocks, joined with a space; an empty one adds nothing. */
export function joinTexts(first: string, second: string): string {
  return [first, second].filter((text) => text !== '').join(' ');
}

/** The block grown to the end of the next one, their texts joined, the next one deleted. */
export function mergeEdit(item: Item, next: Item, etags: { item: Promise<string>; next: Promise<string> }): Edit | null {
  const mine = item.wire.reference;
  const theirs = next.wire.reference;
  if (mine.kind !== 'media' || theirs.kind !== 'media') return null;
  const interval = { start: exact(mine.interval.start), end: exact(theirs.interval.end) };
  const patch: Record<string, unknown> = { reference: { kind: 'media', asset_id: mine.asset_id, interval } };
  const text = item.wire.body.text;
  const nextText = next.wire.body.text;
  const joined = typeof text === 'string' && typeof nextText === 'string' ? joinTexts(text, nextText) : undefined;
  if (joined !== undefined && joined !== text) patch.body = { ...item.wire.body, text: joined };
  const names = `"${labelOf(item.wire)}" and "${labelOf(next.wire)}"`;
  return {
    parts: [{ id: item.wire.id, patch, etag: etags.item, before: item.wire }],
    deletes: [{ id: next.wire.id, etag: etags.next, before: next.wire }],
    describe: `merge of ${names}`,
    done: `merged ${names}${joined !== undefined ? ` into "${joined}"` : ''}`,
  };
}

// Creating an annotation, as in ELAN and Praat: N on the active lane at the playhead, or a drag across an
// empty stretch of a lane. The new block is drawn dashed with its text editor open; it is sent (POST) only
// when its text is (Enter), so Escape leaves nothing behind. Where it may go follows the tier's stereotype:
// inside the parent annotation at the playhead on a dependent tier, the whole parent on an empty
// TIME_SUBDIVISION, referring to the parent on a symbolic tier; the server judges the rest, and a
// refusal, the page's or the server's, shows in the overlay.
import { newBody, schemaFor } from './blank-body.js';
import { rateOf, timeAtRate } from './edits.js';
import { labelOf, type Item, type Lane, type TimelineModel } from './model.js';
import type { PageContext } from './page-context.js';
import { refusedHere, save } from './saving.js';
import { createEdit } from './structure-edits.js';
import { openEditor } from './text-editor.js';
import { formatTime } from './time-format.js';

/** How long a block N makes is, unless the next block or the parent ends it first. */
const NEW_BLOCK_SECONDS = 1;
/** The asset of a new annotation when nothing in the store names one. */
const UNKNOWN_ASSET = 'media:unspecified';

export interface CreateHooks {
  select(item: Item | null): void;
  focusTimeline(): void;
}

/** Where a new annotation goes: its lane, its times (a symbolic one shows its parent's), and its reference. */
interface Plan {
  lane: Lane;
  start: number;
  end: number;
  reference: Record<string, unknown>;
}

type Planned = Plan | { refusal: string };

const SYMBOLIC = new Set(['SYMBOLIC_SUBDIVISION', 'SYMBOLIC_ASSOCIATION']);

/** N: a new annotation on the lane at `t`, one second long, cut short at the next block and kept inside the parent. */
export function createAt(ctx: PageContext, hooks: CreateHooks, lane: Lane, t: number): void {
  begin(ctx, hooks, planAt(ctx.model, lane, Math.max(0, t), 'the playhead'), lane);
}

/** A drag across an empty stretch of a lane, from `from` (where it was pressed) to `to`; on a symbolic or point lane, as N at `from`. */
export function createOver(ctx: PageContext, hooks: CreateHooks, lane: Lane, from: number, to: number): void {
  const planned = planAt(ctx.model, lane, Math.max(0, from), 'where the drag began');
  if ('refusal' in planned || isSymbolic(lane) || isPointLane(lane)) return begin(ctx, hooks, planned, lane);
  const span = dragSpan(ctx.model, lane, from, to);
  if (!span) return ctx.announce(`no room on ${lane.tier.name} there`);
  begin(ctx, hooks, { ...planned, ...span, reference: mediaReference(ctx.model, lane, span.start, span.end, parentAt(ctx.model, lane, from)) }, lane);
}

/**
 * Where a drag from `from` to `to` creates, as it goes: the stretch between them, kept within the
 * empty stretch `from` is in (between the blocks on either side) and within the parent there.
 * Null on a symbolic or point lane (those create as N does).
 */
export function dragSpan(model: TimelineModel, lane: Lane, from: number, to: number): { start: number; end: number } | null {
  if (isSymbolic(lane) || isPointLane(lane)) return null;
  const parent = parentAt(model, lane, from);
  const lower = Math.max(0, previousEnd(model, lane, from), parent?.start ?? 0);
  const upper = Math.min(nextStart(model, lane, from), parent?.end ?? Infinity);
  const start = Math.max(Math.min(from, to), lower);
  const end = Math.min(Math.max(from, to), upper);
  return end > start ? { start, end } : null;
}

/** Where N (or a drag) at `t` creates, or why it cannot; `where` names `t` to the user. */
function planAt(model: TimelineModel, lane: Lane, t: number, where: string): Planned {
  const { tier } = lane;
  const parentLane = tier.parent === null ? undefined : model.laneNamed(tier.parent);
  const parent = parentAt(model, lane, t);
  const at = `${where} (${formatTime(t, 'seconds')})`;
  if (parentLane && tier.stereotype !== 'NONE' && !parent) {
    return { refusal: `no annotation of ${tier.parent} holds ${at}: an annotation of ${tier.name} (${tier.stereotype}) goes inside one.` };
  }
  if (parent && isSymbolic(lane)) return { lane, start: parent.start, end: parent.end, reference: { kind: 'annotation', target_id: parent.wire.id } };
  const inside = model.holding(lane, t);
  if (inside) return { refusal: `${at} is inside "${labelOf(inside.wire)}" on ${tier.name}: split it with S, or start in an empty stretch.` };
  if (isPointLane(lane)) return { lane, start: t, end: t, reference: mediaReference(model, lane, t, t, parent) };
  let start = t;
  let end = Math.min(t + NEW_BLOCK_SECONDS, nextStart(model, lane, t), parent?.end ?? Infinity);
  // An empty TIME_SUBDIVISION parent is subdivided by one child covering it, as ELAN makes it.
  if (parent && tier.stereotype === 'TIME_SUBDIVISION' && model.visible(lane, parent.start, parent.end).every((item) => item.end <= parent.start || item.start >= parent.end)) {
    start = parent.start;
    end = parent.end;
  }
  if (end <= start) return { refusal: `there is no room on ${tier.name} after ${at}.` };
  return { lane, start, end, reference: mediaReference(model, lane, start, end, parent) };
}

/** Draws the draft, opens its text editor; Enter sends it, Escape drops it. */
function begin(ctx: PageContext, hooks: CreateHooks, planned: Planned, lane: Lane): void {
  if ('refusal' in planned) return refusedHere(ctx, `a new annotation on ${lane.tier.name}`, planned.refusal);
  const { view, model } = ctx;
  const { start, end, reference } = planned;
  const tier = lane.tier.name;
  const body = newBody(ctx, schemaFor(model, lane), '');
  const span = `${formatTime(start, view.format)} to ${formatTime(end, view.format)}`;
  view.draft = { tier, start, end };
  view.revealSpan(start, end);
  view.invalidate();
  view.frame();
  openEditor({
    at: view.centerOf(lane, start, end),
    value: '',
    label: `text of the new annotation on ${tier}, ${span} (Enter saves, Escape cancels)`,
    close(text) {
      hooks.focusTimeline();
      if (text === null) {
        view.draft = null;
        view.invalidate();
        ctx.status(`nothing created on ${tier}`);
        ctx.announce(`cancelled: nothing created on ${tier}`);
        return;
      }
      void (async () => {
        const { body_schema_uri, body: blank } = await body;
        const input = { tier, reference, body: { ...blank, text }, body_schema_uri };
        const outcome = await save(ctx, createEdit(input, tier, text, span));
        view.draft = null;
        view.invalidate();
        const created = outcome?.created[0] && model.items.get(outcome.created[0].wire.id);
        if (created) hooks.select(created);
      })();
    },
  });
}

/** A media reference over [start, end] at the rate of the lane's blocks (else the parent's, else ms), on their asset. */
function mediaReference(model: TimelineModel, lane: Lane, start: number, end: number, parent: Item | null): Record<string, unknown> {
  const like = [parent, ...lane.items.slice(0, 1), model.items.values().next().value].find((item): item is Item => !!item && item.wire.reference.kind === 'media');
  const rate = lane.items[0]?.wire.reference.kind === 'media' ? rateOf(lane.items[0]) : like ? rateOf(like) : 1000;
  const asset = like?.wire.reference.kind === 'media' ? like.wire.reference.asset_id : UNKNOWN_ASSET;
  return { kind: 'media', asset_id: asset, interval: { start: timeAtRate(start, rate), end: timeAtRate(end, rate) } };
}

/** The annotation of the parent tier at `t`, for a dependent lane. */
function parentAt(model: TimelineModel, lane: Lane, t: number): Item | null {
  const parentLane = lane.tier.parent === null ? undefined : model.laneNamed(lane.tier.parent);
  return parentLane && lane.tier.stereotype !== 'NONE' ? model.holding(parentLane, t) : null;
}

/** Where the blocks before `t` end (0 when none). */
function previousEnd(model: TimelineModel, lane: Lane, t: number): number {
  return model.visible(lane, t - lane.maxDuration, t).reduce((end, item) => (item.end <= t ? Math.max(end, item.end) : end), 0);
}

/** Where the first block starting at or after `t` starts (Infinity when none). */
function nextStart(model: TimelineModel, lane: Lane, t: number): number {
  const items = model.sorted(lane);
  const next = items[model.firstStartingAt(lane, t)];
  return next ? next.start : Infinity;
}

function isSymbolic(lane: Lane): boolean {
  return SYMBOLIC.has(lane.tier.stereotype);
}

/** A tier of points (a TextGrid TextTier, or one whose blocks are all points): N adds a point. */
function isPointLane(lane: Lane): boolean {
  if (lane.tier.metadata.textgrid_class === 'TextTier') return true;
  const sample = lane.items.slice(0, 50);
  return sample.length > 0 && sample.every((item) => item.start === item.end);
}

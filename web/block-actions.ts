// The keys (and the inspector's buttons) that change the selected block's existence: Delete, S (split at
// the playhead), M (merge with the next block of the tier), and Ctrl+Z / Ctrl+Shift+Z (undo, redo). Each
// goes through the API with If-Match; what cannot be done says why (announced, or in the overlay).
import { newBody } from './blank-body.js';
import { etagFor } from './etags.js';
import { labelOf, type Item } from './model.js';
import type { PageContext } from './page-context.js';
import { save, settled } from './saving.js';
import { deleteEdit, mergeEdit, splitEdit } from './structure-edits.js';
import { formatTime } from './time-format.js';

export interface ActionHooks {
  select(item: Item | null): void;
  /** The playhead, or where the user last clicked when there is no media. */
  playhead(): number;
}

function selectedItem(ctx: PageContext): Item | undefined {
  return ctx.view.selected === null ? undefined : ctx.model.items.get(ctx.view.selected);
}

/** The next block of the item's lane in time order, else the previous one: where the selection goes after a deletion. */
function neighbourOf(ctx: PageContext, item: Item): Item | null {
  const lane = ctx.model.laneOf(item);
  if (!lane) return null;
  const items = ctx.model.sorted(lane);
  const at = ctx.model.indexIn(lane, item);
  return items[at + 1] ?? items[at - 1] ?? null;
}

export async function deleteSelected(ctx: PageContext, hooks: ActionHooks): Promise<void> {
  const item = selectedItem(ctx);
  if (!item) return ctx.announce('select a block to delete first (arrow keys)');
  const neighbour = neighbourOf(ctx, item);
  if (await save(ctx, deleteEdit(item, etagFor(ctx, item)))) hooks.select(neighbour && ctx.model.items.get(neighbour.wire.id) ? neighbour : null);
}

/** S: the selected block in two at the playhead, its text kept on the first; the new second block is selected. */
export async function splitSelected(ctx: PageContext, hooks: ActionHooks): Promise<void> {
  const item = selectedItem(ctx);
  if (!item) return ctx.announce('select a block to split first (arrow keys)');
  if (item.wire.reference.kind !== 'media') return ctx.announce(`"${labelOf(item.wire)}" takes its times from its parent annotation and cannot be split`);
  const t = hooks.playhead();
  if (!(item.start < t && t < item.end)) {
    return ctx.announce(`the playhead (${formatTime(t, ctx.view.format)}) is not inside "${labelOf(item.wire)}": move it inside the block to split it there`);
  }
  const edit = splitEdit(item, t, etagFor(ctx, item), await newBody(ctx, item.wire.body_schema_uri, ''), ctx.view.format);
  if (!edit) return ctx.announce(`"${labelOf(item.wire)}" cannot be split at ${formatTime(t, ctx.view.format)}`);
  const outcome = await save(ctx, edit);
  const second = outcome?.created[0] && ctx.model.items.get(outcome.created[0].wire.id);
  if (second) hooks.select(second);
}

/** M: the selected block merged with the next block of its tier, their texts joined with a space. */
export async function mergeSelected(ctx: PageContext, hooks: ActionHooks): Promise<void> {
  const item = selectedItem(ctx);
  if (!item) return ctx.announce('select a block to merge first (arrow keys)');
  const lane = ctx.model.laneOf(item);
  const next = lane ? ctx.model.sorted(lane)[ctx.model.indexIn(lane, item) + 1] : undefined;
  if (!next) return ctx.announce(`"${labelOf(item.wire)}" is the last block of its tier: there is nothing to merge it with`);
  const edit = mergeEdit(item, next, { item: etagFor(ctx, item), next: etagFor(ctx, next) });
  if (!edit) return ctx.announce(`"${labelOf(item.wire)}" or the next block takes its times from a parent annotation and cannot be merged`);
  if (await save(ctx, edit)) hooks.select(ctx.model.items.get(item.wire.id) ?? null);
}

/** Ctrl+Z or Ctrl+Shift+Z: the page's last edit undone, or the last undone one done again. */
export async function undoOrRedo(ctx: PageContext, hooks: ActionHooks, which: 'undo' | 'redo'): Promise<void> {
  // An edit still on its way is the one to undo: its step is recorded when its answer comes.
  await settled();
  const edit = ctx.history.take(which);
  if (!edit) return ctx.announce(which === 'undo' ? 'nothing to undo' : 'nothing to redo');
  const outcome = await save(ctx, edit);
  if (!outcome) return;
  const shown = [...outcome.updated, ...outcome.created].map((saved) => ctx.model.items.get(saved.wire.id)).find((item): item is Item => item !== undefined);
  if (shown) hooks.select(shown);
  else if (ctx.view.selected !== null && !ctx.model.items.has(ctx.view.selected)) hooks.select(null);
}

// The keyboard on the timeline (the keys are listed in keys.ts and by the help overlay on ?).
// The lanes' keys act while the timeline has the focus (Tab, or a click on the lanes, puts it
// there) or nothing has; Space, ? and Escape work from anywhere but a text field or a button, and
// undo and redo from anywhere but a text field (which has its own).
import { actionOf, type KeyAction } from './keys.js';
import type { MediaControl } from './media.js';
import { entryBlock, moveFrom, nearestIn, type Move } from './navigation.js';
import type { Item, Lane } from './model.js';
import type { Nudger } from './nudge.js';
import type { PageContext } from './page-context.js';
import { LABEL_WIDTH } from './view.js';

export interface KeyboardHooks {
  /** The listbox that stands for the lanes. */
  timeline: HTMLElement;
  select(item: Item): void;
  edit(item: Item): void;
  fit(): void;
  showHelp(): void;
  media: MediaControl;
  nudger: Nudger;
  /** The lane N creates on became another one (Alt+↑/↓). */
  activateLane(lane: Lane): void;
  create(): void;
  deleteSelected(): void;
  split(): void;
  merge(): void;
  undo(): void;
  redo(): void;
}

const MOVES: Partial<Record<KeyAction, Move>> = { previous: 'previous', next: 'next', up: 'up', down: 'down', first: 'first', last: 'last' };
const ANYWHERE: ReadonlySet<KeyAction> = new Set(['play', 'help', 'cancel']);
const HISTORY: ReadonlySet<KeyAction> = new Set(['undo', 'redo']);

export function installKeyboard(ctx: PageContext, hooks: KeyboardHooks): void {
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || document.querySelector('dialog[open]')) return;
    const action = actionOf(event);
    if (action === null || !appliesTo(event.target, action, hooks.timeline, ctx)) return;
    event.preventDefault();
    run(ctx, hooks, action);
  });
}

/** Whether a key pressed with the focus on `target` is the timeline's, not the focused control's. */
function appliesTo(target: EventTarget | null, action: KeyAction, timeline: HTMLElement, ctx: PageContext): boolean {
  if (action === 'cancel' && ctx.notice.open) return true;
  if (target === timeline || target === document.body || target === null) return true;
  if (HISTORY.has(action) && target instanceof HTMLElement) return !target.closest('input, textarea, select, [contenteditable], #notice');
  if (!ANYWHERE.has(action) || !(target instanceof HTMLElement)) return false;
  // Text fields, buttons, menus and the player keep their own keys.
  return !target.closest('input, textarea, select, button, audio, video, [contenteditable], #notice');
}

function run(ctx: PageContext, hooks: KeyboardHooks, action: KeyAction): void {
  const { view, model } = ctx;
  const selected = view.selected === null ? undefined : model.items.get(view.selected);
  const move = MOVES[action];
  if (move) {
    const next = selected ? moveFrom(model, selected, move) : entryBlock(model, view.viewStart, view.viewEnd);
    if (next) hooks.select(next);
    else ctx.announce(selected ? `no block ${move === 'up' ? 'above' : move === 'down' ? 'below' : 'there'}` : 'no annotations');
    return;
  }
  switch (action) {
    case 'pick-start':
    case 'pick-end':
      return pickEdge(ctx, hooks, selected, action === 'pick-start' ? 'start' : 'end');
    case 'nudge-back':
    case 'nudge-forward':
      if (selected) hooks.nudger.nudge(selected, view.pickedEdge ?? 'move', action === 'nudge-forward' ? 1 : -1);
      else ctx.announce('select a block first (arrow keys)');
      return;
    case 'edit':
      if (selected) hooks.edit(selected);
      return;
    case 'play':
      if (!hooks.media.toggle()) ctx.announce('no media to play');
      return;
    case 'cancel':
      return cancel(ctx, hooks);
    case 'help':
      return hooks.showHelp();
    case 'fit':
      return hooks.fit();
    case 'lane-up':
    case 'lane-down':
      return moveLane(ctx, hooks, selected, action === 'lane-up' ? -1 : 1);
    case 'create':
      return hooks.create();
    case 'delete':
      return hooks.deleteSelected();
    case 'split':
      return hooks.split();
    case 'merge':
      return hooks.merge();
    case 'undo':
      return hooks.undo();
    case 'redo':
      return hooks.redo();
    case 'zoom-in':
    case 'zoom-out': {
      const x = selected ? view.xOf((selected.start + selected.end) / 2) : LABEL_WIDTH + view.timelineWidth / 2;
      return view.zoomAt(Math.max(x, LABEL_WIDTH), action === 'zoom-in' ? 1.5 : 1 / 1.5);
    }
  }
}

/**
 * Alt+↑/↓: the lane above or below becomes the active one (the one N creates on), empty lanes too;
 * the block of that lane at the same time (or the nearest) is selected, or none when it has none.
 */
function moveLane(ctx: PageContext, hooks: KeyboardHooks, selected: Item | undefined, direction: 1 | -1): void {
  const { model, view } = ctx;
  const current = view.activeLane === null ? -1 : model.lanes.findIndex((lane) => lane.tier.name === view.activeLane);
  const index = current < 0 ? (direction > 0 ? 0 : model.lanes.length - 1) : current + direction;
  const lane = model.lanes[index];
  if (!lane) return ctx.announce(direction > 0 ? 'no lane below' : 'no lane above');
  const at = selected ? (selected.start + selected.end) / 2 : view.playhead ?? (view.viewStart + view.viewEnd) / 2;
  const block = nearestIn(model, lane, at);
  if (block) hooks.select(block);
  hooks.activateLane(lane);
}

/** `[` or `]`: the edge the nudges move; the same key again goes back to the whole block. */
function pickEdge(ctx: PageContext, hooks: KeyboardHooks, selected: Item | undefined, edge: 'start' | 'end'): void {
  if (!selected) {
    const entry = entryBlock(ctx.model, ctx.view.viewStart, ctx.view.viewEnd);
    if (!entry) return;
    hooks.select(entry);
  }
  const { view } = ctx;
  view.pickedEdge = view.pickedEdge === edge ? null : edge;
  view.invalidate();
  ctx.announce(view.pickedEdge ? `${edge} edge: Shift with the arrow keys nudges it` : 'whole block: Shift with the arrow keys moves it');
}

/** Escape, the most recent thing first: the overlay, nudges not saved yet, the picked edge. */
function cancel(ctx: PageContext, hooks: KeyboardHooks): void {
  if (ctx.notice.open) return ctx.notice.dismiss();
  if (hooks.nudger.cancel()) return;
  if (ctx.view.pickedEdge !== null) {
    ctx.view.pickedEdge = null;
    ctx.view.invalidate();
    ctx.announce('whole block');
  }
}

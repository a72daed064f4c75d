// The timeline page: loads the store, follows the op-log stream, plays the media and draws its
// waveform, edits by mouse and keyboard (retime, text, create, delete, split, merge, undo, redo).
// This file only wires the parts together; each lives in a module of its own.
import { Api, ApiError } from './api.js';
import { deleteSelected, mergeSelected, splitSelected, undoOrRedo, type ActionHooks } from './block-actions.js';
import { BlockList } from './block-list.js';
import { $ } from './dom.js';
import { etagFor } from './etags.js';
import { History } from './history.js';
import { showInspector } from './inspector.js';
import { keysTable } from './keys.js';
import { installKeyboard } from './keyboard.js';
import { follow, load } from './live.js';
import { setUpMedia } from './media.js';
import { TimelineModel, type Item, type Lane } from './model.js';
import { createAt, createOver } from './new-annotation.js';
import { Notice } from './notice.js';
import { DEFAULT_STEP_SECONDS, Nudger } from './nudge.js';
import type { PageContext } from './page-context.js';
import { installPointer } from './pointer.js';
import { editText } from './text-editor.js';
import type { TimeFormat } from './time-format.js';
import { LANE_HEIGHT, TimelineView } from './view.js';
import { Waveform } from './waveform.js';
import type { PageConfig } from './wire.js';

const config = JSON.parse($('annot-config').textContent ?? '{}') as PageConfig;
const canvas = $<HTMLCanvasElement>('canvas');
const timeline = $('blocks');
const announcer = $('announcer');
const model = new TimelineModel();
const view = new TimelineView(canvas, model);
const ctx: PageContext = {
  api: new Api(askToken),
  model,
  view,
  notice: new Notice($('notice'), () => timeline),
  history: new History(),
  status(text, kind = 'ok') {
    const status = $('status');
    status.textContent = text;
    status.title = text;
    status.className = `status ${kind}`;
  },
  announce(text) {
    // Cleared first, so the same words said twice are announced twice.
    announcer.textContent = '';
    requestAnimationFrame(() => (announcer.textContent = text));
  },
  refreshInspector: () => showInspector($('inspector'), selectedItem(), view.format, { split: actions.split, merge: actions.merge, remove: actions.remove }),
};
const media = setUpMedia(config, ctx.api, view, $('media-box'));
if (config.media) view.waveform = new Waveform(ctx.api, () => view.invalidate());
const frame = config.media?.frame_duration;
const nudger = new Nudger(ctx, frame ? frame.v / frame.r : DEFAULT_STEP_SECONDS);
const blockList = new BlockList(timeline, model, view);
let ready = false;
let stream: EventSource | null = null;

/** What the keys and buttons that make, remove and undo blocks need of the page. */
const actionHooks: ActionHooks = {
  select: (item) => select(item, true),
  playhead: () => view.playhead ?? Math.max(0, view.viewStart),
};
const actions = {
  split: () => void splitSelected(ctx, actionHooks),
  merge: () => void mergeSelected(ctx, actionHooks),
  remove: () => void deleteSelected(ctx, actionHooks),
  undo: () => void undoOrRedo(ctx, actionHooks, 'undo'),
  redo: () => void undoOrRedo(ctx, actionHooks, 'redo'),
};

function askToken(retry: boolean): Promise<string> {
  const dialog = $<HTMLDialogElement>('token-dialog');
  const input = $<HTMLInputElement>('token-input');
  dialog.querySelector('p')!.textContent = retry ? 'That token was refused; try again.' : 'This server needs a token (the --token it was started with).';
  input.value = '';
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(input.value.trim()), { once: true });
  });
}

function selectedItem(): Item | null {
  return (view.selected !== null && model.items.get(view.selected)) || null;
}

/**
 * Selects a block (or nothing): drawn, listed as the active option, shown in the inspector; its
 * lane becomes the active one. From the keyboard it is also brought into view (a click leaves the
 * view alone: a drag may follow).
 */
function select(item: Item | null, fromKeyboard = false): void {
  if (item?.wire.id !== view.selected) view.pickedEdge = null;
  view.selected = item?.wire.id ?? null;
  if (item) view.activeLane = item.wire.tier;
  view.invalidate();
  ctx.refreshInspector();
  if (!item) return;
  if (fromKeyboard) {
    view.reveal(item);
    const lane = model.laneOf(item);
    if (lane) revealLane(lane);
    if (document.activeElement === document.body) focusTimeline();
  }
  if (item.etag === null) void etagFor(ctx, item).then(() => view.selected === item.wire.id && ctx.refreshInspector());
}

/** The lane N creates on; the selection goes when it is on another lane. */
function activateLane(lane: Lane): void {
  const item = selectedItem();
  if (item && item.wire.tier !== lane.tier.name) select(null);
  view.activeLane = lane.tier.name;
  view.invalidate();
  revealLane(lane);
  const parent = lane.tier.parent ? `, under ${lane.tier.parent}` : '';
  ctx.announce(`lane ${lane.tier.name} (${lane.tier.stereotype}${parent}), ${lane.items.length} annotations: N makes a new one here`);
}

/** N: a new annotation on the active lane at the playhead. */
function create(): void {
  const lane = view.activeLane === null ? undefined : model.laneNamed(view.activeLane);
  if (!lane) return ctx.announce('pick a lane first: select a block with the arrow keys, Alt with Up or Down, or click the lane');
  createAt(ctx, { select: (item) => select(item, true), focusTimeline }, lane, actionHooks.playhead());
}

/** Scrolls the lanes up or down so the lane shows. */
function revealLane(lane: Lane): void {
  const box = canvas.parentElement!;
  const top = view.laneTop(lane);
  if (top < box.scrollTop + view.lanesTop) box.scrollTop = top - view.lanesTop;
  else if (top + LANE_HEIGHT > box.scrollTop + box.clientHeight) box.scrollTop = top + LANE_HEIGHT - box.clientHeight;
}

function focusTimeline(): void {
  timeline.focus({ preventScroll: true });
}

function edit(item: Item): void {
  select(item);
  editText(ctx, item, focusTimeline);
}

function showHelp(): void {
  const dialog = $<HTMLDialogElement>('help-dialog');
  $('help-keys').replaceChildren(keysTable());
  dialog.showModal();
}

function wireChrome(): void {
  $<HTMLSelectElement>('time-format').addEventListener('change', (event) => {
    view.format = (event.target as HTMLSelectElement).value as TimeFormat;
    view.invalidate();
    ctx.refreshInspector();
  });
  $('zoom-fit').addEventListener('click', () => view.fit(media.duration()));
  $('undo-button').addEventListener('click', actions.undo);
  $('redo-button').addEventListener('click', actions.redo);
  $('help-button').addEventListener('click', showHelp);
  $('help-dialog').addEventListener('close', () => focusTimeline());
  window.addEventListener('resize', () => view.invalidate());
  timeline.addEventListener('focus', () => (view.focused = true));
  timeline.addEventListener('blur', () => (view.focused = false));
  for (const type of ['focus', 'blur']) timeline.addEventListener(type, () => view.invalidate());
}

/** The undo and redo buttons: enabled when there is something to undo or redo, named by it. */
function showHistory(): void {
  for (const which of ['undo', 'redo'] as const) {
    const button = $<HTMLButtonElement>(`${which}-button`);
    const step = ctx.history.peek(which);
    const title = step ? `${which} the ${step.label} (${which === 'undo' ? 'Ctrl+Z' : 'Ctrl+Shift+Z'})` : `nothing to ${which}`;
    if (button.disabled !== !step) button.disabled = !step;
    if (button.title !== title) button.title = title;
  }
}

function loop(): void {
  view.frame();
  if (ready) {
    blockList.update();
    showHistory();
  }
  requestAnimationFrame(loop);
}

async function start(): Promise<void> {
  wireChrome();
  requestAnimationFrame(loop);
  const clock = await load(ctx);
  view.fit(media.duration());
  view.frame();
  view.waveform?.start(view.pxPerSecond);
  installPointer(ctx, canvas, {
    select: (item) => select(item),
    seek: (t) => media.seek(t),
    edit,
    focusTimeline,
    activateLane: (lane) => {
      select(null);
      activateLane(lane);
    },
    createOver: (lane, from, to) => createOver(ctx, { select: (item) => select(item, true), focusTimeline }, lane, from, to),
  });
  installKeyboard(ctx, {
    timeline,
    select: (item) => select(item, true),
    edit,
    fit: () => view.fit(media.duration()),
    showHelp,
    media,
    nudger,
    activateLane,
    create,
    deleteSelected: actions.remove,
    split: actions.split,
    merge: actions.merge,
    undo: actions.undo,
    redo: actions.redo,
  });
  stream = follow(ctx, clock, {
    changed: (id) => id === view.selected && ctx.refreshInspector(),
    deleted: (id) => id === view.selected && select(null),
  });
  ready = true;
}

// For tests and the curious: the model and view, and where a block is on screen.
(window as unknown as { annotTimeline: unknown }).annotTimeline = {
  model,
  view,
  history: ctx.history,
  get ready() {
    return ready;
  },
  blockList,
  blockCenter: (id: string) => view.blockCenter(id),
  close: () => stream?.close(),
};

start().catch((error: unknown) => ctx.status(`could not load: ${error instanceof ApiError ? `${error.code}: ${error.message}` : String(error)}`, 'error'));

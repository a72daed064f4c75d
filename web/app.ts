// The timeline page: loads the store, follows the op-log stream, plays the media, edits by mouse
// and keyboard. This file only wires the parts together; each lives in a module of its own.
import { Api, ApiError } from './api.js';
import { BlockList } from './block-list.js';
import { $ } from './dom.js';
import { etagFor } from './etags.js';
import { showInspector } from './inspector.js';
import { keysTable } from './keys.js';
import { installKeyboard } from './keyboard.js';
import { follow, load } from './live.js';
import { setUpMedia } from './media.js';
import { TimelineModel, type Item } from './model.js';
import { Notice } from './notice.js';
import { DEFAULT_STEP_SECONDS, Nudger } from './nudge.js';
import type { PageContext } from './page-context.js';
import { installPointer } from './pointer.js';
import { editText } from './text-editor.js';
import type { TimeFormat } from './time-format.js';
import { AXIS_HEIGHT, LANE_HEIGHT, TimelineView } from './view.js';
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
  refreshInspector: () => showInspector($('inspector'), selectedItem(), view.format),
};
const media = setUpMedia(config, ctx.api, view, $('media-box'));
const frame = config.media?.frame_duration;
const nudger = new Nudger(ctx, frame ? frame.v / frame.r : DEFAULT_STEP_SECONDS);
const blockList = new BlockList(timeline, model, view);
let ready = false;
let stream: EventSource | null = null;

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
 * Selects a block (or nothing): drawn, listed as the active option, shown in the inspector. From
 * the keyboard it is also brought into view (a click leaves the view alone: a drag may follow).
 */
function select(item: Item | null, fromKeyboard = false): void {
  if (item?.wire.id !== view.selected) view.pickedEdge = null;
  view.selected = item?.wire.id ?? null;
  view.invalidate();
  ctx.refreshInspector();
  if (!item) return;
  if (fromKeyboard) {
    view.reveal(item);
    revealLane(item);
    if (document.activeElement === document.body) focusTimeline();
  }
  if (item.etag === null) void etagFor(ctx, item).then(() => view.selected === item.wire.id && ctx.refreshInspector());
}

/** Scrolls the lanes up or down so the block's lane shows. */
function revealLane(item: Item): void {
  const lane = model.laneOf(item);
  const box = canvas.parentElement!;
  if (!lane) return;
  const top = view.laneTop(lane);
  if (top < box.scrollTop + AXIS_HEIGHT) box.scrollTop = top - AXIS_HEIGHT;
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
  $('help-button').addEventListener('click', showHelp);
  $('help-dialog').addEventListener('close', () => focusTimeline());
  window.addEventListener('resize', () => view.invalidate());
  timeline.addEventListener('focus', () => (view.focused = true));
  timeline.addEventListener('blur', () => (view.focused = false));
  for (const type of ['focus', 'blur']) timeline.addEventListener(type, () => view.invalidate());
}

function loop(): void {
  view.frame();
  if (ready) blockList.update();
  requestAnimationFrame(loop);
}

async function start(): Promise<void> {
  wireChrome();
  requestAnimationFrame(loop);
  const clock = await load(ctx);
  view.fit(media.duration());
  installPointer(ctx, canvas, { select: (item) => select(item), seek: (t) => media.seek(t), edit, focusTimeline });
  installKeyboard(ctx, { timeline, select: (item) => select(item, true), edit, fit: () => view.fit(media.duration()), showHelp, media, nudger });
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
  get ready() {
    return ready;
  },
  blockList,
  blockCenter: (id: string) => view.blockCenter(id),
  close: () => stream?.close(),
};

start().catch((error: unknown) => ctx.status(`could not load: ${error instanceof ApiError ? `${error.code}: ${error.message}` : String(error)}`, 'error'));

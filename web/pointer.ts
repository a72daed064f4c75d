// The mouse on the lanes: select, drag a block's body or edge to retime it, drag across an empty stretch
// of a lane to create an annotation there (a click there moves the playhead and picks the lane), zoom,
// and seek or pan on the axis and the waveform.
import { $ } from './dom.js';
import { retimeEdit, type Grab } from './edits.js';
import { etagFor } from './etags.js';
import type { Item, Lane } from './model.js';
import { dragSpan } from './new-annotation.js';
import type { PageContext } from './page-context.js';
import { save } from './saving.js';
import { formatTime } from './time-format.js';
import { LABEL_WIDTH } from './view.js';

export interface PointerHooks {
  select(item: Item): void;
  seek(seconds: number): void;
  edit(item: Item): void;
  /** A press on the lanes puts the keyboard there too. */
  focusTimeline(): void;
  /** A press on a lane's empty stretch or label: it becomes the lane N creates on. */
  activateLane(lane: Lane): void;
  /** A drag across an empty stretch of a lane, released. */
  createOver(lane: Lane, from: number, to: number): void;
}

/** A drag across an empty stretch of a lane, drawn as the new block it would make. */
interface Sweep {
  lane: Lane;
  from: number;
  startX: number;
  moved: boolean;
}

interface Drag {
  item: Item;
  grab: Grab;
  startX: number;
  origStart: number;
  origEnd: number;
  etag: Promise<string>;
  moved: boolean;
  /** The TIME_SUBDIVISION sibling sharing the dragged edge: its edge moves too. */
  neighbour: { item: Item; origStart: number; origEnd: number; etag: Promise<string> } | null;
}

interface PointerState {
  drag: Drag | null;
  pan: { x: number; moved: boolean } | null;
  sweep: Sweep | null;
}

export function installPointer(ctx: PageContext, canvas: HTMLCanvasElement, hooks: PointerHooks): void {
  const state: PointerState = { drag: null, pan: null, sweep: null };
  const local = (event: MouseEvent) => {
    const box = canvas.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };
  canvas.addEventListener('mousedown', (event) => {
    if (event.button !== 0) return;
    event.preventDefault();
    hooks.focusTimeline();
    press(ctx, state, hooks, local(event), event.clientX);
  });
  window.addEventListener('mousemove', (event) => move(ctx, state, canvas, event, local(event)));
  window.addEventListener('mouseup', (event) => {
    release(ctx, state);
    releaseSweep(ctx, state, hooks, local(event).x);
  });
  canvas.addEventListener('dblclick', (event) => {
    const { x, y } = local(event);
    const hit = ctx.view.hit(x, y);
    if (hit) hooks.edit(hit.item);
  });
  canvas.addEventListener('wheel', (event) => {
    event.preventDefault();
    const { x } = local(event);
    // Pinch on a trackpad arrives as a wheel event with ctrlKey; shift or a sideways swipe pans.
    if (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY)) ctx.view.panBy(event.shiftKey ? event.deltaY : event.deltaX);
    else ctx.view.zoomAt(Math.max(x, LABEL_WIDTH), Math.exp(-event.deltaY * (event.ctrlKey ? 0.01 : 0.0015)));
  }, { passive: false });
}

function press(ctx: PageContext, state: PointerState, hooks: PointerHooks, { x, y }: { x: number; y: number }, clientX: number): void {
  // The axis and the waveform under it: a click seeks, a drag pans.
  if (y < ctx.view.lanesTop && x > LABEL_WIDTH) {
    hooks.seek(ctx.view.timeAt(x));
    state.pan = { x: clientX, moved: false };
    return;
  }
  const hit = ctx.view.hit(x, y);
  const lane = ctx.view.laneAt(y);
  if (!hit && lane) {
    hooks.activateLane(lane);
    if (x > LABEL_WIDTH) state.sweep = { lane, from: ctx.view.timeAt(x), startX: x, moved: false };
    return;
  }
  if (!hit) {
    state.pan = { x: clientX, moved: false };
    return;
  }
  hooks.select(hit.item);
  const sibling = hit.grab === 'move' ? null : ctx.model.sharingEdge(hit.item, hit.grab);
  const neighbour = sibling && { item: sibling, origStart: sibling.start, origEnd: sibling.end, etag: etagFor(ctx, sibling) };
  state.drag = { item: hit.item, grab: hit.grab, startX: x, origStart: hit.item.start, origEnd: hit.item.end, etag: etagFor(ctx, hit.item), moved: false, neighbour };
}

function move(ctx: PageContext, state: PointerState, canvas: HTMLCanvasElement, event: MouseEvent, { x, y }: { x: number; y: number }): void {
  const { view } = ctx;
  const { drag, pan, sweep } = state;
  if (sweep) {
    if (Math.abs(x - sweep.startX) > 2) sweep.moved = true;
    if (!sweep.moved) return;
    const span = dragSpan(ctx.model, sweep.lane, sweep.from, view.timeAt(x));
    view.draft = span && { tier: sweep.lane.tier.name, ...span };
    view.invalidate();
    return;
  }
  if (drag) {
    const dt = (x - drag.startX) / view.pxPerSecond;
    if (Math.abs(x - drag.startX) > 2) drag.moved = true;
    if (!drag.moved || drag.item.wire.reference.kind !== 'media') return;
    let start = drag.origStart;
    let end = drag.origEnd;
    const { neighbour } = drag;
    if (drag.grab === 'move') {
      start += dt;
      end += dt;
    } else if (drag.grab === 'start') start = Math.min(Math.max(drag.origStart + dt, neighbour?.origStart ?? -Infinity), end);
    else end = Math.max(Math.min(drag.origEnd + dt, neighbour?.origEnd ?? Infinity), start);
    view.previews = [{ id: drag.item.wire.id, start, end }];
    // The shared boundary moves for both blocks, each kept from turning inside out.
    if (neighbour && drag.grab === 'start') view.previews.push({ id: neighbour.item.wire.id, start: neighbour.origStart, end: start });
    if (neighbour && drag.grab === 'end') view.previews.push({ id: neighbour.item.wire.id, start: end, end: neighbour.origEnd });
    view.invalidate();
    return;
  }
  if (pan) {
    if (Math.abs(event.clientX - pan.x) > 2) pan.moved = true;
    view.panBy(pan.x - event.clientX);
    pan.x = event.clientX;
    return;
  }
  if (event.target === canvas) {
    const hit = view.hit(x, y);
    canvas.style.cursor = hit ? (hit.grab === 'move' ? 'grab' : 'ew-resize') : y < view.lanesTop ? 'pointer' : view.laneAt(y) && x > LABEL_WIDTH ? 'crosshair' : 'default';
    $('cursor-time').textContent = x > LABEL_WIDTH ? formatTime(view.timeAt(x), view.format) : '';
  }
}

function release(ctx: PageContext, state: PointerState): void {
  state.pan = null;
  const { drag } = state;
  if (!drag) return;
  const { item, moved, etag, grab, neighbour } = drag;
  const [preview] = ctx.view.previews;
  state.drag = null;
  ctx.view.previews = [];
  ctx.view.invalidate();
  if (!moved || !preview) return;
  const etags = new Map([[item, etag], ...(neighbour ? [[neighbour.item, neighbour.etag] as const] : [])]);
  const edit = retimeEdit(item, grab, preview.start, preview.end, neighbour?.item ?? null, (it) => etags.get(it)!);
  if (!edit) return;
  // Shown at their new place at once; the saved versions replace them, a refusal puts them back.
  const before = edit.parts.map((part) => ctx.model.items.get(part.id)!.wire);
  edit.parts.forEach((part, index) => ctx.model.upsert({ ...before[index], ...part.patch }, null));
  void save(ctx, edit).then(() => {
    for (const wire of before) {
      const now = ctx.model.items.get(wire.id);
      if (now && now.etag === null) ctx.model.upsert(wire, null);
    }
  });
}

/** A sweep let go: a new annotation over the stretch; no drag at all is a click, which moves the playhead there. */
function releaseSweep(ctx: PageContext, state: PointerState, hooks: PointerHooks, x: number): void {
  const { sweep } = state;
  if (!sweep) return;
  state.sweep = null;
  if (!sweep.moved) {
    hooks.seek(sweep.from);
    return;
  }
  ctx.view.draft = null;
  hooks.createOver(sweep.lane, sweep.from, ctx.view.timeAt(x));
}

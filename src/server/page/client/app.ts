// The timeline page: loads the store, follows the op-log stream, plays the media, edits by drag and double-click.
import { Api, ApiError, type AnnotationWire, type OpLogEvent, type TierWire, type Time } from './api.js';
import { labelOf, sameTime, TimelineModel, type Item } from './model.js';
import { formatTime, type TimeFormat } from './time-format.js';
import { AXIS_HEIGHT, LABEL_WIDTH, TimelineView, type Grab } from './view.js';

interface PageConfig {
  media: { url: string; element: 'video' | 'audio' } | null;
}

/** The largest page of annotations a list request may ask for (the server's MAX_LIST_LIMIT). */
const PAGE_LIMIT = 100_000;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const config = JSON.parse($('annot-config').textContent ?? '{}') as PageConfig;
const statusEl = $('status');
const inspector = $('inspector');
const conflictEl = $('conflict');
const canvas = $<HTMLCanvasElement>('canvas');

const api = new Api(askToken);
const model = new TimelineModel();
const view = new TimelineView(canvas, model);
let media: HTMLMediaElement | null = null;
let ready = false;
let stream: EventSource | null = null;

function setStatus(text: string, kind: 'ok' | 'busy' | 'error' = 'ok'): void {
  statusEl.textContent = text;
  statusEl.className = `status ${kind}`;
}

// ---- token -------------------------------------------------------------------------------------

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

// ---- loading and the live stream ---------------------------------------------------------------

async function load(): Promise<void> {
  setStatus('loading…', 'busy');
  // The clock first: the stream then starts right after it, and entries applied twice are harmless.
  const { value: latest } = await api.request<{ clock: number }>('GET', '/oplog/latest-clock');
  const { value: tiers } = await api.request<TierWire[]>('GET', '/tiers');
  model.setTiers(tiers);
  for (const tier of tiers) {
    // A tier of any size: follow the listing's `Link: <…>; rel="next"` cursor until it ends.
    let path: string | undefined = `/annotations?tier=${encodeURIComponent(tier.name)}&limit=${PAGE_LIMIT}`;
    while (path !== undefined) {
      const answer: { value: AnnotationWire[]; headers: Headers } = await api.request<AnnotationWire[]>('GET', path);
      model.load(answer.value);
      path = nextPage(answer.headers.get('Link'));
    }
  }
  model.clock = latest.clock;
  view.fit();
  ready = true;
  setStatus(`${model.items.size} annotations`);
  follow(latest.clock);
}

/** The path of the next page named by a `Link` header, if there is one. */
function nextPage(link: string | null): string | undefined {
  const match = link?.match(/<([^>]+)>\s*;\s*rel="next"/);
  return match ? match[1] : undefined;
}

function follow(after: number): void {
  stream = new EventSource(api.withToken(`/oplog/stream?from_clock=${after + 1}`));
  stream.onopen = () => setStatus(`live · clock ${model.clock} · ${model.items.size} annotations`);
  stream.onmessage = (message) => {
    apply(JSON.parse(message.data) as OpLogEvent);
    setStatus(`live · clock ${model.clock} · ${model.items.size} annotations`);
  };
  stream.onerror = () => setStatus('stream interrupted, reconnecting…', 'busy');
}

function apply(event: OpLogEvent): void {
  if (event.clock <= model.clock) return;
  model.clock = event.clock;
  switch (event.kind) {
    case 'add_tier':
      model.upsertTier(event.payload.tier as TierWire);
      break;
    case 'add_annotation':
    case 'update_annotation': {
      const item = model.upsert(event.payload.annotation as AnnotationWire, event.etag ?? null);
      if (view.selected === item.wire.id) showInspector(item);
      break;
    }
    case 'delete_annotation':
      model.remove(String(event.target_id));
      if (view.selected === event.target_id) select(null);
      break;
    case 'set_meta':
      break;
  }
}

// ---- selection and the inspector ---------------------------------------------------------------

function select(item: Item | null): void {
  view.selected = item?.wire.id ?? null;
  view.invalidate();
  if (!item) {
    inspector.innerHTML = '<p class="hint">Nothing selected.</p>';
    return;
  }
  showInspector(item);
  if (item.etag === null) void ensureEtag(item).then(() => view.selected === item.wire.id && showInspector(item));
}

/** The ETag of the version on screen; fetched when the list did not carry one. */
async function ensureEtag(item: Item): Promise<string> {
  if (item.etag !== null) return item.etag;
  const answer = await api.request<AnnotationWire>('GET', `/annotations/${item.wire.id}`);
  const current = model.items.get(item.wire.id);
  if (current) model.upsert(answer.value, answer.etag);
  return answer.etag ?? '';
}

function showInspector(item: Item): void {
  const { wire } = item;
  const format = view.format;
  inspector.replaceChildren(
    el('h2', {}, labelOf(wire)),
    el('dl', {},
      el('dt', {}, 'tier'), el('dd', {}, wire.tier),
      el('dt', {}, 'time'), el('dd', { className: 'mono' }, `${formatTime(item.start, format)} → ${formatTime(item.end, format)}`),
      el('dt', {}, 'ETag'), el('dd', { className: 'mono', id: 'inspector-etag' }, item.etag ?? '(fetching…)'),
    ),
    el('h3', {}, 'provenance'),
    el('pre', {}, JSON.stringify(wire.provenance, null, 2)),
    el('h3', {}, 'wire form'),
    el('pre', { id: 'inspector-wire' }, JSON.stringify(wire, null, 2)),
  );
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]>, ...children: Array<string | Node>): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

// ---- editing: retime and relabel, guarded by If-Match ------------------------------------------

/** One annotation's part of an edit. */
interface EditPart {
  id: string;
  /** What the user asked for, as a PATCH body. */
  patch: Record<string, unknown>;
  /** The ETag of the version the user started from. */
  etag: Promise<string>;
}

/** What the user did: one annotation changed, or two at once (a shared boundary), saved together or not at all. */
interface Edit {
  parts: EditPart[];
  describe: string;
}

async function save(edit: Edit): Promise<void> {
  setStatus(`saving ${edit.describe}…`, 'busy');
  let etags: string[];
  try {
    etags = await Promise.all(edit.parts.map((part) => part.etag));
  } catch (error) {
    return failed(edit, error);
  }
  try {
    let clock: string | null;
    if (edit.parts.length === 1) {
      const [{ id, patch }] = edit.parts;
      const answer = await api.request<AnnotationWire>('PATCH', `/annotations/${id}`, patch, { 'If-Match': etags[0] });
      model.upsert(answer.value, answer.etag);
      clock = answer.headers.get('X-Service-Clock');
    } else {
      // Several annotations in one request: the server applies them in one transaction, or none.
      const updates = edit.parts.map(({ id, patch }, index) => ({ id, if_match: etags[index], patch }));
      const answer = await api.request<{ updated: Array<{ etag: string; annotation: AnnotationWire }> }>('PATCH', '/annotations', { updates });
      for (const { annotation, etag } of answer.value.updated) model.upsert(annotation, etag);
      clock = answer.headers.get('X-Service-Clock');
    }
    const selected = view.selected === null ? undefined : model.items.get(view.selected);
    if (selected && edit.parts.some((part) => part.id === selected.wire.id)) showInspector(selected);
    setStatus(`saved ${edit.describe} · clock ${clock ?? '?'}`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 412) return conflict(edit);
    return failed(edit, error);
  }
}

/** The edit's patches as the panels show them: the patch of a single annotation, or each with its id. */
function patchesOf(edit: Edit): string {
  const shown = edit.parts.length === 1 ? edit.parts[0].patch : edit.parts.map(({ id, patch }) => ({ id, patch }));
  return JSON.stringify(shown, null, 2);
}

/** Someone else changed an annotation first: show the current versions, keep ours, let the user choose. */
async function conflict(edit: Edit): Promise<void> {
  setStatus('conflict: the annotation changed since you started', 'error');
  const current: Array<{ value: AnnotationWire; etag: string | null } | null> = [];
  for (const part of edit.parts) {
    try {
      const answer = await api.request<AnnotationWire>('GET', `/annotations/${part.id}`);
      model.upsert(answer.value, answer.etag);
      current.push(answer);
    } catch {
      current.push(null); // Deleted meanwhile: shown below.
    }
  }
  const shown = current.map((answer) => (answer ? answer.value : '(it has been deleted)'));
  const allThere = current.every((answer) => answer !== null);
  const retry = el('button', { type: 'button', id: 'conflict-retry', className: 'primary' }, 'Apply my change to the current version');
  const discard = el('button', { type: 'button', id: 'conflict-discard' }, 'Discard my change');
  conflictEl.replaceChildren(
    el('h2', {}, `412 · someone else changed ${edit.parts.length === 1 ? 'this annotation' : 'one of these annotations'} first`),
    el('p', {}, `Your change (${edit.describe}) was not saved. Below is the current version; apply your change on top of it, or discard it.`),
    el('h3', {}, 'current version'),
    el('pre', { id: 'conflict-current' }, edit.parts.length === 1 && current[0] === null ? '(it has been deleted)' : JSON.stringify(edit.parts.length === 1 ? shown[0] : shown, null, 2)),
    el('h3', {}, 'your change'),
    el('pre', {}, patchesOf(edit)),
    el('div', { className: 'actions' }, ...(allThere ? [retry] : []), discard),
  );
  conflictEl.hidden = false;
  retry.onclick = () => {
    conflictEl.hidden = true;
    void save({ ...edit, parts: edit.parts.map((part, index) => ({ ...part, etag: Promise.resolve(current[index]?.etag ?? '') })) });
  };
  discard.onclick = () => {
    conflictEl.hidden = true;
    setStatus(`discarded ${edit.describe}`);
  };
}

/**
 * The server refused the change because it would break a tier constraint (a block dragged past
 * its parent or a child): retrying cannot help, so the panel says why and the blocks are back
 * where they were (the caller restores them).
 */
function refused(edit: Edit, error: ApiError): void {
  setStatus(`refused ${edit.describe}: ${error.message}`, 'error');
  const ok = el('button', { type: 'button', id: 'refused-ok', className: 'primary' }, 'OK');
  const back = edit.parts.length === 1 ? 'the annotation is back where it was' : 'the annotations are back where they were';
  conflictEl.replaceChildren(
    el('h2', {}, `${error.status} · refused: the change would break a tier constraint`),
    el('p', { id: 'refused-message' }, error.message),
    el('p', {}, `Your change (${edit.describe}) was not saved; ${back}. Edit the annotations it names first, then try again.`),
    el('div', { className: 'actions' }, ok),
  );
  conflictEl.hidden = false;
  ok.onclick = () => {
    conflictEl.hidden = true;
  };
}

/** Any other failure: the change is kept on screen with the error until retried or discarded. */
function failed(edit: Edit, error: unknown): void {
  if (error instanceof ApiError && error.code === 'ANNOT_TIER_CONSTRAINT') return refused(edit, error);
  const message = error instanceof ApiError ? `${error.status} ${error.code}: ${error.message}` : String(error);
  setStatus(`not saved: ${message}`, 'error');
  const retry = el('button', { type: 'button', className: 'primary' }, 'Retry');
  const discard = el('button', { type: 'button' }, 'Discard my change');
  conflictEl.replaceChildren(el('h2', {}, 'not saved'), el('p', {}, message), el('pre', {}, patchesOf(edit)), el('div', { className: 'actions' }, retry, discard));
  conflictEl.hidden = false;
  retry.onclick = () => {
    conflictEl.hidden = true;
    void save(edit);
  };
  discard.onclick = () => {
    conflictEl.hidden = true;
    setStatus(`discarded ${edit.describe}`);
  };
}

/** A time at the annotation's own rate, so the stored value keeps its exactness. */
function timeAtRate(seconds: number, rate: number): Time {
  return { v: Math.round(seconds * rate), r: rate };
}

function retimePatch(item: Item, start: number, end: number): Record<string, unknown> | null {
  const reference = item.wire.reference;
  if (reference.kind !== 'media') return null;
  const rate = Math.max(reference.interval.start.r, reference.interval.end.r);
  const s = timeAtRate(Math.max(0, start), rate);
  const e = timeAtRate(Math.max(0, end), rate);
  if (s.v === reference.interval.start.v * (rate / reference.interval.start.r) && e.v === reference.interval.end.v * (rate / reference.interval.end.r)) return null;
  return { reference: { kind: 'media', asset_id: reference.asset_id, interval: { start: s, end: e } } };
}

/** The same annotation with one edge at an exact time, the other kept as it is; null when nothing changes. */
function edgePatch(item: Item, edge: 'start' | 'end', time: Time): Record<string, unknown> | null {
  const reference = item.wire.reference;
  if (reference.kind !== 'media' || sameTime(reference.interval[edge], time)) return null;
  const exact = ({ v, r }: Time): Time => ({ v, r });
  const interval = { start: exact(reference.interval.start), end: exact(reference.interval.end), [edge]: time };
  return { reference: { kind: 'media', asset_id: reference.asset_id, interval } };
}

/** The boundary two blocks share, at the finer of their rates, so both store the very same time. */
function boundaryTime(seconds: number, item: Item, neighbour: Item): Time {
  const rates = [item, neighbour].flatMap(({ wire }) => (wire.reference.kind === 'media' ? [wire.reference.interval.start.r, wire.reference.interval.end.r] : []));
  return timeAtRate(Math.max(0, seconds), Math.max(...rates));
}

// ---- pointer: select, drag, pan, zoom, seek ----------------------------------------------------

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

let drag: Drag | null = null;
let pan: { x: number; moved: boolean } | null = null;

function local(event: MouseEvent): { x: number; y: number } {
  const box = canvas.getBoundingClientRect();
  return { x: event.clientX - box.left, y: event.clientY - box.top };
}

canvas.addEventListener('mousedown', (event) => {
  if (event.button !== 0 || !ready) return;
  const { x, y } = local(event);
  if (y < AXIS_HEIGHT && x > LABEL_WIDTH) {
    seek(view.timeAt(x));
    pan = { x: event.clientX, moved: false };
    return;
  }
  const hit = view.hit(x, y);
  if (!hit) {
    pan = { x: event.clientX, moved: false };
    return;
  }
  select(hit.item);
  const etag = ensureEtag(hit.item);
  etag.catch(() => undefined);
  const sibling = hit.grab === 'move' ? null : model.sharingEdge(hit.item, hit.grab);
  let neighbour: Drag['neighbour'] = null;
  if (sibling) {
    neighbour = { item: sibling, origStart: sibling.start, origEnd: sibling.end, etag: ensureEtag(sibling) };
    neighbour.etag.catch(() => undefined);
  }
  drag = { item: hit.item, grab: hit.grab, startX: x, origStart: hit.item.start, origEnd: hit.item.end, etag, moved: false, neighbour };
});

window.addEventListener('mousemove', (event) => {
  const { x, y } = local(event);
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
    canvas.style.cursor = hit ? (hit.grab === 'move' ? 'grab' : 'ew-resize') : y < AXIS_HEIGHT ? 'pointer' : 'default';
    $('cursor-time').textContent = x > LABEL_WIDTH ? formatTime(view.timeAt(x), view.format) : '';
  }
});

window.addEventListener('mouseup', () => {
  pan = null;
  if (!drag) return;
  const { item, moved, etag, grab, neighbour } = drag;
  const [preview] = view.previews;
  drag = null;
  view.previews = [];
  view.invalidate();
  if (!moved || !preview) return;
  let parts: EditPart[];
  let describe: string;
  if (neighbour && grab !== 'move') {
    const time = boundaryTime(grab === 'start' ? preview.start : preview.end, item, neighbour.item);
    const mine = edgePatch(item, grab, time);
    const theirs = edgePatch(neighbour.item, grab === 'start' ? 'end' : 'start', time);
    if (!mine || !theirs) return;
    parts = [
      { id: item.wire.id, patch: mine, etag },
      { id: neighbour.item.wire.id, patch: theirs, etag: neighbour.etag },
    ];
    describe = `boundary of "${labelOf(item.wire)}" and "${labelOf(neighbour.item.wire)}"`;
  } else {
    const patch = retimePatch(item, preview.start, preview.end);
    if (!patch) return;
    parts = [{ id: item.wire.id, patch, etag }];
    describe = `retime of "${labelOf(item.wire)}"`;
  }
  // Shown at their new place at once; the saved versions replace them, a refusal puts them back.
  const before = parts.map((part) => model.items.get(part.id)!.wire);
  parts.forEach((part, index) => model.upsert({ ...before[index], ...(part.patch as Partial<AnnotationWire>) }, null));
  void save({ parts, describe }).then(() => {
    for (const wire of before) {
      const now = model.items.get(wire.id);
      if (now && now.etag === null) model.upsert(wire, null);
    }
  });
});

canvas.addEventListener('dblclick', (event) => {
  const { x, y } = local(event);
  const hit = view.hit(x, y);
  if (!hit) return;
  editText(hit.item);
});

/** Double-click: an input over the block; Enter saves the body with the new text, Escape cancels. */
function editText(item: Item): void {
  const etag = ensureEtag(item);
  etag.catch(() => undefined);
  const center = view.blockCenter(item.wire.id);
  const input = el('input', { type: 'text', id: 'text-editor', value: labelOf(item.wire) });
  input.style.left = `${Math.max(8, (center?.x ?? 200) - 120)}px`;
  input.style.top = `${(center?.y ?? 100) - 14}px`;
  document.body.append(input);
  input.focus();
  input.select();
  const body = item.wire.body;
  let done = false;
  const finish = (commit: boolean) => {
    if (done) return;
    done = true;
    input.remove();
    if (!commit || input.value === labelOf(item.wire)) return;
    void save({ parts: [{ id: item.wire.id, patch: { body: { ...body, text: input.value } }, etag }], describe: `text "${input.value}"` });
  };
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') finish(true);
    if (event.key === 'Escape') finish(false);
  });
  input.addEventListener('blur', () => finish(true));
}

canvas.addEventListener('wheel', (event) => {
  event.preventDefault();
  const { x } = local(event);
  // Pinch on a trackpad arrives as a wheel event with ctrlKey; shift or a sideways swipe pans.
  if (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY)) view.panBy(event.shiftKey ? event.deltaY : event.deltaX);
  else view.zoomAt(Math.max(x, LABEL_WIDTH), Math.exp(-event.deltaY * (event.ctrlKey ? 0.01 : 0.0015)));
}, { passive: false });

// ---- media and the playhead ----------------------------------------------------------------------

function seek(seconds: number): void {
  const t = Math.max(0, seconds);
  view.playhead = t;
  if (media) media.currentTime = t;
  view.invalidate();
}

function setUpMedia(): void {
  if (!config.media) return;
  const box = $('media-box');
  media = document.createElement(config.media.element);
  media.id = 'media';
  media.controls = true;
  media.preload = 'metadata';
  media.src = api.withToken(config.media.url);
  box.append(media);
  box.hidden = false;
  view.playhead = 0;
  const sync = () => {
    view.playhead = media!.currentTime;
    // While playing, the view follows the playhead.
    if (!media!.paused && (view.playhead > view.viewEnd || view.playhead < view.viewStart)) view.viewStart = view.playhead - (view.viewEnd - view.viewStart) * 0.1;
    view.invalidate();
  };
  media.addEventListener('timeupdate', sync);
  media.addEventListener('seeked', sync);
  const tick = () => {
    if (media && !media.paused) sync();
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

// ---- chrome ------------------------------------------------------------------------------------

$<HTMLSelectElement>('time-format').addEventListener('change', (event) => {
  view.format = (event.target as HTMLSelectElement).value as TimeFormat;
  view.invalidate();
  const selected = view.selected && model.items.get(view.selected);
  if (selected) showInspector(selected);
});
$('zoom-fit').addEventListener('click', () => view.fit());
window.addEventListener('resize', () => view.invalidate());

function loop(): void {
  view.frame();
  requestAnimationFrame(loop);
}

// For tests and the curious: the model and view, and where a block is on screen.
(window as unknown as { annotTimeline: unknown }).annotTimeline = {
  model,
  view,
  get ready() {
    return ready;
  },
  blockCenter: (id: string) => view.blockCenter(id),
  close: () => stream?.close(),
};

requestAnimationFrame(loop);
load()
  .then(setUpMedia)
  .catch((error: unknown) => setStatus(`could not load: ${error instanceof ApiError ? `${error.code}: ${error.message}` : String(error)}`, 'error'));

// The panel beside the lanes: the selected annotation's text, tier, times, ETag, provenance and wire form.
import { el } from './dom.js';
import { labelOf, type Item } from './model.js';
import { formatTime, type TimeFormat } from './time-format.js';

/** What the inspector's buttons do to the selected block (the same as S, M and Delete). */
export interface InspectorActions {
  split(): void;
  merge(): void;
  remove(): void;
}

export function showInspector(panel: HTMLElement, item: Item | null, format: TimeFormat, actions: InspectorActions): void {
  if (!item) {
    panel.replaceChildren(el('p', { className: 'hint' }, 'Nothing selected. Tab into the timeline and use the arrow keys, or click a block; ? lists the keys. N, or a drag across an empty stretch of a lane, makes a new annotation.'));
    return;
  }
  const { wire } = item;
  const button = (id: string, label: string, key: string, run: () => void) => {
    const made = el('button', { type: 'button', id, title: `${label} (${key})` }, label);
    made.setAttribute('aria-keyshortcuts', key);
    made.onclick = run;
    return made;
  };
  panel.replaceChildren(
    el('div', { className: 'block-actions' },
      button('inspector-split', 'split at the playhead', 'S', actions.split),
      button('inspector-merge', 'merge with the next', 'M', actions.merge),
      button('inspector-delete', 'delete', 'Delete', actions.remove),
    ),
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

// The panel beside the lanes: the selected annotation's text, tier, times, ETag, provenance and wire form.
import { el } from './dom.js';
import { labelOf, type Item } from './model.js';
import { formatTime, type TimeFormat } from './time-format.js';

export function showInspector(panel: HTMLElement, item: Item | null, format: TimeFormat): void {
  if (!item) {
    panel.replaceChildren(el('p', { className: 'hint' }, 'Nothing selected. Tab into the timeline and use the arrow keys, or click a block; ? lists the keys.'));
    return;
  }
  const { wire } = item;
  panel.replaceChildren(
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

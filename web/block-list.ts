// The accessible side of the canvas: a listbox of the blocks in view, one group per lane, the
// selected block its active descendant. Only the blocks near the selection (or the middle of the
// view) are listed, a few dozen per lane, so 100,000 annotations cost what a hundred do.
import { labelOf, type Item, type Lane, type TimelineModel } from './model.js';
import { formatTime, type TimeFormat } from './time-format.js';
import type { TimelineView } from './view.js';

/** At most this many options in all, shared between the lanes (and at least a few per lane). */
const MAX_OPTIONS = 200;
const MIN_PER_SIDE = 3;

export class BlockList {
  private shown = '';
  private seen = '';
  private readonly optionIds = new Map<string, string>();

  constructor(
    private readonly root: HTMLElement,
    private readonly model: TimelineModel,
    private readonly view: TimelineView,
  ) {}

  /**
   * Called every frame: rebuilds the list when what it shows (the store, the view, the selection)
   * changed and then held still for a frame, so a pan, a zoom or playback costs no rebuild per frame.
   */
  update(): void {
    const { view } = this;
    const key = `${this.model.version}|${view.viewStart}|${view.pxPerSecond}|${view.selected}|${view.format}`;
    const settled = key === this.seen;
    this.seen = key;
    if (key === this.shown || !settled) return;
    this.shown = key;
    const selected = view.selected === null ? undefined : this.model.items.get(view.selected);
    const anchor = selected ? (selected.start + selected.end) / 2 : (view.viewStart + view.viewEnd) / 2;
    const perSide = Math.max(MIN_PER_SIDE, Math.floor(MAX_OPTIONS / Math.max(1, this.model.lanes.length) / 2));
    const groups = this.model.lanes.map((lane, index) => this.group(lane, index, this.near(lane, anchor, perSide, selected)));
    this.root.replaceChildren(...groups);
    const active = selected && this.optionIds.get(selected.wire.id);
    if (active && document.getElementById(active)) this.root.setAttribute('aria-activedescendant', active);
    else this.root.removeAttribute('aria-activedescendant');
  }

  /** The lane's blocks in view nearest the anchor, `perSide` on each side, in time order, with the selection always in. */
  private near(lane: Lane, anchor: number, perSide: number, selected: Item | undefined): Item[] {
    const items = this.model.sorted(lane);
    const at = this.model.firstStartingAt(lane, anchor);
    const inView = (item: Item) => item.end >= this.view.viewStart && item.start <= this.view.viewEnd;
    const out: Item[] = [];
    for (let i = at - 1, n = 0; i >= 0 && n < perSide && items[i].start >= this.view.viewStart - lane.maxDuration; i--) {
      if (!inView(items[i])) continue;
      out.unshift(items[i]);
      n++;
    }
    for (let i = at, n = 0; i < items.length && n < perSide && items[i].start <= this.view.viewEnd; i++) {
      if (!inView(items[i])) continue;
      out.push(items[i]);
      n++;
    }
    if (selected && this.model.laneOf(selected) === lane && !out.includes(selected)) {
      out.push(selected);
      out.sort((a, b) => a.start - b.start || a.end - b.end);
    }
    return out;
  }

  private group(lane: Lane, index: number, items: Item[]): HTMLElement {
    const group = document.createElement('div');
    group.setAttribute('role', 'group');
    const parent = lane.tier.parent ? `, under ${lane.tier.parent}` : '';
    group.setAttribute('aria-label', `tier ${lane.tier.name} (${lane.tier.stereotype}${parent}), ${lane.items.length} annotations`);
    group.dataset.lane = String(index);
    group.append(...items.map((item) => this.option(item, lane)));
    return group;
  }

  private option(item: Item, lane: Lane): HTMLElement {
    const option = document.createElement('div');
    option.setAttribute('role', 'option');
    option.id = this.optionId(item.wire.id);
    option.setAttribute('aria-selected', String(item.wire.id === this.view.selected));
    option.textContent = describeBlock(item, lane.tier.name, this.view.format);
    return option;
  }

  /** A stable element id per annotation, so the active descendant survives a rebuild (annotation ids may hold any character). */
  private optionId(id: string): string {
    let optionId = this.optionIds.get(id);
    if (optionId === undefined) {
      optionId = `block-${this.optionIds.size + 1}`;
      this.optionIds.set(id, optionId);
    }
    return optionId;
  }
}

/** A block as words: its text, its tier and its times ("the cat, A-words, 1.2 s to 1.5 s"). */
export function describeBlock(item: Item, tier: string, format: TimeFormat): string {
  return `${labelOf(item.wire)}, ${tier}, ${formatTime(item.start, format)} to ${formatTime(item.end, format)}`;
}

// Draws the lanes on one canvas, only what is in view, and maps pixels to times and blocks.
import { labelOf, type Item, type Lane, type TimelineModel } from './model.js';
import { formatTime, precisionFor, tickStep, type TimeFormat } from './time-format.js';
import type { Waveform } from './waveform.js';
import { drawWaveformLane, WAVE_HEIGHT } from './waveform-lane.js';

export const LABEL_WIDTH = 210;
export const AXIS_HEIGHT = 30;
export const LANE_HEIGHT = 36;
const EDGE_PX = 6;
/** Room "fit" leaves between the label column and 0 s, and on the right for the last tick's label. */
const FIT_MARGIN_PX = 16;
const FIT_MARGIN_RIGHT_PX = 32;
const MIN_PX_PER_SECOND = 1e-4;
const MAX_PX_PER_SECOND = 1e5;

const PALETTE = ['#4f7cff', '#2fb37a', '#e0913b', '#b45fd6', '#e05a6a', '#2aa7c0', '#8f9b2f', '#d46fa8'];

export type Grab = 'start' | 'end' | 'move';

export interface Hit {
  item: Item;
  grab: Grab;
}

/** A retime being dragged (a block, or the two blocks sharing a boundary): drawn at its preview times until it is saved. */
export interface Preview {
  id: string;
  start: number;
  end: number;
}

/** An annotation being created (its text editor open, or a drag across a lane): drawn dashed, saved only when its text is. */
export interface Draft {
  tier: string;
  start: number;
  end: number;
}

export class TimelineView {
  viewStart = 0;
  pxPerSecond = 50;
  format: TimeFormat = 'seconds';
  selected: string | null = null;
  previews: Preview[] = [];
  playhead: number | null = null;
  /** The timeline has the keyboard focus: the selected block gets a focus ring. */
  focused = false;
  /** The edge the keyboard nudges, drawn as a bar on the selected block; null nudges the whole block. */
  pickedEdge: 'start' | 'end' | null = null;
  /** The lane new annotations go on (N, a drag across it): the selected block's, or the one picked. */
  activeLane: string | null = null;
  draft: Draft | null = null;
  /** The media's waveform, drawn in a lane under the axis; null without media. */
  waveform: Waveform | null = null;
  /** A fit asked for before the canvas had a width (the media's duration, 0 if none). */
  private fitPending: number | null = null;
  private readonly ctx: CanvasRenderingContext2D;
  private width = 0;
  private height = 0;
  private drawn = -1;
  private dirty = true;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly model: TimelineModel,
  ) {
    this.ctx = canvas.getContext('2d')!;
  }

  get timelineWidth(): number {
    return Math.max(1, this.width - LABEL_WIDTH);
  }

  get viewEnd(): number {
    return this.viewStart + this.timelineWidth / this.pxPerSecond;
  }

  xOf(seconds: number): number {
    return LABEL_WIDTH + (seconds - this.viewStart) * this.pxPerSecond;
  }

  timeAt(x: number): number {
    return this.viewStart + (x - LABEL_WIDTH) / this.pxPerSecond;
  }

  /** Whether the waveform lane is drawn: with media, unless it turned out to have no audio. */
  get showsWaveform(): boolean {
    return this.waveform !== null && this.waveform.state !== 'no-audio';
  }

  /** Where the first lane starts: under the axis, and under the waveform lane when there is one. */
  get lanesTop(): number {
    return AXIS_HEIGHT + (this.showsWaveform ? WAVE_HEIGHT : 0);
  }

  laneAt(y: number): Lane | undefined {
    if (y < this.lanesTop) return undefined;
    return this.model.lanes[Math.floor((y - this.lanesTop) / LANE_HEIGHT)];
  }

  laneTop(lane: Lane): number {
    return this.lanesTop + this.model.lanes.indexOf(lane) * LANE_HEIGHT;
  }

  zoomAt(x: number, factor: number): void {
    const anchor = this.timeAt(x);
    this.pxPerSecond = Math.min(MAX_PX_PER_SECOND, Math.max(MIN_PX_PER_SECOND, this.pxPerSecond * factor));
    this.viewStart = anchor - (x - LABEL_WIDTH) / this.pxPerSecond;
    this.invalidate();
  }

  panBy(px: number): void {
    this.viewStart += px / this.pxPerSecond;
    this.invalidate();
  }

  /**
   * Shows everything from 0 (or the first annotation, if one starts before 0) to the last end (or
   * the media's end) inside the lanes, a margin from the label column, so the 0 s tick and a
   * playhead at 0 are in sight. Before the first frame the width is unknown: it is done then.
   */
  fit(mediaDuration = 0): void {
    this.fitPending = mediaDuration;
    this.invalidate();
    if (this.width === 0) return;
    const [first, last] = this.model.extent();
    const start = Math.min(0, first);
    const span = Math.max(Math.max(last, mediaDuration) - start, 0.5);
    this.pxPerSecond = Math.max(this.timelineWidth - FIT_MARGIN_PX - FIT_MARGIN_RIGHT_PX, 1) / span;
    this.viewStart = start - FIT_MARGIN_PX / this.pxPerSecond;
    this.fitPending = null;
  }

  /** Scrolls sideways so the block is in view (a third in from the left when it was not), zoom kept. */
  reveal(item: Item): void {
    const [start, end] = this.timesOf(item);
    this.revealSpan(start, end);
  }

  invalidate(): void {
    this.dirty = true;
  }

  /** The block under a point and which part of it (an edge or the body). */
  hit(x: number, y: number): Hit | null {
    const lane = this.laneAt(y);
    if (!lane || x < LABEL_WIDTH) return null;
    const slop = EDGE_PX / this.pxPerSecond;
    const t = this.timeAt(x);
    let best: Hit | null = null;
    let bestWidth = Infinity;
    for (const item of this.model.visible(lane, t - slop, t + slop)) {
      const [start, end] = this.timesOf(item);
      const x0 = this.xOf(start);
      const x1 = this.xOf(end);
      if (x < x0 - EDGE_PX || x > x1 + EDGE_PX) continue;
      const width = x1 - x0;
      if (width >= bestWidth) continue;
      bestWidth = width;
      const grab: Grab = item.wire.reference.kind !== 'media' ? 'move' : Math.abs(x - x0) <= EDGE_PX && width > EDGE_PX ? 'start' : Math.abs(x - x1) <= EDGE_PX ? 'end' : 'move';
      best = { item, grab };
    }
    return best;
  }

  timesOf(item: Item): [number, number] {
    const preview = this.previews.find((candidate) => candidate.id === item.wire.id);
    return preview ? [preview.start, preview.end] : [item.start, item.end];
  }

  /** The centre of a block in client coordinates, or null when it is not in view (used by tests). */
  blockCenter(id: string): { x: number; y: number } | null {
    const item = this.model.items.get(id);
    const lane = item && this.model.laneOf(item);
    if (!item || !lane) return null;
    const [start, end] = this.timesOf(item);
    return this.centerOf(lane, start, end);
  }

  /** The centre of a span of a lane in client coordinates (the part in view), or null when none of it is in view. */
  centerOf(lane: Lane, start: number, end: number): { x: number; y: number } | null {
    const x0 = Math.max(this.xOf(start), LABEL_WIDTH);
    const x1 = Math.min(this.xOf(end), this.width);
    if (x1 < x0) return null;
    const box = this.canvas.getBoundingClientRect();
    return { x: box.left + (x0 + x1) / 2, y: box.top + this.laneTop(lane) + LANE_HEIGHT / 2 };
  }

  /** Scrolls sideways so a span is in view, as reveal does for a block. */
  revealSpan(start: number, end: number): void {
    const margin = FIT_MARGIN_PX / this.pxPerSecond;
    if (start >= this.viewStart + margin && end <= this.viewEnd - margin) return;
    const span = this.viewEnd - this.viewStart;
    this.viewStart = end - start > span - 2 * margin ? start - margin : start - span / 3;
    this.invalidate();
  }

  /** Redraws when something changed since the last frame. */
  frame(): void {
    const parent = this.canvas.parentElement!;
    const width = parent.clientWidth;
    const height = Math.max(parent.clientHeight, this.lanesTop + this.model.lanes.length * LANE_HEIGHT + 8);
    if (width !== this.width || height !== this.height) {
      const ratio = window.devicePixelRatio || 1;
      this.width = width;
      this.height = height;
      this.canvas.width = Math.round(width * ratio);
      this.canvas.height = Math.round(height * ratio);
      this.canvas.style.width = `${width}px`;
      this.canvas.style.height = `${height}px`;
      this.ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      this.dirty = true;
      if (this.fitPending !== null) this.fit(this.fitPending);
    }
    if (!this.dirty && this.drawn === this.model.version) return;
    this.dirty = false;
    this.drawn = this.model.version;
    this.draw();
  }

  private draw(): void {
    const { ctx } = this;
    ctx.clearRect(0, 0, this.width, this.height);
    ctx.fillStyle = '#fbfbfd';
    ctx.fillRect(0, 0, this.width, this.height);
    this.model.lanes.forEach((lane, index) => this.drawLane(lane, index));
    if (this.waveform && this.showsWaveform) drawWaveformLane(ctx, this.waveform, this.waveGeometry());
    this.drawAxis();
    this.drawPlayhead();
  }

  private waveGeometry() {
    const chosen = this.selected === null ? undefined : this.model.items.get(this.selected);
    return {
      top: AXIS_HEIGHT,
      left: LABEL_WIDTH,
      width: this.width,
      pxPerSecond: this.pxPerSecond,
      timeAt: (x: number) => this.timeAt(x),
      xOf: (t: number) => this.xOf(t),
      selection: chosen ? this.timesOf(chosen) : null,
    };
  }

  private drawAxis(): void {
    const { ctx } = this;
    ctx.fillStyle = '#eef0f5';
    ctx.fillRect(0, 0, this.width, AXIS_HEIGHT);
    ctx.strokeStyle = '#c9ceda';
    ctx.beginPath();
    ctx.moveTo(0, AXIS_HEIGHT - 0.5);
    ctx.lineTo(this.width, AXIS_HEIGHT - 0.5);
    ctx.stroke();
    const step = tickStep(this.pxPerSecond);
    const precision = precisionFor(step);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    for (let t = Math.ceil(this.viewStart / step) * step; t <= this.viewEnd; t += step) {
      const x = Math.round(this.xOf(t)) + 0.5;
      ctx.strokeStyle = '#9aa3b5';
      ctx.beginPath();
      ctx.moveTo(x, AXIS_HEIGHT - 8);
      ctx.lineTo(x, AXIS_HEIGHT);
      ctx.stroke();
      ctx.strokeStyle = 'rgba(120,130,150,0.12)';
      ctx.beginPath();
      ctx.moveTo(x, AXIS_HEIGHT);
      ctx.lineTo(x, this.height);
      ctx.stroke();
      ctx.fillStyle = '#4a5163';
      ctx.fillText(formatTime(t, this.format, precision), x + 4, AXIS_HEIGHT / 2 - 2);
    }
    ctx.fillStyle = '#eef0f5';
    ctx.fillRect(0, 0, LABEL_WIDTH, AXIS_HEIGHT);
    ctx.fillStyle = '#6b7285';
    ctx.fillText(this.format === 'seconds' ? 'tier  ·  seconds' : 'tier  ·  timecode', 10, AXIS_HEIGHT / 2);
  }

  private drawLane(lane: Lane, index: number): void {
    const { ctx } = this;
    const top = this.lanesTop + index * LANE_HEIGHT;
    ctx.fillStyle = index % 2 === 0 ? '#ffffff' : '#f5f6fa';
    ctx.fillRect(LABEL_WIDTH, top, this.width - LABEL_WIDTH, LANE_HEIGHT);
    const color = PALETTE[index % PALETTE.length];

    ctx.save();
    ctx.beginPath();
    ctx.rect(LABEL_WIDTH, top, this.width - LABEL_WIDTH, LANE_HEIGHT);
    ctx.clip();
    const from = this.viewStart;
    const to = this.viewEnd;
    let lastPixel = -Infinity;
    ctx.font = '12px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    const items = this.model.sorted(lane);
    // When every item of the lane is narrower than a pixel, one item per pixel column is all that
    // shows: jump to the next column by binary search, so a zoomed-out view of 100,000 items
    // costs a few thousand steps, not a pass over all of them.
    const subPixel = lane.maxDuration * this.pxPerSecond < 1;
    let selectedItem: Item | null = null;
    for (let i = this.model.firstStartingAt(lane, from - lane.maxDuration); i < items.length && items[i].start <= to; ) {
      const item = items[i];
      const [start, end] = this.timesOf(item);
      if (item.wire.id === this.selected) selectedItem = item;
      const x0 = this.xOf(start);
      const x1 = this.xOf(end);
      if (end >= from && (x1 - x0 >= 1 || Math.floor(x0) !== lastPixel)) {
        lastPixel = Math.floor(x0);
        if (end === start) this.drawPoint(x0, top, color, false);
        else this.drawBlock(item, x0, x1, top, color, false);
      }
      i = subPixel ? Math.max(i + 1, this.model.firstStartingAt(lane, this.timeAt(Math.floor(x0) + 1))) : i + 1;
    }
    const chosen = this.selected === null ? undefined : this.model.items.get(this.selected);
    if (!selectedItem && chosen && this.model.laneOf(chosen) === lane) selectedItem = chosen;
    if (selectedItem) {
      const [start, end] = this.timesOf(selectedItem);
      if (end === start) this.drawPoint(this.xOf(start), top, color, true);
      else this.drawBlock(selectedItem, this.xOf(start), this.xOf(end), top, color, true);
      this.drawSelectionMarks(this.xOf(start), this.xOf(end), top);
    }
    if (this.draft && this.draft.tier === lane.tier.name) this.drawDraft(this.draft, top, color);
    ctx.restore();
    this.drawLabel(lane, index, top, color);
  }

  /** The keyboard's marks on the selected block: a focus ring while the timeline has focus, a bar on the edge it nudges. */
  private drawSelectionMarks(x0: number, x1: number, top: number): void {
    const { ctx } = this;
    if (this.focused) {
      ctx.strokeStyle = '#1d4ed8';
      ctx.lineWidth = 2;
      ctx.setLineDash([]);
      ctx.beginPath();
      ctx.roundRect(x0 - 3, top + 2, Math.max(x1 - x0, 0) + 6, LANE_HEIGHT - 4, 4);
      ctx.stroke();
    }
    if (this.pickedEdge) {
      const x = this.pickedEdge === 'start' ? x0 : x1;
      ctx.fillStyle = '#1d4ed8';
      ctx.fillRect(x - 2, top + 1, 4, LANE_HEIGHT - 2);
    }
    ctx.lineWidth = 1;
  }

  /** A new annotation not saved yet: dashed, so it never passes for a saved one. */
  private drawDraft(draft: Draft, top: number, color: string): void {
    const { ctx } = this;
    const x0 = this.xOf(draft.start);
    const x1 = Math.max(this.xOf(draft.end), x0 + 2);
    ctx.fillStyle = 'rgba(79, 124, 255, 0.12)';
    ctx.strokeStyle = color;
    ctx.lineWidth = 2;
    ctx.setLineDash([5, 3]);
    ctx.beginPath();
    ctx.roundRect(x0 + 1, top + 6, x1 - x0 - 2, LANE_HEIGHT - 12, 3);
    ctx.fill();
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.lineWidth = 1;
  }

  /** The label column: the tier nested under its parent, its stereotype below its name; the active lane marked. */
  private drawLabel(lane: Lane, index: number, top: number, color: string): void {
    const { ctx } = this;
    const active = lane.tier.name === this.activeLane;
    ctx.fillStyle = active ? '#dfe7ff' : index % 2 === 0 ? '#f3f4f8' : '#eceef4';
    ctx.fillRect(0, top, LABEL_WIDTH, LANE_HEIGHT);
    if (active) {
      ctx.fillStyle = '#1d4ed8';
      ctx.fillRect(0, top, 4, LANE_HEIGHT);
    }
    ctx.strokeStyle = '#dde1ea';
    ctx.beginPath();
    ctx.moveTo(0, top + LANE_HEIGHT - 0.5);
    ctx.lineTo(this.width, top + LANE_HEIGHT - 0.5);
    ctx.moveTo(LABEL_WIDTH - 0.5, top);
    ctx.lineTo(LABEL_WIDTH - 0.5, top + LANE_HEIGHT);
    ctx.stroke();
    const indent = 10 + lane.depth * 14;
    ctx.fillStyle = color;
    ctx.fillRect(indent - 6, top + 8, 3, LANE_HEIGHT - 16);
    if (lane.depth > 0) {
      ctx.strokeStyle = '#b5bccb';
      ctx.beginPath();
      ctx.moveTo(indent - 14, top);
      ctx.lineTo(indent - 14, top + LANE_HEIGHT / 2);
      ctx.lineTo(indent - 8, top + LANE_HEIGHT / 2);
      ctx.stroke();
    }
    ctx.fillStyle = '#1f2430';
    ctx.font = '600 12px system-ui, sans-serif';
    ctx.fillText(clip(ctx, lane.tier.name, LABEL_WIDTH - indent - 8), indent, top + 12);
    ctx.fillStyle = '#7a8194';
    ctx.font = '10px system-ui, sans-serif';
    ctx.fillText(`${lane.tier.stereotype}${lane.tier.parent ? ` ← ${lane.tier.parent}` : ''} · ${lane.items.length}`, indent, top + 26);
  }

  private drawBlock(item: Item, x0: number, x1: number, top: number, color: string, selected: boolean): void {
    const { ctx } = this;
    const y = top + 5;
    const h = LANE_HEIGHT - 10;
    const width = Math.max(1, x1 - x0);
    ctx.fillStyle = selected ? '#ffd166' : tint(color);
    ctx.strokeStyle = selected ? '#b7791f' : color;
    ctx.lineWidth = selected ? 2 : 1;
    if (width > 6) {
      ctx.beginPath();
      ctx.roundRect(x0 + 0.5, y + 0.5, width - 1, h - 1, 3);
      ctx.fill();
      ctx.stroke();
    } else {
      ctx.fillStyle = color;
      ctx.fillRect(x0, y, width, h);
    }
    ctx.lineWidth = 1;
    if (width > 24) {
      ctx.fillStyle = '#1f2430';
      const left = Math.max(x0, LABEL_WIDTH) + 5;
      ctx.fillText(clip(ctx, labelOf(item.wire), x1 - left - 4), left, y + h / 2);
    }
  }

  private drawPoint(x: number, top: number, color: string, selected: boolean): void {
    const { ctx } = this;
    ctx.strokeStyle = selected ? '#b7791f' : color;
    ctx.lineWidth = selected ? 3 : 2;
    ctx.beginPath();
    ctx.moveTo(x, top + 6);
    ctx.lineTo(x, top + LANE_HEIGHT - 6);
    ctx.stroke();
    ctx.fillStyle = selected ? '#b7791f' : color;
    ctx.beginPath();
    ctx.moveTo(x - 4, top + 4);
    ctx.lineTo(x + 4, top + 4);
    ctx.lineTo(x, top + 10);
    ctx.fill();
    ctx.lineWidth = 1;
  }

  private drawPlayhead(): void {
    if (this.playhead === null) return;
    const x = this.xOf(this.playhead);
    if (x < LABEL_WIDTH || x > this.width) return;
    const { ctx } = this;
    ctx.strokeStyle = '#e5383b';
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(x, 0);
    ctx.lineTo(x, this.height);
    ctx.stroke();
    ctx.fillStyle = '#e5383b';
    ctx.beginPath();
    ctx.moveTo(x - 6, 0);
    ctx.lineTo(x + 6, 0);
    ctx.lineTo(x, 8);
    ctx.fill();
    ctx.lineWidth = 1;
  }
}

function tint(hex: string): string {
  const n = parseInt(hex.slice(1), 16);
  const mix = (c: number) => Math.round(c + (255 - c) * 0.72);
  return `rgb(${mix(n >> 16)}, ${mix((n >> 8) & 255)}, ${mix(n & 255)})`;
}

function clip(ctx: CanvasRenderingContext2D, text: string, width: number): string {
  if (width <= 8) return '';
  if (ctx.measureText(text).width <= width) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (ctx.measureText(`${text.slice(0, mid)}…`).width <= width) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : `${text.slice(0, lo)}…`;
}

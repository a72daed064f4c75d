// The waveform lane under the axis: the media's peaks at the current zoom, one column a pixel, with the
// playhead (drawn by the view across every lane) and the selected block's bounds across it, as Praat and
// ELAN show the signal above the tiers, scaled to its loudest peak. Silence is a flat line through the middle.
import type { PeakSource, Waveform } from './waveform.js';

export const WAVE_HEIGHT = 72;

/** Where the lane is and what is in view: the view's geometry, as the lane needs it. */
export interface WaveGeometry {
  readonly top: number;
  readonly left: number;
  readonly width: number;
  readonly pxPerSecond: number;
  timeAt(x: number): number;
  xOf(seconds: number): number;
  /** The selected block's times, to mark across the lane. */
  readonly selection: [number, number] | null;
}

const INK = '#3d5a99';

export function drawWaveformLane(ctx: CanvasRenderingContext2D, waveform: Waveform, lane: WaveGeometry): void {
  const { top, left, width } = lane;
  ctx.fillStyle = '#f7f8fc';
  ctx.fillRect(left, top, width - left, WAVE_HEIGHT);
  const middle = top + WAVE_HEIGHT / 2;
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, width - left, WAVE_HEIGHT);
  ctx.clip();
  if (lane.selection) shadeSelection(ctx, lane, lane.selection);
  const source = waveform.sourceFor(lane.pxPerSecond, lane.timeAt(left), lane.timeAt(width));
  if (source) drawPeaks(ctx, lane, source, waveform.sampleRate, waveform.loudest, middle);
  // The bounds over the peaks, so they show on loud audio too.
  if (lane.selection) drawBounds(ctx, lane, lane.selection);
  ctx.restore();
  drawLabel(ctx, waveform, top, left);
  ctx.strokeStyle = '#dde1ea';
  ctx.beginPath();
  ctx.moveTo(0, top + WAVE_HEIGHT - 0.5);
  ctx.lineTo(width, top + WAVE_HEIGHT - 0.5);
  ctx.stroke();
}

/** One bar per pixel column from its lowest to its highest sample, whole pixels; at least one high, so silence is a line. */
function drawPeaks(ctx: CanvasRenderingContext2D, lane: WaveGeometry, source: PeakSource, sampleRate: number, loudest: number, middle: number): void {
  // Scaled to the loudest peak (quiet recordings still show their shape); silence stays a line.
  const scale = (WAVE_HEIGHT / 2 - 4) / Math.max(loudest, 8);
  const binsPerSecond = sampleRate / source.samplesPerPixel;
  const centre = Math.round(middle);
  const extremes = { min: 0, max: 0 };
  ctx.fillStyle = INK;
  const lastX = Math.min(lane.width, Math.ceil(lane.xOf(source.length / binsPerSecond)));
  for (let x = Math.max(lane.left, Math.floor(lane.xOf(0))); x < lastX; x++) {
    const first = Math.max(0, Math.floor(lane.timeAt(x) * binsPerSecond));
    const last = Math.min(source.length - 1, Math.max(first, Math.ceil(lane.timeAt(x + 1) * binsPerSecond) - 1));
    if (first > last || !source.extremes(first, last, extremes)) continue;
    const top = Math.min(centre, Math.floor(centre - extremes.max * scale));
    const bottom = Math.max(centre + 1, Math.ceil(centre - extremes.min * scale));
    ctx.fillRect(x, top, 1, bottom - top);
  }
}

/** The selected block's span, shaded behind the peaks. */
function shadeSelection(ctx: CanvasRenderingContext2D, lane: WaveGeometry, [start, end]: [number, number]): void {
  const x0 = lane.xOf(start);
  ctx.fillStyle = 'rgba(255, 209, 102, 0.45)';
  ctx.fillRect(x0, lane.top, Math.max(lane.xOf(end) - x0, 0), WAVE_HEIGHT);
}

/** The selected block's two bounds as lines across the lane. */
function drawBounds(ctx: CanvasRenderingContext2D, lane: WaveGeometry, [start, end]: [number, number]): void {
  ctx.strokeStyle = '#b7791f';
  ctx.lineWidth = 2;
  ctx.beginPath();
  for (const x of [lane.xOf(start), lane.xOf(end)]) {
    ctx.moveTo(Math.round(x), lane.top);
    ctx.lineTo(Math.round(x), lane.top + WAVE_HEIGHT);
  }
  ctx.stroke();
  ctx.lineWidth = 1;
}

function drawLabel(ctx: CanvasRenderingContext2D, waveform: Waveform, top: number, left: number): void {
  ctx.fillStyle = '#eef0f5';
  ctx.fillRect(0, top, left, WAVE_HEIGHT);
  ctx.strokeStyle = '#dde1ea';
  ctx.beginPath();
  ctx.moveTo(left - 0.5, top);
  ctx.lineTo(left - 0.5, top + WAVE_HEIGHT);
  ctx.stroke();
  ctx.fillStyle = '#1f2430';
  ctx.font = '600 12px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  ctx.fillText('waveform', 10, top + 14);
  ctx.fillStyle = '#7a8194';
  ctx.font = '10px system-ui, sans-serif';
  const note = waveform.state === 'ready' ? `${waveform.sampleRate} Hz, channels mixed` : waveform.state === 'loading' ? 'computing the peaks…' : `not available (${waveform.problem})`;
  ctx.fillText(note, 10, top + 30);
}

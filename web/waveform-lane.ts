// The waveform lane under the axis: the media's peaks at the current zoom, one column a pixel, with the
// playhead (drawn by the view across every lane) and the selected block's bounds across it, as Praat and
// ELAN show the signal above the tiers, scaled to its loudest peak. Silence is a flat line through the middle.
import type { PeakLevel, Waveform } from './waveform.js';

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
  if (lane.selection) drawSelection(ctx, lane, lane.selection);
  const level = waveform.levelFor(lane.pxPerSecond);
  if (level) drawPeaks(ctx, lane, level, waveform.sampleRate, middle);
  ctx.restore();
  drawLabel(ctx, waveform, top, left);
  ctx.strokeStyle = '#dde1ea';
  ctx.beginPath();
  ctx.moveTo(0, top + WAVE_HEIGHT - 0.5);
  ctx.lineTo(width, top + WAVE_HEIGHT - 0.5);
  ctx.stroke();
}

/** One bar per pixel column from its lowest to its highest sample, whole pixels; at least one high, so silence is a line. */
function drawPeaks(ctx: CanvasRenderingContext2D, lane: WaveGeometry, level: PeakLevel, sampleRate: number, middle: number): void {
  // Scaled to the loudest peak (quiet recordings still show their shape); silence stays a line.
  const scale = (WAVE_HEIGHT / 2 - 4) / Math.max(level.loudest, 8);
  const binsPerSecond = sampleRate / level.samplesPerPixel;
  const centre = Math.round(middle);
  ctx.fillStyle = INK;
  const lastX = Math.min(lane.width, Math.ceil(lane.xOf(level.length / binsPerSecond)));
  for (let x = Math.max(lane.left, Math.floor(lane.xOf(0))); x < lastX; x++) {
    const first = Math.max(0, Math.floor(lane.timeAt(x) * binsPerSecond));
    const last = Math.min(level.length - 1, Math.max(first, Math.ceil(lane.timeAt(x + 1) * binsPerSecond) - 1));
    if (first > last) continue;
    let min = level.pairs[first * 2];
    let max = level.pairs[first * 2 + 1];
    for (let bin = first + 1; bin <= last; bin++) {
      if (level.pairs[bin * 2] < min) min = level.pairs[bin * 2];
      if (level.pairs[bin * 2 + 1] > max) max = level.pairs[bin * 2 + 1];
    }
    const top = Math.min(centre, Math.floor(centre - max * scale));
    const bottom = Math.max(centre + 1, Math.ceil(centre - min * scale));
    ctx.fillRect(x, top, 1, bottom - top);
  }
}

/** The selected block's span, shaded, with its two bounds as lines. */
function drawSelection(ctx: CanvasRenderingContext2D, lane: WaveGeometry, [start, end]: [number, number]): void {
  const x0 = lane.xOf(start);
  const x1 = lane.xOf(end);
  ctx.fillStyle = 'rgba(255, 209, 102, 0.35)';
  ctx.fillRect(x0, lane.top, Math.max(x1 - x0, 0), WAVE_HEIGHT);
  ctx.strokeStyle = '#b7791f';
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (const x of [x0, x1]) {
    ctx.moveTo(Math.round(x) + 0.5, lane.top);
    ctx.lineTo(Math.round(x) + 0.5, lane.top + WAVE_HEIGHT);
  }
  ctx.stroke();
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

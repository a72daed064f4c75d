// The waveform of the media, as the server computes it (GET /media/peaks, audiowaveform's binary format,
// version 2): fetched at the resolutions the zoom needs, each once, and kept; the lane draws from the
// loaded one nearest the zoom while a closer one is on its way, so zooming never waits for the network.
import { ApiError, type Api } from './api.js';

/** One resolution of the peaks: `length` pixels of `samplesPerPixel` samples, a min and a max each (8 bits). */
export interface PeakLevel {
  readonly samplesPerPixel: number;
  readonly length: number;
  readonly pairs: Int8Array;
  /** The largest magnitude in it (0 for silence): the lane is scaled to it, as Praat scales to the loudest. */
  readonly loudest: number;
}

export type WaveformState = 'loading' | 'ready' | 'no-audio' | 'failed';

export class Waveform {
  state: WaveformState = 'loading';
  sampleRate = 0;
  /** Why it failed, for the lane's label. */
  problem = '';
  private readonly levels = new Map<number, PeakLevel>();
  private readonly asked = new Set<number>();
  /** The finest resolution the server keeps: asked finer, it answers this one. */
  private finest = 1;

  constructor(
    private readonly api: Api,
    /** Told when a level arrives (redraw) or the media turns out to have no audio. */
    private readonly changed: () => void,
  ) {}

  /** The first fetch, at about the zoom's resolution: it also says the sample rate. */
  start(pxPerSecond: number): void {
    const pps = 2 ** Math.ceil(Math.log2(Math.max(pxPerSecond, 1e-3)));
    void this.fetch(`pixels_per_second=${pps}`, 0);
  }

  /**
   * The loaded level to draw at this zoom: the one nearest a pixel per column's samples, finer
   * preferred; asks for that one when it is not there yet.
   */
  levelFor(pxPerSecond: number): PeakLevel | null {
    if (this.state !== 'ready') return null;
    const perPixel = this.sampleRate / pxPerSecond;
    // A power of two at most the samples per column: one or two bins a column.
    const wanted = Math.max(this.finest, 2 ** Math.floor(Math.log2(Math.max(perPixel, 1))));
    if (!this.levels.has(wanted) && !this.asked.has(wanted)) void this.fetch(`samples_per_pixel=${wanted}`, wanted);
    let best: PeakLevel | null = null;
    for (const level of this.levels.values()) {
      if (!best || distance(level.samplesPerPixel, wanted) < distance(best.samplesPerPixel, wanted)) best = level;
    }
    return best;
  }

  private async fetch(query: string, wanted: number): Promise<void> {
    this.asked.add(wanted);
    try {
      const bytes = await this.api.bytes(`/media/peaks?${query}&format=dat`);
      const level = readDat(bytes);
      this.sampleRate = level.sampleRate;
      this.levels.set(level.samplesPerPixel, level);
      // Asked finer than the server keeps: its finest came back, and stands for every finer one.
      if (wanted > 0 && level.samplesPerPixel > wanted) this.finest = level.samplesPerPixel;
      this.state = 'ready';
    } catch (error) {
      this.asked.delete(wanted);
      if (this.state === 'ready') return; // A level that did not come: the others still draw.
      this.state = error instanceof ApiError && error.code === 'ANNOT_NO_AUDIO' ? 'no-audio' : 'failed';
      this.problem = error instanceof ApiError ? error.code : String(error);
    }
    this.changed();
  }
}

/** Log-distance, finer levels (more detail) counted as nearer. */
function distance(samplesPerPixel: number, wanted: number): number {
  const ratio = Math.log2(samplesPerPixel / wanted);
  return ratio > 0 ? ratio * 1.5 : -ratio;
}

/** audiowaveform's binary format, version 2, one channel at 8 bits (what the page asks for). */
function readDat(bytes: ArrayBuffer): PeakLevel & { sampleRate: number } {
  const level = readHeader(bytes);
  let loudest = 0;
  for (const value of level.pairs) loudest = Math.max(loudest, Math.abs(value));
  return { ...level, loudest };
}

function readHeader(bytes: ArrayBuffer): Omit<PeakLevel, 'loudest'> & { sampleRate: number } {
  const view = new DataView(bytes);
  const version = view.getInt32(0, true);
  const eightBits = (view.getUint32(4, true) & 1) === 1;
  const channels = version === 2 ? view.getInt32(20, true) : 1;
  if ((version !== 1 && version !== 2) || !eightBits || channels !== 1) throw new Error(`unexpected waveform data (version ${version}, ${eightBits ? 8 : 16} bits, ${channels} channels)`);
  const header = version === 2 ? 24 : 20;
  const length = view.getUint32(16, true);
  return { sampleRate: view.getInt32(8, true), samplesPerPixel: view.getInt32(12, true), length, pairs: new Int8Array(bytes, header, length * 2) };
}

// The waveform of the media, as the server computes it (GET /media/peaks, audiowaveform's binary format,
// version 2), fetched at the resolutions the zoom needs and kept: a resolution of a few hundred thousand
// pixels or fewer whole, a finer one (an hour at a millisecond a pixel is millions) in tiles of 65,536
// pixels around what is in view. The lane draws from what is loaded nearest the zoom while a closer one is
// on its way, so zooming never waits for the network, and nothing fetched is large.
import { ApiError, type Api } from './api.js';

/** Pixels of a tile; a resolution of up to WHOLE pixels is fetched in one piece. */
const TILE_BITS = 16;
const TILE = 1 << TILE_BITS;
const WHOLE = 1 << 18;

/** What the lane draws from: one resolution, whole or in the tiles loaded. */
export interface PeakSource {
  readonly samplesPerPixel: number;
  /** Pixels of the whole track at this resolution. */
  readonly length: number;
  /** The extremes of pixels first..last into `out`; false when some of them are not loaded. */
  extremes(first: number, last: number, out: { min: number; max: number }): boolean;
}

export type WaveformState = 'loading' | 'ready' | 'no-audio' | 'failed';

/** One resolution: its whole pixels, or the tiles loaded (8-bit min, max pairs). */
class Level implements PeakSource {
  whole: Int8Array | null = null;
  readonly tiles = new Map<number, Int8Array>();

  constructor(
    readonly samplesPerPixel: number,
    readonly length: number,
  ) {}

  get tiled(): boolean {
    return this.length > WHOLE;
  }

  /** Whether pixels first..last are all loaded. */
  has(first: number, last: number): boolean {
    if (!this.tiled) return this.whole !== null;
    for (let tile = first >> TILE_BITS; tile <= last >> TILE_BITS; tile++) if (!this.tiles.has(tile)) return false;
    return true;
  }

  extremes(first: number, last: number, out: { min: number; max: number }): boolean {
    let min = 127;
    let max = -128;
    for (let pixel = first; pixel <= last; pixel++) {
      const pairs = this.whole ?? this.tiles.get(pixel >> TILE_BITS);
      if (!pairs) return false;
      const at = (this.whole ? pixel : pixel & (TILE - 1)) * 2;
      if (at + 1 >= pairs.length) return false;
      if (pairs[at] < min) min = pairs[at];
      if (pairs[at + 1] > max) max = pairs[at + 1];
    }
    out.min = min;
    out.max = max;
    return true;
  }
}

export class Waveform {
  state: WaveformState = 'loading';
  sampleRate = 0;
  /** Samples of the track. */
  sampleCount = 0;
  /**
   * The largest magnitude of the track (0 for silence), the same at every resolution (each keeps the
   * extremes of the one below): read from the first answer, and the lane is scaled to it, as Praat
   * scales to the loudest.
   */
  loudest = 0;
  /** Why it failed, for the lane's label. */
  problem = '';
  /** The finest resolution the server keeps (a power of two near a millisecond). */
  private finest = 1;
  private readonly levels = new Map<number, Level>();
  /** What has been asked for: a resolution (its samples per pixel), or one of its tiles ("spp:tile"). */
  private readonly asked = new Set<string>();

  constructor(
    private readonly api: Api,
    /** Told when peaks arrive (redraw) or the media turns out to have no audio. */
    private readonly changed: () => void,
  ) {}

  /** The first fetch, whole, at about the zoom's resolution: it also says the sample rate, the track's length and the finest resolution. */
  start(pxPerSecond: number): void {
    const pps = 2 ** Math.ceil(Math.log2(Math.max(pxPerSecond, 1e-3)));
    void this.fetch(`pixels_per_second=${pps}`, 'first');
  }

  /**
   * What to draw [from, to] seconds from at this zoom: the resolution of one or two pixels a
   * column when its pixels there are loaded (asked for when not), else the loaded one nearest it
   * (finer preferred, and none 16 times finer than needed: that would cost too much to draw).
   */
  sourceFor(pxPerSecond: number, from: number, to: number): PeakSource | null {
    if (this.state !== 'ready') return null;
    const wanted = Math.max(this.finest, 2 ** Math.floor(Math.log2(Math.max(this.sampleRate / pxPerSecond, 1))));
    const span = (level: Level) => [Math.max(0, Math.floor((from * this.sampleRate) / level.samplesPerPixel)), Math.min(level.length - 1, Math.ceil((to * this.sampleRate) / level.samplesPerPixel))] as const;
    const level = this.levelAt(wanted);
    const [first, last] = span(level);
    if (level.has(first, last)) return level;
    this.ask(level, first, last);
    let best: Level | null = null;
    for (const candidate of this.levels.values()) {
      const [a, b] = span(candidate);
      if (!candidate.has(a, b) || candidate.samplesPerPixel * 16 < wanted) continue;
      if (!best || distance(candidate.samplesPerPixel, wanted) < distance(best.samplesPerPixel, wanted)) best = candidate;
    }
    return best;
  }

  private levelAt(samplesPerPixel: number): Level {
    let level = this.levels.get(samplesPerPixel);
    if (!level) this.levels.set(samplesPerPixel, (level = new Level(samplesPerPixel, Math.ceil(this.sampleCount / samplesPerPixel))));
    return level;
  }

  /** Fetches what of the level is missing around pixels first..last: the whole of it, or its tiles there. */
  private ask(level: Level, first: number, last: number): void {
    const spp = level.samplesPerPixel;
    if (!level.tiled) {
      if (!this.asked.has(`${spp}`)) void this.fetch(`samples_per_pixel=${spp}`, `${spp}`);
      return;
    }
    for (let tile = first >> TILE_BITS; tile <= last >> TILE_BITS; tile++) {
      const key = `${spp}:${tile}`;
      if (level.tiles.has(tile) || this.asked.has(key)) continue;
      // Half a pixel in from each end, so the pixels the server picks are exactly the tile's.
      const start = (((tile << TILE_BITS) + 0.5) * spp) / this.sampleRate;
      const end = ((((tile + 1) << TILE_BITS) - 0.5) * spp) / this.sampleRate;
      void this.fetch(`samples_per_pixel=${spp}&start=${start.toFixed(9)}&end=${end.toFixed(9)}`, key);
    }
  }

  private async fetch(query: string, key: string): Promise<void> {
    this.asked.add(key);
    try {
      const { bytes, headers } = await this.api.bytes(`/media/peaks?${query}&format=dat`);
      const answer = readDat(bytes);
      if (this.state !== 'ready') this.begin(answer, headers);
      this.keep(answer, Number(headers.get('X-Annot-Peaks-First-Pixel') ?? 0));
    } catch (error) {
      this.asked.delete(key);
      if (this.state === 'ready') return; // A piece that did not come: the rest still draws, and it is asked again when needed.
      this.state = error instanceof ApiError && error.code === 'ANNOT_NO_AUDIO' ? 'no-audio' : 'failed';
      this.problem = error instanceof ApiError ? error.code : String(error);
    }
    this.changed();
  }

  /** The first answer: the track's sample rate, length and loudest peak, and the finest resolution kept. */
  private begin(answer: DatAnswer, headers: Headers): void {
    this.sampleRate = answer.sampleRate;
    this.sampleCount = Number(headers.get('X-Annot-Peaks-Samples') ?? answer.length * answer.samplesPerPixel);
    this.finest = Number(headers.get('X-Annot-Peaks-Finest') ?? 1);
    for (const value of answer.pairs) this.loudest = Math.max(this.loudest, Math.abs(value));
    this.state = 'ready';
  }

  private keep(answer: DatAnswer, firstPixel: number): void {
    const level = this.levelAt(answer.samplesPerPixel);
    this.asked.add(`${answer.samplesPerPixel}`);
    if (!level.tiled) level.whole = answer.pairs;
    else if (firstPixel % TILE === 0) level.tiles.set(firstPixel >> TILE_BITS, answer.pairs);
  }
}

/** Log-distance, finer levels (more detail) counted as nearer. */
function distance(samplesPerPixel: number, wanted: number): number {
  const ratio = Math.log2(samplesPerPixel / wanted);
  return ratio > 0 ? ratio * 1.5 : -ratio;
}

interface DatAnswer {
  sampleRate: number;
  samplesPerPixel: number;
  length: number;
  pairs: Int8Array;
}

/** audiowaveform's binary format, version 2, one channel at 8 bits (what the page asks for). */
function readDat(bytes: ArrayBuffer): DatAnswer {
  const view = new DataView(bytes);
  const version = view.getInt32(0, true);
  const eightBits = (view.getUint32(4, true) & 1) === 1;
  const channels = version === 2 ? view.getInt32(20, true) : 1;
  if ((version !== 1 && version !== 2) || !eightBits || channels !== 1) throw new Error(`unexpected waveform data (version ${version}, ${eightBits ? 8 : 16} bits, ${channels} channels)`);
  const header = version === 2 ? 24 : 20;
  const length = view.getUint32(16, true);
  return { sampleRate: view.getInt32(8, true), samplesPerPixel: view.getInt32(12, true), length, pairs: new Int8Array(bytes, header, length * 2) };
}

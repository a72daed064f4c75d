import { compare, lcm, type Seconds } from './exact-seconds.js';
import type { TtmlCueBody } from './ttml-model.js';

/**
 * The cues a scan found, as columns rather than objects, so a million of them take tens of
 * megabytes (as EAF's bulk does): times as pairs of float64 numerators and denominators (exact
 * while they are safe integers, kept whole beside otherwise), a paragraph's text alone when its
 * body is only a text, its body object when it says more. Annotations are built from them one by
 * one as they are consumed.
 */
export class CueColumns {
  private times = new Float64Array(1024);
  private readonly texts: string[] = [];
  private readonly bodies = new Map<number, TtmlCueBody>();
  /** Times no float64 holds exactly, by cue. */
  private readonly wide = new Map<number, { begin: Seconds; end: Seconds | null }>();
  /** The least common multiple of every denominator, while it stays below 10^12. */
  denominator = 1000n;
  /** The latest time of any cue. */
  largest: Seconds = { num: 0n, den: 1n };

  get length(): number {
    return this.texts.length;
  }

  push(begin: Seconds, end: Seconds | null, body: TtmlCueBody): number {
    const index = this.texts.length;
    if (this.times.length < (index + 1) * 4) {
      const grown = new Float64Array(this.times.length * 2);
      grown.set(this.times);
      this.times = grown;
    }
    const safe = (value: Seconds): boolean => value.num <= BigInt(Number.MAX_SAFE_INTEGER) && value.num >= -BigInt(Number.MAX_SAFE_INTEGER) && value.den <= BigInt(Number.MAX_SAFE_INTEGER);
    if (safe(begin) && (end === null || safe(end))) {
      this.times.set([Number(begin.num), Number(begin.den), end === null ? 0 : Number(end.num), end === null ? 0 : Number(end.den)], index * 4);
    } else this.wide.set(index, { begin, end });
    this.texts.push(body.text);
    if (Object.keys(body).length > 1) this.bodies.set(index, body);
    for (const time of end === null ? [begin] : [begin, end]) {
      if (this.denominator <= 1_000_000_000_000n) this.denominator = lcm(this.denominator, time.den);
      if (compare(time, this.largest) > 0) this.largest = time;
    }
    return index;
  }

  begin(index: number): Seconds {
    const wide = this.wide.get(index);
    return wide !== undefined ? wide.begin : { num: BigInt(this.times[index * 4]), den: BigInt(this.times[index * 4 + 1]) };
  }

  /** The end, or null when the paragraph has none. */
  end(index: number): Seconds | null {
    const wide = this.wide.get(index);
    if (wide !== undefined) return wide.end;
    const den = this.times[index * 4 + 3];
    return den === 0 ? null : { num: BigInt(this.times[index * 4 + 2]), den: BigInt(den) };
  }

  body(index: number): TtmlCueBody {
    return this.bodies.get(index) ?? { text: this.texts[index] };
  }

  /** Replaces a cue (one made again once the document's last time is known). */
  replace(index: number, begin: Seconds, end: Seconds | null, body: TtmlCueBody): void {
    this.wide.set(index, { begin, end });
    this.texts[index] = body.text;
    if (Object.keys(body).length > 1) this.bodies.set(index, body);
    else this.bodies.delete(index);
  }
}

import { InvalidTimeError } from './errors.js';
import { RationalTime, type RationalTimeWire } from './rational-time.js';

/** The wire form of a TimeInterval. */
export interface TimeIntervalWire {
  /** The start, as `{v, r}`. */
  start: RationalTimeWire;
  /** The end, as `{v, r}`. */
  end: RationalTimeWire;
}

/**
 * Half-open `[start, end)`. `start == end` is a point, which is a valid interval. Start and end
 * may be at different rates; every comparison is by rational value.
 */
export class TimeInterval {
  constructor(
    /** The start (inclusive). */
    readonly start: RationalTime,
    /** The end (exclusive); equal to `start` for a point. */
    readonly end: RationalTime,
  ) {
    if (end.lt(start)) {
      throw new InvalidTimeError(`interval end ${end.toSecondsString()} s precedes its start ${start.toSecondsString()} s`);
    }
  }

  /** From decimal-second strings (exact) at one rate. */
  static fromSeconds(start: string | number, end: string | number, rate: number): TimeInterval {
    return new TimeInterval(RationalTime.fromSeconds(start, rate), RationalTime.fromSeconds(end, rate));
  }

  /** A point: an interval whose start and end are both `at`. */
  static point(at: RationalTime): TimeInterval {
    return new TimeInterval(at, at);
  }

  /** Strict reader of `{start, end}` with no extra keys. */
  static fromWire(json: unknown, path = 'interval'): TimeInterval {
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      throw new InvalidTimeError(`${path}: expected an object {start, end}`);
    }
    for (const key of Object.keys(json)) {
      if (key !== 'start' && key !== 'end') throw new InvalidTimeError(`${path}.${key}: unexpected key (an interval has only start and end)`);
    }
    const { start, end } = json as Record<string, unknown>;
    if (start === undefined) throw new InvalidTimeError(`${path}.start: missing`);
    if (end === undefined) throw new InvalidTimeError(`${path}.end: missing`);
    const s = RationalTime.fromWire(start, `${path}.start`);
    const e = RationalTime.fromWire(end, `${path}.end`);
    if (e.lt(s)) throw new InvalidTimeError(`${path}: end ${e.toSecondsString()} s precedes start ${s.toSecondsString()} s`);
    return new TimeInterval(s, e);
  }

  /** The wire form `{start, end}`. */
  toWire(): TimeIntervalWire {
    return { start: this.start.toWire(), end: this.end.toWire() };
  }

  /** The wire form `{start, end}`, for JSON.stringify. */
  toJSON(): TimeIntervalWire {
    return this.toWire();
  }

  /** Whether start equals end. */
  get isPoint(): boolean {
    return this.start.equals(this.end);
  }

  /** Duration at the end's rate (end minus start; exact, throws if the start is not expressible there). */
  duration(): RationalTime {
    return this.end.minus(this.start);
  }

  /** Same value at both ends (rates may differ). */
  equals(other: TimeInterval): boolean {
    return this.start.equals(other.start) && this.end.equals(other.end);
  }

  /** A key equal for equal values at any rate. */
  valueKey(): string {
    return `${this.start.valueKey()}|${this.end.valueKey()}`;
  }

  /** `[start, end)` in exact decimal seconds. */
  toString(): string {
    return `[${this.start.toSecondsString()}, ${this.end.toSecondsString()})`;
  }
}

import fc from 'fast-check';
import { InvalidTimeError, LossyTimeConversionError } from '../../src/time/errors.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';

const t = (v: number, r: number) => new RationalTime(v, r);

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('TimeInterval construction', () => {
  it('accepts start before end, and keeps both times as given', () => {
    const interval = new TimeInterval(t(1, 2), t(3, 4));
    expect(interval.start.isIdentical(t(1, 2))).toBe(true);
    expect(interval.end.isIdentical(t(3, 4))).toBe(true);
    expect(interval.isPoint).toBe(false);
  });

  it('rejects an end before its start, comparing across rates', () => {
    const error = thrown(() => new TimeInterval(t(501, 1000), t(1, 2)));
    expect(error).toBeInstanceOf(InvalidTimeError);
    expect((error as Error).message).toBe('interval end 0.5 s precedes its start 0.501 s');
  });

  it('accepts a point, also when its ends are spelled at different rates', () => {
    expect(TimeInterval.point(t(5, 1)).isPoint).toBe(true);
    expect(new TimeInterval(t(1, 2), t(500, 1000)).isPoint).toBe(true);
  });

  it('builds from exact decimal seconds at one rate, and refuses lossy ones', () => {
    const interval = TimeInterval.fromSeconds('12.345', '13', 1000);
    expect(interval.toWire()).toEqual({ start: { v: 12345, r: 1000 }, end: { v: 13000, r: 1000 } });
    expect(TimeInterval.fromSeconds(0.1, 0.2, 1000).toWire()).toEqual({ start: { v: 100, r: 1000 }, end: { v: 200, r: 1000 } });
    expect(() => TimeInterval.fromSeconds('0', '1/3', 1000)).toThrow(LossyTimeConversionError);
    expect(() => TimeInterval.fromSeconds('2', '1', 1000)).toThrow(InvalidTimeError);
  });

  it('gives its duration exactly at the end rate', () => {
    expect(new TimeInterval(t(1, 4), t(3000, 1000)).duration().isIdentical(t(2750, 1000))).toBe(true);
    expect(() => new TimeInterval(t(1, 3), t(1, 1)).duration()).toThrow(LossyTimeConversionError);
  });

  it('prints itself as half-open decimal seconds', () => {
    expect(String(new TimeInterval(t(1, 4), t(10010, 30000)))).toBe('[0.25, 1001/3000)');
  });
});

describe('TimeInterval value identity', () => {
  it('treats the same span at different rates as equal with the same value key', () => {
    const a = new TimeInterval(t(1, 2), t(3, 4));
    const b = new TimeInterval(t(500, 1000), t(36000, 48000));
    expect(a.equals(b)).toBe(true);
    expect(a.valueKey()).toBe(b.valueKey());
    expect(a.valueKey()).toBe('1/2|3/4');
  });

  it('tells different spans apart', () => {
    const a = new TimeInterval(t(1, 2), t(3, 4));
    expect(a.equals(new TimeInterval(t(1, 2), t(751, 1000)))).toBe(false);
    expect(a.valueKey()).not.toBe(new TimeInterval(t(1, 2), t(751, 1000)).valueKey());
  });

  it('has equal value keys exactly when the intervals are equal', () => {
    const time = fc.tuple(fc.integer({ min: -20, max: 20 }), fc.constantFrom(1, 2, 4, 6)).map(([v, r]) => t(v, r));
    const interval = fc.tuple(time, time).map(([x, y]) => (x.le(y) ? new TimeInterval(x, y) : new TimeInterval(y, x)));
    fc.assert(
      fc.property(interval, interval, (a, b) => {
        expect(a.valueKey() === b.valueKey()).toBe(a.equals(b));
      }),
    );
  });
});

describe('TimeInterval wire form', () => {
  it('round-trips {start, end} keeping each rate', () => {
    const wire = { start: { v: 1, r: 2 }, end: { v: 36000, r: 48000 } };
    const interval = TimeInterval.fromWire(wire);
    expect(interval.toWire()).toEqual(wire);
    expect(JSON.parse(JSON.stringify(interval))).toEqual(wire);
  });

  it('reads a point', () => {
    expect(TimeInterval.fromWire({ start: { v: 3, r: 1 }, end: { v: 3, r: 1 } }).isPoint).toBe(true);
  });

  it.each([
    [{ start: { v: 0, r: 1 }, end: { v: 1, r: 1 }, label: 'x' }, /^interval\.label: unexpected key/],
    [{ end: { v: 1, r: 1 } }, /^interval\.start: missing/],
    [{ start: { v: 0, r: 1 } }, /^interval\.end: missing/],
    [{ start: { v: 0.5, r: 1 }, end: { v: 1, r: 1 } }, /^interval\.start\.v: expected an integer/],
    [{ start: { v: 0, r: 1 }, end: { v: 1, r: 0 } }, /^interval\.end\.r: expected a positive integer rate/],
    [{ start: { v: 0, r: 1 }, end: { v: 1, r: 1, q: 2 } }, /^interval\.end\.q: unexpected key/],
    [{ start: { v: 0, r: 1 }, end: '1' }, /^interval\.end: expected an object/],
    [{ start: { v: 2, r: 1 }, end: { v: 1, r: 1 } }, /^interval: end 1 s precedes start 2 s/],
    [null, /^interval: expected an object \{start, end\}/],
    [[{ v: 0, r: 1 }, { v: 1, r: 1 }], /^interval: expected an object/],
  ])('rejects %j with InvalidTimeError naming the field', (json, message) => {
    const error = thrown(() => TimeInterval.fromWire(json));
    expect(error).toBeInstanceOf(InvalidTimeError);
    expect((error as Error).message).toMatch(message);
  });

  it('names fields by the path it is given', () => {
    expect(() => TimeInterval.fromWire({ start: { v: 0, r: 1 }, end: { v: 1 } }, 'reference.interval')).toThrow(
      /^reference\.interval\.end\.r: missing/,
    );
  });
});

import fc from 'fast-check';
import { InvalidInputError } from '../../src/errors/annot-error.js';
import { intervalFromToolSeconds, secondsText } from '../../src/mcp/tool-seconds.js';
import { LossyTimeConversionError } from '../../src/time/errors.js';
import { RationalTime } from '../../src/time/rational-time.js';

describe('seconds as MCP tools receive them', () => {
  it('reads a JSON number as the decimal it spells, never as the nearest binary double', () => {
    const interval = intervalFromToolSeconds(0.1, 0.3);
    expect(interval.start.toWire()).toEqual({ v: 100, r: 1000 });
    expect(interval.end.toWire()).toEqual({ v: 300, r: 1000 });
  });

  it('stores whole and millisecond times at rate 1000 when no rate is given', () => {
    expect(intervalFromToolSeconds(0, 2).start.r).toBe(1000);
    expect(intervalFromToolSeconds('1.5', '2.25').end.toWire()).toEqual({ v: 2250, r: 1000 });
  });

  it('picks the finest decimal rate the digits need when they go below milliseconds', () => {
    const interval = intervalFromToolSeconds('1.2345', '2');
    expect(interval.start.toWire()).toEqual({ v: 12345, r: 10000 });
    expect(interval.end.toWire()).toEqual({ v: 20000, r: 10000 });
  });

  it('uses an explicit rate as given', () => {
    expect(intervalFromToolSeconds('0.5', 1, 48000).start.toWire()).toEqual({ v: 24000, r: 48000 });
  });

  it('refuses a time that is not a whole number of ticks at an explicit rate, naming the argument', () => {
    expect(() => intervalFromToolSeconds('0.0005', 1, 1000)).toThrow(LossyTimeConversionError);
    expect(() => intervalFromToolSeconds('0.0005', 1, 1000)).toThrow(/start_seconds: 0\.0005 s is not a whole number of ticks at rate 1000/);
  });

  it('refuses a ratio that no decimal rate holds unless a rate is given that does', () => {
    expect(() => intervalFromToolSeconds('0', '1/3')).toThrow(/end_seconds: 1\/3 s .*e\.g\. 3 for thirds/);
    expect(intervalFromToolSeconds('0', '1/3', 3).end.toWire()).toEqual({ v: 1, r: 3 });
  });

  it('refuses an end before the start and says which is which', () => {
    expect(() => intervalFromToolSeconds(2, 1)).toThrow(InvalidInputError);
    expect(() => intervalFromToolSeconds(2, 1)).toThrow(/end_seconds \(1\) precedes start_seconds \(2\)/);
  });

  it('accepts a point, where the start equals the end', () => {
    expect(intervalFromToolSeconds('3', 3).isPoint).toBe(true);
  });

  it('refuses malformed, empty and non-finite seconds with the argument name', () => {
    expect(() => intervalFromToolSeconds('abc', 1)).toThrow(/start_seconds/);
    expect(() => secondsText('  ', 'end_seconds')).toThrow(/end_seconds: expected seconds/);
    expect(() => secondsText(Number.POSITIVE_INFINITY, 'start_seconds')).toThrow(/finite/);
  });

  it('keeps every decimal with up to nine places exactly, whether sent as a string or a number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), fc.integer({ min: 0, max: 9 }), (units, places) => {
        const text = (units / 10 ** places).toFixed(places);
        const interval = intervalFromToolSeconds(text, Number(text));
        const exact = RationalTime.fromSeconds(text, 10 ** places);
        return interval.start.equals(exact) && interval.end.equals(exact);
      }),
    );
  });
});

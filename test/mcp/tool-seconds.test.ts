import fc from 'fast-check';
import { intervalFromToolSeconds } from '../../src/mcp/tool-seconds.js';
import { InvalidTimeError, LossyTimeConversionError } from '../../src/time/errors.js';
import { RationalTime } from '../../src/time/rational-time.js';

describe('times as MCP tools receive them', () => {
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

  it('takes timecodes, SMPTE with fps and {v, r} too', () => {
    expect(intervalFromToolSeconds('00:00:01.500', '00:00:02,250').toWire()).toEqual({ start: { v: 1500, r: 1000 }, end: { v: 2250, r: 1000 } });
    expect(intervalFromToolSeconds('00:00:01:12', '00:00:02:00', undefined, 24).toWire()).toEqual({ start: { v: 36, r: 24 }, end: { v: 48, r: 24 } });
    expect(intervalFromToolSeconds({ v: 1, r: 48 }, { v: 3, r: 48 }).toWire()).toEqual({ start: { v: 1, r: 48 }, end: { v: 3, r: 48 } });
  });

  it('uses an explicit rate as given', () => {
    expect(intervalFromToolSeconds('0.5', 1, 48000).start.toWire()).toEqual({ v: 24000, r: 48000 });
  });

  it('refuses a time that is not a whole number of ticks at an explicit rate, naming the argument and value', () => {
    expect(() => intervalFromToolSeconds('0.0005', 1, 1000)).toThrow(LossyTimeConversionError);
    expect(() => intervalFromToolSeconds('0.0005', 1, 1000)).toThrow(/start_seconds: "0\.0005" \(0\.0005 s\) is not a whole number of ticks at rate 1000/);
    expect(() => intervalFromToolSeconds('0', '1/3', 1000)).toThrow(/end_seconds: "1\/3" \(1\/3 s\)/);
  });

  it('keeps a ratio exactly at a rate that holds it when none is given', () => {
    expect(intervalFromToolSeconds('0', '1/3').end.toWire()).toEqual({ v: 1000, r: 3000 });
    expect(intervalFromToolSeconds('0', '1/3', 3).end.toWire()).toEqual({ v: 1, r: 3 });
  });

  it('refuses an end before the start and says which is which', () => {
    expect(() => intervalFromToolSeconds(2, 1)).toThrow(InvalidTimeError);
    expect(() => intervalFromToolSeconds(2, 1)).toThrow(/end_seconds \(1 s\) precedes start_seconds \(2 s\)/);
  });

  it('accepts a point, where the start equals the end', () => {
    expect(intervalFromToolSeconds('3', 3).isPoint).toBe(true);
  });

  it('refuses malformed, empty and non-finite times with the argument name', () => {
    expect(() => intervalFromToolSeconds('abc', 1)).toThrow(/start_seconds/);
    expect(() => intervalFromToolSeconds(1, '  ')).toThrow(/end_seconds: expected a time/);
    expect(() => intervalFromToolSeconds(Number.POSITIVE_INFINITY, 1)).toThrow(/start_seconds: .*finite/);
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

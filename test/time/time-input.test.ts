import fc from 'fast-check';
import { InvalidTimeError, LossyTimeConversionError } from '../../src/time/errors.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { formatSeconds, formatTimecode, timeToOutput } from '../../src/time/time-format.js';
import { parseFps, parseTime, resolveInterval, resolveTimes } from '../../src/time/time-input.js';

const seconds = (input: Parameters<typeof parseTime>[0], fps?: number | string): string => {
  const { num, den } = parseTime(input, { fps }).seconds;
  return den === 1n ? String(num) : `${num}/${den}`;
};

describe('parseTime: one vocabulary', () => {
  it.each([
    ['12.345', '2469/200'],
    [12.345, '2469/200'],
    ['-0.25', '-1/4'],
    ['1e-3', '1/1000'],
    ['3/4', '3/4'],
    ['7', '7'],
  ])('seconds %j', (input, expected) => expect(seconds(input)).toBe(expected));

  it.each([
    ['00:00:12.345', '2469/200'],
    ['00:00:12,345', '2469/200'],
    ['01:02:03.500', '7447/2'],
    ['02:03.5', '247/2'],
    ['1:02:03', '3723'],
    ['-00:00:01.250', '-5/4'],
    ['00:00:01.0625', '17/16'],
  ])('timecode %j', (input, expected) => expect(seconds(input)).toBe(expected));

  it.each([
    ['00:00:01:12', 24, '3/2'],
    ['00:00:01:12', '25', '37/25'],
    ['01:00:00:00', 25, '3600'],
    ['00:00:01:00', '30000/1001', '1001/1000'],
    ['00:00:01:00', '29.97', '1001/1000'],
    ['00:00:00:01', 23.976, '1001/24000'],
  ])('SMPTE %j at %j fps', (input, fps, expected) => expect(seconds(input, fps)).toBe(expected));

  it('takes {v, r} and checks its s', () => {
    expect(seconds({ v: 7800, r: 1000 })).toBe('39/5');
    expect(seconds({ v: 7800, r: 1000, s: '7.8' })).toBe('39/5');
    expect(() => parseTime({ v: 7800, r: 1000, s: '7.9' }, { field: 'start' })).toThrow(/start\.s: "7\.9" disagrees with v\/r = 7800\/1000/);
  });

  it('refuses what is not a time, naming the field and value', () => {
    expect(() => parseTime('soon', { field: 'start' })).toThrow(InvalidTimeError);
    expect(() => parseTime('soon', { field: 'start' })).toThrow(/start: .*"soon"/);
    expect(() => parseTime('00:61:00.000', { field: 'end' })).toThrow(/61 minutes/);
    expect(() => parseTime('00:00:01:12', { field: '--start' })).toThrow(/--start: "00:00:01:12" is an SMPTE timecode.*fps/);
    expect(() => parseTime('00:00:01:25', { field: 'start', fps: 25 })).toThrow(/frame 25, but 25 fps counts frames 0 to 24/);
    expect(() => parseTime('00:00:01;12', { fps: 30 })).toThrow(/drop-frame/);
    expect(() => parseTime(true as never, { field: 'start' })).toThrow(/start: expected seconds/);
    expect(() => parseFps('0')).toThrow(/positive/);
    expect(() => parseFps('fast')).toThrow(/frames per second/);
  });
});

describe('resolveTimes and resolveInterval: exact at a rate', () => {
  it('uses the rate the values need when none is given', () => {
    const [a, b] = resolveTimes([{ value: '1.5', field: 'a' }, { value: '00:00:02.25', field: 'b' }]);
    expect([a.toWire(), b.toWire()]).toEqual([{ v: 150, r: 100 }, { v: 225, r: 100 }]);
    const [f] = resolveTimes([{ value: '00:00:01:12', field: 'f' }], { fps: 24, minimumRate: 1000 });
    expect(f.toWire()).toEqual({ v: 36, r: 24 });
    const [m] = resolveTimes([{ value: '2', field: 'm' }], { minimumRate: 1000 });
    expect(m.toWire()).toEqual({ v: 2000, r: 1000 });
    const [third] = resolveTimes([{ value: '1/3', field: 't' }], { minimumRate: 1000 });
    expect(third.toWire()).toEqual({ v: 1000, r: 3000 });
  });

  it('keeps a {v, r} pair as given, and converts it exactly to a given rate', () => {
    const [pair] = resolveTimes([{ value: { v: 2, r: 48 }, field: 'p' }]);
    expect(pair.toWire()).toEqual({ v: 2, r: 48 });
    expect(resolveTimes([{ value: { v: 2, r: 48 }, field: 'p' }], { rate: 24 })[0].toWire()).toEqual({ v: 1, r: 24 });
  });

  it('never rounds: a value not whole at the rate is an error naming it', () => {
    expect(() => resolveTimes([{ value: '0.1', field: 'start' }], { rate: 3 })).toThrow(LossyTimeConversionError);
    expect(() => resolveTimes([{ value: '0.1', field: 'start' }], { rate: 3 })).toThrow(/start: "0\.1" \(0\.1 s\) is not a whole number of ticks at rate 3/);
    expect(() => resolveTimes([{ value: '00:00:00:01', field: 'end' }], { rate: 1000, fps: 24 })).toThrow(/end: "00:00:00:01" \(1\/24 s\) is not a whole number of ticks at rate 1000/);
    expect(() => resolveTimes([{ value: { v: 1, r: 48 }, field: 'p' }], { rate: 1000 })).toThrow(LossyTimeConversionError);
  });

  it('refuses an end before the start', () => {
    expect(() => resolveInterval('00:00:05.000', '2')).toThrow(/end \(2 s\) precedes start \(5 s\)/);
    expect(resolveInterval('00:00:01.000', 2.5, { minimumRate: 1000 }).toWire()).toEqual({ start: { v: 1000, r: 1000 }, end: { v: 2500, r: 1000 } });
  });

  it('parses every decimal exactly (property)', () => {
    fc.assert(fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 0, max: 6 }), (ticks, digits) => {
      const rate = 10 ** digits;
      const time = new RationalTime(ticks, rate);
      const [back] = resolveTimes([{ value: formatSeconds(time), field: 't' }], { rate });
      const [fromTimecode] = resolveTimes([{ value: formatTimecode(time), field: 't' }], { rate });
      return back.v === ticks && fromTimecode.v === ticks;
    }));
  });
});

describe('formatter', () => {
  it.each([
    [7800, 1000, '7.8', '00:00:07.800'],
    [0, 1, '0', '00:00:00.000'],
    [-250, 1000, '-0.25', '-00:00:00.250'],
    [1, 16, '0.0625', '00:00:00.0625'],
    [3723 * 2 + 1, 2, '3723.5', '01:02:03.500'],
    [1, 3, '1/3', '~00:00:00.333'],
    [2, 3, '2/3', '~00:00:00.667'],
    [1001, 30000, '1001/30000', '~00:00:00.033'],
  ])('%i/%i is %j, %j', (v, r, s, tc) => {
    const time = new RationalTime(v, r);
    expect(formatSeconds(time)).toBe(s);
    expect(formatTimecode(time)).toBe(tc);
  });

  it('gives the styles of output', () => {
    const time = new RationalTime(7800, 1000);
    expect(timeToOutput(time)).toEqual({ v: 7800, r: 1000, s: '7.8' });
    expect(timeToOutput(time, 'timecode')).toEqual({ v: 7800, r: 1000, s: '7.8', tc: '00:00:07.800' });
    expect(timeToOutput(time, 'ticks')).toEqual({ v: 7800, r: 1000 });
  });

  it('s reads back to the same value for any pair (property)', () => {
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 1, max: 1e6 }), (v, r) => {
      const time = new RationalTime(v, r);
      return RationalTime.fromWire({ v, r, s: formatSeconds(time) }).equals(time);
    }));
  });
});

describe('resolveTimes on plain decimals (its path without BigInt)', () => {
  it('gives the very pairs the general parser gives', () => {
    const decimal = fc.tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 2 }))
      .map(([negative, magnitude, point, zeros]) => {
        const text = magnitude.toString().padStart(point + 1, '0');
        const spelled = point === 0 ? text : `${text.slice(0, text.length - point)}.${text.slice(text.length - point)}${'0'.repeat(zeros)}`;
        return (negative ? '-' : '') + spelled;
      });
    fc.assert(fc.property(decimal, decimal, fc.constantFrom(1, 10, 1000), (a, b, minimumRate) => {
      const plain = resolveTimes([{ value: a, field: 'a' }, { value: b, field: 'b' }], { minimumRate });
      // A leading space is read the same but not by the plain path.
      const general = resolveTimes([{ value: ` ${a}`, field: 'a' }, { value: ` ${b}`, field: 'b' }], { minimumRate });
      expect(plain.map((t) => [t.v, t.r])).toEqual(general.map((t) => [t.v, t.r]));
    }));
  });
});

import { decimalRateFor, exactFrameRate, ImportClock, timeFromFrames } from '../../src/adapters/import-clock.js';
import { RationalTime } from '../../src/time/rational-time.js';

describe('decimalRateFor', () => {
  it('picks the power of ten the digits need', () => {
    expect(decimalRateFor(['2.5'])).toBe(10);
    expect(decimalRateFor(['1', '2.25', '0.125'])).toBe(1000);
    expect(decimalRateFor([0.1, 12])).toBe(10);
  });

  it('never goes below the format unit', () => {
    expect(decimalRateFor(['2'], 1000)).toBe(1000);
  });

  it('keeps the largest time within a safe integer of ticks', () => {
    const rate = decimalRateFor(['12.778410892095105']);
    expect(rate).toBe(1e14);
    expect(12.778410892095105 * rate).toBeLessThan(Number.MAX_SAFE_INTEGER);
  });

  it('uses the finest safe decimal rate for times no decimal rate makes exact', () => {
    expect(decimalRateFor(['1/3'])).toBe(1e15);
  });
});

describe('ImportClock', () => {
  it('converts exact times without counting them', () => {
    const clock = new ImportClock(1000);
    expect(clock.seconds('1.25').isIdentical(new RationalTime(1250, 1000))).toBe(true);
    expect(clock.quantization()).toEqual({ count: 0, maxErrorSeconds: 0 });
  });

  it('rounds inexact times half to even and reports how many and the largest error', () => {
    const clock = new ImportClock(10);
    expect(clock.seconds('0.25').v).toBe(2); // 2.5 ticks: ties to even
    expect(clock.seconds('0.35').v).toBe(4); // 3.5 ticks: ties to even
    expect(clock.seconds('0.31').v).toBe(3);
    const { count, maxErrorSeconds } = clock.quantization();
    expect(count).toBe(3);
    expect(maxErrorSeconds).toBeCloseTo(0.05, 12);
  });

  it('refuses to round in strict mode, naming the place and the value', () => {
    const clock = new ImportClock(1000, true);
    expect(() => clock.seconds('0.0005', 'cue 3 start')).toThrow(/cue 3 start: 0.0005 s is not a whole number of ticks at rate 1000.*--strict-time/);
  });
});

describe('frame rates', () => {
  it('reads a float within 1e-6 of an NTSC rate as that exact rational', () => {
    expect(exactFrameRate(29.97002997002997)).toEqual({ num: 30000n, den: 1001n });
    expect(exactFrameRate('23.976023976')).toEqual({ num: 24000n, den: 1001n });
  });

  it('reads any other rate as the decimal written', () => {
    expect(exactFrameRate(23.976)).toEqual({ num: 2997n, den: 125n });
    expect(exactFrameRate(25)).toEqual({ num: 25n, den: 1n });
  });

  it('turns whole frame counts into exact times at the frame rate', () => {
    const time = timeFromFrames(1001, exactFrameRate(29.97));
    expect(time.isIdentical(new RationalTime(1001 * 100, 2997))).toBe(true);
    expect(timeFromFrames(30, { num: 30000n, den: 1001n }).equals(RationalTime.fromSeconds('1.001', 1000))).toBe(true);
  });
});

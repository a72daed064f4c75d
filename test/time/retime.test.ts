import { describe, expect, it } from '@jest/globals';
import { RationalTime } from '../../src/time/rational-time.js';
import { describeMap, flagSpelling, inverseMap, retimeMap, TimeMapper } from '../../src/time/retime.js';

const ms = (v: number): RationalTime => new RationalTime(v, 1000);
const after = (request: Parameters<typeof retimeMap>[0], time: RationalTime) => new TimeMapper(retimeMap(request)).apply(time);

describe('retimeMap', () => {
  it('shifts exactly in every time form', () => {
    expect(after({ shift: '2.5' }, ms(1000)).time.v).toBe(3500);
    expect(after({ shift: '-00:00:01.200' }, ms(5000)).time.v).toBe(3800);
    expect(after({ shift: '-00:00:12:05', fps: 25 }, ms(20_000)).time.v).toBe(7800);
    expect(after({ shift: { v: 3, r: 2 } }, ms(0)).time.v).toBe(1500);
  });

  it('changes frame rate as an exact ratio, 23.976 meaning 24000/1001', () => {
    const map = retimeMap({ fps_from: '23.976', fps_to: 25 });
    expect(map.factor).toEqual({ num: 960n, den: 1001n }); // 24000/25025, reduced
    // Frame 1001 of 24000/1001 fps (41.708333... s) is frame 1001 at 25 fps: 40.04 s.
    const frame = new RationalTime(1001 * 1001, 24000);
    expect(new TimeMapper(map).apply(frame)).toEqual({ time: new RationalTime(40.04 * 24000, 24000), rounded: false });
  });

  it('rounds to the nearest tick, ties to even, and says so', () => {
    const result = after({ scale: '1/3' }, ms(1000));
    expect(result).toEqual({ time: ms(333), rounded: true });
  });

  it('maps two points linearly, whatever comma a timecode uses', () => {
    const map = retimeMap({ sync: '00:00:10,000=00:00:12,500,01:00:00,000=01:00:04,000' });
    const mapper = new TimeMapper(map);
    expect(mapper.apply(ms(10_000)).time.v).toBe(12_500);
    expect(mapper.apply(ms(3_600_000)).time.v).toBe(3_604_000);
  });

  it('refuses what it cannot mean, naming the flag', () => {
    expect(() => retimeMap({ fps_from: 25 }, flagSpelling)).toThrow(/--fps-to: missing/);
    expect(() => retimeMap({ scale: '-2' }, flagSpelling)).toThrow(/--scale: expected a positive ratio/);
    expect(() => retimeMap({ sync: '10=12,10=14' }, flagSpelling)).toThrow(/--sync: the two points are at the same time/);
    expect(() => retimeMap({ sync: '10=12', scale: 2 }, flagSpelling)).toThrow(/--sync/);
    expect(() => retimeMap({ within: ['10', '5'] }, flagSpelling)).toThrow(/--within: END must be after START/);
  });

  it('inverts', () => {
    const map = retimeMap({ fps_from: '24000/1001', fps_to: 25, shift: '1.5' });
    const inverse = new TimeMapper(inverseMap(map));
    const mapped = new TimeMapper(map).apply(new RationalTime(1001 * 7, 24000)).time;
    expect(inverse.apply(new RationalTime(mapped.v, mapped.r)).time.equals(new RationalTime(1001 * 7, 24000))).toBe(true);
    expect(describeMap(map)).toBe('×960/1001, +1.5 s');
  });
});

import { matchByMaximalOverlap } from '../../src/quality/segment-matching.js';
import { TimeInterval } from '../../src/time/time-interval.js';

const seg = (name: string, start: string, end: string) => ({ name, interval: TimeInterval.fromSeconds(start, end, 1000) });

describe('matchByMaximalOverlap', () => {
  it('pairs the largest overlaps first, one to one', () => {
    // b1 overlaps a1 by 1 and a2 by 3: a2 takes it, and a1 falls back to b0.
    const a = [seg('a1', '0', '4'), seg('a2', '4', '10')];
    const b = [seg('b0', '0', '3'), seg('b1', '3', '7')];
    const { matched, missing, extra } = matchByMaximalOverlap(a, b);
    expect(matched.map(([x, y]) => `${x.name}-${y.name}`)).toEqual(['a1-b0', 'a2-b1']);
    expect(missing).toEqual([]);
    expect(extra).toEqual([]);
  });

  it('never pairs touching segments, pairs equal points, and leaves the rest missing or extra', () => {
    const a = [seg('a1', '0', '1'), seg('p', '5', '5'), seg('a3', '7', '8')];
    const b = [seg('b1', '1', '2'), seg('q', '5', '5'), seg('b3', '20', '21')];
    const { matched, missing, extra } = matchByMaximalOverlap(a, b);
    expect(matched.map(([x, y]) => `${x.name}-${y.name}`)).toEqual(['p-q']);
    expect(missing.map((x) => x.name)).toEqual(['a1', 'a3']);
    expect(extra.map((x) => x.name)).toEqual(['b1', 'b3']);
  });

  it('finds overlaps with a long segment that starts before many short ones', () => {
    const a = [seg('short1', '1', '2'), seg('short2', '50', '51')];
    const b = [seg('long', '0', '100'), seg('tiny', '1.5', '1.6')];
    const { matched } = matchByMaximalOverlap(a, b);
    expect(matched.map(([x, y]) => `${x.name}-${y.name}`)).toEqual(['short1-long']);
  });
});

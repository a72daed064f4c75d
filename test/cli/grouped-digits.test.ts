import { groupedDigits, plural } from '../../src/cli/finding-output.js';

describe('counts in messages', () => {
  it.each([0, 7, 999, 1000, 12345, 100000, 1234567, 1000000000, -4500])('groups %d by threes as en-US does', (count) => {
    expect(groupedDigits(count)).toBe(count.toLocaleString('en-US'));
  });

  it('says one annotation and two annotations', () => {
    expect(plural(1, 'annotation')).toBe('1 annotation');
    expect(plural(100000, 'annotation')).toBe('100,000 annotations');
  });
});

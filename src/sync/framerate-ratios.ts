import type { Fraction } from '../time/decimal.js';

/** 23.976 fps exactly: NTSC film, 24000/1001. */
const FILM_NTSC: Fraction = { num: 24000n, den: 1001n };

/** ratio a/b of two rates, reduced. */
function over(a: Fraction, b: Fraction): Fraction {
  let num = a.num * b.den;
  let den = a.den * b.num;
  let x = num;
  let y = den;
  while (y !== 0n) [x, y] = [y, x % y];
  num /= x;
  den /= x;
  return { num, den };
}

const whole = (n: bigint): Fraction => ({ num: n, den: 1n });

/**
 * The ratios a sync tries, as ffsubsync does: none, and the changes between 23.976 (24000/1001),
 * 24 and 25 fps that releases of one film differ by (25/23.976 is 1001/960 exactly). A ratio is
 * the factor applied to the subtitle's times.
 */
export const FRAMERATE_RATIOS: readonly Fraction[] = Object.freeze([
  whole(1n),
  over(whole(25n), FILM_NTSC),
  over(FILM_NTSC, whole(25n)),
  over(whole(24n), whole(25n)),
  over(whole(25n), whole(24n)),
]);

/** A ratio as a number, for drawing signals. */
export function ratioValue(ratio: Fraction): number {
  return Number(ratio.num) / Number(ratio.den);
}

/**
 * How a ratio reads in messages: `960/1001 (from 23.976 to 25 fps)`, or `1` for none. The names
 * are those of `--fps-from A --fps-to B`, which scales times by A/B: a subtitle made for the
 * 23.976 fps release is sped up with the film to 25 fps, its times multiplied by 23.976/25.
 */
export function describeRatio(ratio: Fraction): string {
  if (ratio.den === 1n && ratio.num === 1n) return '1';
  const names: Record<string, string> = {
    '1001/960': 'from 25 to 23.976 fps',
    '960/1001': 'from 23.976 to 25 fps',
    '24/25': 'from 24 to 25 fps',
    '25/24': 'from 25 to 24 fps',
  };
  const text = `${ratio.num}/${ratio.den}`;
  return names[text] ? `${text} (${names[text]})` : text;
}

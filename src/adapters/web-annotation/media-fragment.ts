import { compareFractions, fractionToDecimal, parseSeconds } from '../../time/decimal.js';
import type { RationalTime } from '../../time/rational-time.js';

/**
 * The temporal dimension of a W3C Media Fragment (`t=10,20`, `t=npt:10,20`, `t=,20`, `t=7`,
 * `t=npt:00:01:02.5`), possibly among other dimensions (`xywh=1,2,3,4&t=11,42`).
 *
 * Times are decimal seconds, exact (hh:mm:ss is summed with bigints). A missing start is 0; a
 * missing end is open-ended: to the end of the media, whose length the fragment does not give,
 * so the caller keeps it as a point at the start marked open-ended.
 */
export interface TemporalFragment {
  readonly start: string;
  /** null when open-ended (`t=7`). */
  readonly end: string | null;
}

export class MediaFragmentError extends Error {}

/** The t= dimension of a fragment, null when it has none; MediaFragmentError when it is malformed or not npt. */
export function temporalFragment(fragment: string): TemporalFragment | null {
  const text = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  const parameter = text.split('&').find((part) => part.startsWith('t='));
  if (parameter === undefined) return null;
  let value = decodeURIComponent(parameter.slice(2));
  if (value.startsWith('npt:')) value = value.slice(4);
  else if (/^[a-z-]+:/i.test(value)) throw new MediaFragmentError(`expected npt time ("t=10,20" or "t=npt:10,20"); ${value.split(':')[0]} time codes are not supported`);
  const parts = value.split(',');
  if (parts.length > 2) throw new MediaFragmentError(`expected "t=<start>,<end>", got "${parameter}"`);
  const start = parts[0] === '' ? '0' : nptSeconds(parts[0], parameter);
  if (parts.length === 1) {
    if (parts[0] === '') throw new MediaFragmentError(`expected a time after "t=", got "${parameter}"`);
    return { start, end: null };
  }
  if (parts[1] === '') throw new MediaFragmentError(`expected an end time after the comma in "${parameter}"`);
  const end = nptSeconds(parts[1], parameter);
  const a = parseSeconds(start);
  const b = parseSeconds(end);
  if (compareFractions(a, b) > 0) throw new MediaFragmentError(`expected a start no later than the end in "${parameter}"`);
  return { start, end };
}

/** The fragment with its t= dimension set to the interval (other dimensions kept, t= appended if absent). */
export function withTemporal(fragment: string, start: RationalTime, end: RationalTime | null): { fragment: string; exact: boolean } {
  const first = secondsText(start);
  const second = end === null ? null : secondsText(end);
  const t = `t=${first.text}${second === null ? '' : `,${second.text}`}`;
  const parts = fragment === '' ? [] : fragment.split('&');
  const index = parts.findIndex((part) => part.startsWith('t='));
  if (index >= 0) parts[index] = t;
  else parts.push(t);
  return { fragment: parts.join('&'), exact: first.exact && (second?.exact ?? true) };
}

/** Seconds as Media Fragments write them: an exact decimal, else 9 decimals (not exact). */
export function secondsText(time: RationalTime): { text: string; exact: boolean } {
  const { num, den } = time.toFraction();
  const decimal = fractionToDecimal(num, den);
  if (decimal !== null) return { text: decimal, exact: true };
  return { text: String(Number((Number(num) / Number(den)).toFixed(9))), exact: false };
}

const NPT_CLOCK = /^(?:(\d+):)?(\d{1,2}):(\d{1,2}(?:\.\d*)?)$/;
const NPT_SECONDS = /^\d+(?:\.\d*)?$/;

function nptSeconds(text: string, parameter: string): string {
  if (NPT_SECONDS.test(text)) return text.endsWith('.') ? text.slice(0, -1) : text;
  const clock = NPT_CLOCK.exec(text);
  if (!clock) throw new MediaFragmentError(`expected npt seconds ("12.5") or hh:mm:ss ("00:01:02.5") in "${parameter}", got "${text}"`);
  const [, hours = '0', minutes, seconds] = clock;
  if (Number(minutes) > 59 || Number(seconds) >= 60) throw new MediaFragmentError(`expected minutes and seconds below 60 in "${parameter}"`);
  const fraction = parseSeconds(seconds.endsWith('.') ? seconds.slice(0, -1) : seconds);
  const whole = BigInt(hours) * 3600n + BigInt(minutes) * 60n;
  return fractionToDecimal(whole * fraction.den + fraction.num, fraction.den)!;
}

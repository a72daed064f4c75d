import { multiply, seconds } from './exact-seconds.js';
import type { TimingParameters } from './ttml-time.js';

/**
 * The parameters pass: the timing parameters of the `tt` element (TTML2 section 7.2), each
 * defaulted as the specification says when absent; one that does not read is reported and
 * defaulted. ttp:tickRate defaults to the effective frame rate × ttp:subFrameRate (rounded up)
 * when a frame rate is given, else to 1.
 */
export function timingParameters(attributes: Readonly<Record<string, string>>, problem: (attribute: string, message: string) => void): TimingParameters {
  const integer = (name: string, fallback: bigint): bigint => {
    const value = attributes[name];
    if (value === undefined) return fallback;
    if (/^\s*\d+\s*$/.test(value) && BigInt(value.trim()) > 0n) return BigInt(value.trim());
    problem(name, `${name}="${value}" is not a positive integer; read as ${fallback}`);
    return fallback;
  };
  const frameRate = integer('ttp:frameRate', 30n);
  const multiplier = frameRateMultiplier(attributes['ttp:frameRateMultiplier'], problem);
  const effectiveFrameRate = multiply(seconds(frameRate), multiplier);
  const subFrameRate = integer('ttp:subFrameRate', 1n);
  const defaultTicks = attributes['ttp:frameRate'] !== undefined ? ceiling(multiply(effectiveFrameRate, seconds(subFrameRate))) : 1n;
  const tickRate = integer('ttp:tickRate', defaultTicks);
  const timeBase = choice(attributes['ttp:timeBase'], ['media', 'smpte', 'clock'] as const, 'media', 'ttp:timeBase', problem);
  if (timeBase === 'clock') problem('ttp:timeBase', 'ttp:timeBase="clock" (wall-clock time) is read as media time');
  const dropMode = choice(attributes['ttp:dropMode'], ['nonDrop', 'dropNTSC', 'dropPAL'] as const, 'nonDrop', 'ttp:dropMode', problem);
  return { frameRate, effectiveFrameRate, subFrameRate, tickRate, timeBase, dropMode };
}

function frameRateMultiplier(value: string | undefined, problem: (attribute: string, message: string) => void) {
  if (value === undefined) return seconds(1n);
  const match = /^\s*(\d+)\s+(\d+)\s*$/.exec(value);
  if (match !== null && match[1] !== '0' && match[2] !== '0') return seconds(BigInt(match[1]), BigInt(match[2]));
  problem('ttp:frameRateMultiplier', `ttp:frameRateMultiplier="${value}" is not two positive integers ("1000 1001"); read as 1 1`);
  return seconds(1n);
}

function choice<T extends string>(value: string | undefined, allowed: readonly T[], fallback: T, name: string, problem: (attribute: string, message: string) => void): T {
  if (value === undefined) return fallback;
  const found = allowed.find((option) => option === value.trim());
  if (found !== undefined) return found;
  problem(name, `${name}="${value}" is none of ${allowed.join(', ')}; read as ${fallback}`);
  return fallback;
}

function ceiling(value: { num: bigint; den: bigint }): bigint {
  return (value.num + value.den - 1n) / value.den;
}

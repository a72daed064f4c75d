import { InvalidInputError } from '../errors/annot-error.js';
import type { FlagSpecs } from './flag-specs.js';

/** `--hold`: seconds a shot without beats is shown (animatic, timelines). Plain data (flag-specs.ts), free of render imports. */
export const HOLD_FLAG = {
  hold: { kind: 'string', description: 'seconds a shot without beats is shown in the animatic and the timelines', default: '2' },
} as const satisfies FlagSpecs;

export function parseHold(text: string): number {
  const seconds = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) {
    throw new InvalidInputError(`--hold: expected a number of seconds above 0 (at most 3600), got "${text}"`);
  }
  return seconds;
}

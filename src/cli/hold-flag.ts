import { Flags } from '@oclif/core';
import { InvalidInputError } from '../errors/annot-error.js';

/** `--hold`: seconds a shot without beats is shown (animatic, timelines). Free of render imports. */
export const holdFlag = Flags.string({ description: 'seconds a shot without beats is shown in the animatic and the timelines', default: '2' });

export function parseHold(text: string): number {
  const seconds = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) {
    throw new InvalidInputError(`--hold: expected a number of seconds above 0 (at most 3600), got "${text}"`);
  }
  return seconds;
}

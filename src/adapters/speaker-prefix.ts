import type { DumpOptions } from './adapter.js';

/**
 * Speakers in the plain cue formats (SRT, SBV), which have no place for one: written as
 * "Name: text" with the variant speaker-prefix, else counted as lost under one wording.
 */
export function writesSpeakerPrefix(options: DumpOptions): boolean {
  return options.speakerPrefix === true || options.variant === 'speaker-prefix';
}

/** "Name: text", the name on one line. */
export function speakerPrefixed(speaker: string, text: string): string {
  return `${speaker.replace(/[\r\n]+/g, ' ').trim()}: ${text}`;
}

/** What the dump report says of the speakers it did not write. */
export const SPEAKERS_NOT_WRITTEN = 'speakers (the variant speaker-prefix writes them as "Name: text")';

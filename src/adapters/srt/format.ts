import type { FormatAdapter } from '../adapter.js';
import { looksLikeSrt } from '../sniffers.js';
import { SRT_CUE_SCHEMA } from './cue-schema.js';

export const srtFormat: FormatAdapter = {
  name: 'srt',
  extensions: ['.srt'],
  mediaTypes: ['application/x-subrip'],
  description:
    'SubRip subtitles (tolerant reader: BOM, UTF-16, CR/CRLF, missing numbers, "." or "," before ms, coordinates): keeps times (exact ms), the plain text (<b>, <i>, <u>, <s>, <font> and {\\...} left out) with the lines as written beside it when they have tags, coordinates; one tier (--tier, default "subtitles"); non-standard timestamps are read with a warning; writing renumbers cues, merges all tiers in time order, removes WebVTT-only markup (voices, classes, ruby, timestamp tags), writes speakers as "Name: text" with --variant speaker-prefix, and drops tier names, ids, provenance and confidence.',
  bodySchemas: [SRT_CUE_SCHEMA],
  sniff: looksLikeSrt,
  codec: () => import('./codec.js').then((module) => module.srtCodec),
};

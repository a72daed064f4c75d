import type { FormatAdapter } from '../adapter.js';
import { looksLikeWebVtt } from '../sniffers.js';

export const webvttFormat: FormatAdapter = {
  name: 'webvtt',
  extensions: ['.vtt'],
  mediaTypes: ['text/vtt'],
  description:
    'WebVTT (W3C parsing algorithm): keeps cue times (exact ms), ids, cue settings as typed fields (vertical, line, position, size, align, region), the speaker of a <v> voice span, the plain text (tags left out, references decoded) with the payload as written beside it when it has markup, REGION blocks (metadata webvtt.regions), NOTE/STYLE blocks and header; one tier (--tier, default "cues"); writing merges all tiers in time order, writes a body speaker as a voice span, and drops tier names, provenance and confidence.',
  bodySchemas: ['annot://schema/webvtt-cue/v2'],
  sniff: looksLikeWebVtt,
  codec: () => import('./codec.js').then((module) => module.webvttCodec),
};

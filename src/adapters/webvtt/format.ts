import type { FormatAdapter } from '../adapter.js';
import { looksLikeWebVtt } from '../sniffers.js';

export const webvttFormat: FormatAdapter = {
  name: 'webvtt',
  extensions: ['.vtt'],
  mediaTypes: ['text/vtt'],
  description:
    'WebVTT (W3C parsing algorithm): keeps cue times (exact ms), ids, settings, text with its tags, NOTE/STYLE/REGION blocks and header; one tier (--tier, default "cues"); writing merges all tiers in time order and drops tier names, provenance and confidence.',
  bodySchemas: ['annot://schema/webvtt-cue/v1'],
  sniff: looksLikeWebVtt,
  codec: () => import('./codec.js').then((module) => module.webvttCodec),
};

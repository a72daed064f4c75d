import type { FormatAdapter } from '../adapter.js';
import { looksLikeTtml } from '../sniffers.js';
import { TTML_CUE_SCHEMA } from './ttml-model.js';

export const ttmlFormat: FormatAdapter = {
  name: 'ttml',
  extensions: ['.ttml', '.dfxp', '.xml'],
  sniffedExtensions: ['.xml'],
  mediaTypes: ['application/ttml+xml'],
  description:
    'TTML (TTML1/2, IMSC 1.x, DFXP; .xml when the root is <tt> in the TTML namespace): each paragraph shown becomes an annotation at its exact time (clock and offset times, frames with ttp:frameRate and ttp:frameRateMultiplier, ticks, par and seq time containment, never floats), with its plain text (spans joined, <br/> as a line break), xml:lang, ttm:agent or ttm:role as the speaker, region, styles and content markup kept beside it, and the head (styling, layout, metadata) as metadata; one tier (--tier, default "subtitles"); writes IMSC 1.1 Text Profile documents, dropping tier names, provenance and confidence.',
  bodySchemas: [TTML_CUE_SCHEMA],
  sniff: looksLikeTtml,
  codec: () => import('./codec.js').then((module) => module.ttmlCodec),
};

import type { FormatAdapter } from '../adapter.js';
import { looksLikeSbv } from '../sniffers.js';
import { SBV_CUE_SCHEMA } from './cue-schema.js';

export { SBV_CUE_SCHEMA };

export const sbvFormat: FormatAdapter = {
  name: 'sbv',
  extensions: ['.sbv'],
  mediaTypes: ['text/x-sbv'],
  description:
    'YouTube SBV captions ("0:00:01.000,0:00:03.500" timing lines, blank-line separated): keeps times (exact ms) and text; one tier (--tier, default "captions"); writing merges all tiers in time order, writes plain text (styling dropped), speakers as "Name: text" with --variant speaker-prefix, and drops tier names, provenance and confidence.',
  bodySchemas: [SBV_CUE_SCHEMA],
  sniff: looksLikeSbv,
  codec: () => import('./codec.js').then((module) => module.sbvCodec),
};

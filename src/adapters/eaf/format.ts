import type { FormatAdapter } from '../adapter.js';
import { looksLikeEaf } from '../sniffers.js';
import { EAF_ANNOTATION_SCHEMA } from './eaf-model.js';

export const eafFormat: FormatAdapter = {
  name: 'eaf',
  extensions: ['.eaf'],
  mediaTypes: ['application/x-eaf+xml', 'text/x-eaf+xml'],
  description:
    'ELAN EAF 2.7-3.0: keeps tiers, linguistic types, all four constraints, parents, participants, annotators, ' +
    'millisecond times, unaligned slots, REF_ANNOTATIONs as annotation references, controlled vocabularies, CVE/EXT/LANG refs, ' +
    'annotation ids and header. Loses provenance, confidence, annotation UUIDs and other body fields.',
  bodySchemas: [EAF_ANNOTATION_SCHEMA],
  sniff: looksLikeEaf,
  codec: () => import('./codec.js').then((module) => module.eafCodec),
};

import type { FormatAdapter } from '../adapter.js';
import { looksLikeJams } from '../sniffers.js';

export const jamsFormat: FormatAdapter = {
  name: 'jams',
  extensions: ['.jams', '.jamz', '.json'],
  mediaTypes: ['application/vnd.jams+json'],
  description:
    'JAMS music annotations (.jams, gzip .jamz): namespaces become tiers, observations keep time, duration, value (verbatim, NaN included) and confidence; annotation and file metadata and sandboxes round-trip. Loses ids and provenance.',
  bodySchemas: ['annot://schema/jams-observation/v1'],
  sniff: looksLikeJams,
  codec: () => import('./codec.js').then((module) => module.jamsCodec),
};

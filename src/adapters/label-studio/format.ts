import type { FormatAdapter } from '../adapter.js';
import { looksLikeLabelStudio } from '../sniffers.js';

export const labelStudioFormat: FormatAdapter = {
  name: 'label_studio',
  extensions: ['.labelstudio.json', '.json'],
  mediaTypes: ['application/x-label-studio+json'],
  description:
    'Label Studio JSON export: timed audio, video (frames) and time-series regions become annotations on their from_name tier with the result kept verbatim; predictions carry their score as confidence. Results without a time stay in store meta, not as annotations. Loses provenance.',
  bodySchemas: ['annot://schema/label-studio-region/v1'],
  sniff: looksLikeLabelStudio,
  codec: () => import('./codec.js').then((module) => module.labelStudioCodec),
};

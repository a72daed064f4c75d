import type { FormatAdapter } from '../adapter.js';
import { looksLikeWebAnnotation } from '../sniffers.js';

export const webAnnotationFormat: FormatAdapter = {
  name: 'web_annotation',
  extensions: ['.jsonld', '.json'],
  mediaTypes: ['application/ld+json'],
  description:
    'W3C Web Annotation (JSON-LD): annotations with a media-fragment time (t=, npt, hh:mm:ss, open-ended t=7, in selectors or #t= IRIs) keep ids (urn:uuid), bodies, targets and the rest verbatim; annotations without a time stay in store meta, not as annotations. Loses tiers, confidence and provenance beyond the creator.',
  bodySchemas: ['annot://schema/web-annotation/v1'],
  sniff: looksLikeWebAnnotation,
  codec: () => import('./codec.js').then((module) => module.webAnnotationCodec),
};

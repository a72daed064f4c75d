import type { FormatAdapter } from '../adapter.js';
import { looksLikeOtio } from '../sniffers.js';
import { OTIO_CLIP_SCHEMA, OTIO_MARKER_SCHEMA } from './otio-model.js';

export const otioFormat: FormatAdapter = {
  name: 'otio',
  extensions: ['.otio'],
  mediaTypes: ['application/vnd.otio+json'],
  description:
    'OpenTimelineIO timeline: tracks become tiers, clips and transitions exact rational intervals (NTSC rates exact), ' +
    'markers on timeline, tracks, clips and gaps annotations that are read back; names, metadata, media references and effects kept. ' +
    'Gaps that say something (a name, metadata, markers) or end a track are kept as items, so tracks keep their length; ' +
    'a nested stack\'s or track\'s own tracks become tiers linked to it and are written back inside it. ' +
    'A track\'s or nested item\'s source_range trims what it shows (items past it left out or cut, ' +
    'as OTIO\'s track_trimmed_to_range does, with a warning) and is written back; loses provenance, confidence and annotation references.',
  bodySchemas: [OTIO_CLIP_SCHEMA, OTIO_MARKER_SCHEMA],
  sniff: looksLikeOtio,
  codec: () => import('./codec.js').then((module) => module.otioCodec),
};

import type { FormatAdapter } from '../adapter.js';
import { looksLikeTextGrid } from '../sniffers.js';

export const textgridFormat: FormatAdapter = {
  name: 'textgrid',
  extensions: ['.textgrid'],
  mediaTypes: ['text/x-praat-textgrid'],
  description:
    'Praat TextGrid, long or short text (UTF-8/UTF-16): keeps tiers (duplicate names kept in metadata), intervals, points, labels and grid/tier bounds; writing fills gaps with empty intervals and drops ids, provenance, confidence, non-text body fields and tier hierarchy.',
  bodySchemas: ['annot://schema/textgrid-label/v1'],
  sniff: looksLikeTextGrid,
  codec: () => import('./codec.js').then((module) => module.textgridCodec),
};

import type { FormatAdapter } from '../adapter.js';
import { isSqlite } from '../sniffers.js';

export const annotFormat: FormatAdapter = {
  name: 'annot',
  extensions: ['.annot'],
  mediaTypes: ['application/x-annot+sqlite'],
  description: "annot's own single-file SQLite store. Lossless: every field, provenance, symbolic references, tier hierarchy, metadata and rates.",
  bodySchemas: [],
  sniff: isSqlite,
  codec: async () => (await import('./codec.js')).annotCodec,
};

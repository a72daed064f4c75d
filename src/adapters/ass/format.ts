import type { FormatAdapter } from '../adapter.js';
import { looksLikeAss } from '../sniffers.js';
import { ASS_EVENT_SCHEMA } from './ass-model.js';

export const assFormat: FormatAdapter = {
  name: 'ass',
  extensions: ['.ass', '.ssa'],
  mediaTypes: ['text/x-ssa', 'text/x-ass'],
  description:
    'SubStation Alpha, ASS and SSA (the Format lines decide the columns, as in libass): keeps times (exact centiseconds), the plain text (override tags removed, \\N as a line break) beside the raw text, Name as the speaker, layer, style, margins, effect, Comment events (marked as comments), [Script Info], styles and the sections before [Events] ([Fonts], [Graphics], Aegisub\'s) as metadata; one tier (--tier, default "events"); writing from another format gives ASS with a Default style, speakers as Name, italic, bold and underline as override tags, and drops tier names, provenance and confidence.',
  bodySchemas: [ASS_EVENT_SCHEMA],
  sniff: looksLikeAss,
  codec: () => import('./codec.js').then((module) => module.assCodec),
};

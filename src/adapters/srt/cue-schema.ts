/**
 * The body schema of a cue read from SubRip (schemas/srt-cue/v2.json): `text` is the plain text
 * a person reads, and `raw` the lines as written when they hold tags (srt-markup.ts).
 */
export const SRT_CUE_SCHEMA = 'annot://schema/srt-cue/v2';
/** The first version, whose `text` held the lines as written, tags and all (stores made before v2 hold it). */
export const SRT_CUE_SCHEMA_V1 = 'annot://schema/srt-cue/v1';

/** The body schema of a cue read from SubRip (schemas/srt-cue/v1.json). */
export const SRT_CUE_SCHEMA = 'annot://schema/srt-cue/v1';

/** The body schema of a caption read from SBV (schemas/sbv-cue/v1.json). */
export const SBV_CUE_SCHEMA = 'annot://schema/sbv-cue/v1';

/** The body schema of a region read from Label Studio, kept as it was (schemas/label-studio-region/v1.json). */
export const LABEL_STUDIO_REGION_SCHEMA = 'annot://schema/label-studio-region/v1';

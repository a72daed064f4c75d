/** The body schema of an annotation read from a W3C Web Annotation document, kept as it was (schemas/web-annotation/v1.json). */
export const WEB_ANNOTATION_SCHEMA = 'annot://schema/web-annotation/v1';

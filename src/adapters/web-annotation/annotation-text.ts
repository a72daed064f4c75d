/**
 * The text a person reads in a Web Annotation kept as it was imported: its `bodyValue`, else the
 * `value` of its textual bodies (type TextualBody, or a body with a string value and no id), joined
 * by line breaks; null when it has none (a body that is only an IRI).
 */
export function webAnnotationText(body: Readonly<Record<string, unknown>>): string | null {
  const annotation = body.annotation;
  if (typeof annotation !== 'object' || annotation === null || Array.isArray(annotation)) return null;
  const fields = annotation as Readonly<Record<string, unknown>>;
  if (typeof fields.bodyValue === 'string') return fields.bodyValue;
  const bodies = Array.isArray(fields.body) ? fields.body : fields.body === undefined ? [] : [fields.body];
  const texts: string[] = [];
  for (const item of bodies) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
    const textual = item as Readonly<Record<string, unknown>>;
    if (typeof textual.value === 'string' && (textual.type === 'TextualBody' || textual.id === undefined)) texts.push(textual.value);
  }
  return texts.length === 0 ? null : texts.join('\n');
}

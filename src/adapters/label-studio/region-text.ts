/**
 * The text a person reads in a Label Studio region kept as it was imported: its labels (or
 * choices) joined by ", ", else its free text lines (`textarea`) joined by line breaks; null when
 * the region has neither (a rectangle, a number). What the writer of another format writes.
 */
export function labelStudioRegionText(body: Readonly<Record<string, unknown>>): string | null {
  const value = body.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const fields = value as Readonly<Record<string, unknown>>;
  for (const [key, separator] of [['labels', ', '], ['timeserieslabels', ', '], ['choices', ', '], ['text', '\n']] as const) {
    const items = fields[key];
    if (typeof items === 'string') return items;
    if (Array.isArray(items) && items.length > 0 && items.every((item) => typeof item === 'string')) return items.join(separator);
  }
  return null;
}

import type { Annotation } from '../../model/annotation.js';

/**
 * The JAMS namespace of a tier that did not come from JAMS, and where its name goes. jams loads
 * only files whose annotations name a namespace of its schemata, so a tier's own name ("cues",
 * "A: Äußerung") cannot be one: its annotations' values are their texts, and the namespace says
 * what those are. Words and lyric lines (annot's word and lyric-line bodies) are `lyrics`, song
 * sections `segment_open`, and every other text `tag_open` (an open vocabulary of free text
 * labels). The tier's name is kept in the annotation's sandbox, `{"annot": {"tier": name}}`,
 * and read back as the tier's name.
 */
export type WrittenNamespace = 'lyrics' | 'segment_open' | 'tag_open';

const NAMESPACE_OF_SCHEMA: Readonly<Record<string, WrittenNamespace>> = {
  'annot://schema/word/v1': 'lyrics',
  'annot://schema/lyric-line/v1': 'lyrics',
  'annot://schema/song-section/v1': 'segment_open',
};

/** `lyrics` or `segment_open` when every annotation of the tier is of that kind, else `tag_open`. */
export function namespaceOfTier(members: readonly Annotation[]): WrittenNamespace {
  const kinds = new Set(members.map((annotation) => NAMESPACE_OF_SCHEMA[annotation.body_schema_uri] ?? 'tag_open'));
  return kinds.size === 1 ? ([...kinds][0] as WrittenNamespace) : 'tag_open';
}

/** The sandbox of a JAMS annotation written from a tier: where the tier's name is kept. */
export function sandboxOfTier(name: string): Record<string, unknown> {
  return { annot: { tier: name } };
}

/** The tier name a JAMS annotation's sandbox keeps (see sandboxOfTier), or null. */
export function tierNameInSandbox(sandbox: unknown): string | null {
  if (typeof sandbox !== 'object' || sandbox === null || Array.isArray(sandbox)) return null;
  const annot = (sandbox as Record<string, unknown>).annot;
  if (typeof annot !== 'object' || annot === null || Array.isArray(annot)) return null;
  const tier = (annot as Record<string, unknown>).tier;
  return typeof tier === 'string' && tier.trim() !== '' ? tier : null;
}

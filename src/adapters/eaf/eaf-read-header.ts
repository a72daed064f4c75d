import { toPlain } from './eaf-model.js';
import type { EafReadState } from './eaf-read-state.js';

/**
 * The first pass: the document itself. Its root must be an ANNOTATION_DOCUMENT; its TIERs are
 * set aside for the tiers pass; its LINGUISTIC_TYPEs are read (the tiers pass needs their
 * constraints); the media of its HEADER names the asset, unless the caller gave one. Every
 * top-level element other than TIME_ORDER and TIER is kept as it was, for the way back.
 */
export function readHeader(state: EafReadState): void {
  const { root } = state;
  if (root.name !== 'ANNOTATION_DOCUMENT') state.fail(root, root.name, 'an ELAN document: root element <ANNOTATION_DOCUMENT>');
  let asset = state.options.assetId;
  for (const element of root.children) {
    if (element.name === 'TIME_ORDER') continue; // its slots went to the bulk
    if (element.name === 'TIER') {
      state.tierElements.push(element);
      continue;
    }
    if (element.name === 'LINGUISTIC_TYPE') {
      const id = element.attributes.LINGUISTIC_TYPE_ID;
      if (id !== undefined) state.types.set(id, { constraint: element.attributes.CONSTRAINTS ?? null, controlledVocabulary: element.attributes.CONTROLLED_VOCABULARY_REF ?? null });
    } else if (element.name === 'HEADER' && asset === undefined) {
      const media = element.children.find((child) => child.name === 'MEDIA_DESCRIPTOR');
      const url = media?.attributes.MEDIA_URL || media?.attributes.RELATIVE_MEDIA_URL;
      if (url) asset = url;
    }
    state.parts.elements.push(toPlain(element));
  }
  if (asset !== undefined) state.asset = asset;
}

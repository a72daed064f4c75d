import type { TierStereotype } from '../../model/tier.js';
import type { XmlElement } from './xml-scan.js';

/** The body schema of every annotation the EAF import produces. */
export const EAF_ANNOTATION_SCHEMA = 'annot://schema/eaf-annotation/v1';

/** Store meta key holding the document parts that are not tiers or time slots (see documentParts). */
export const EAF_DOCUMENT_META = 'eaf:document';

export const DEFAULT_ASSET_ID = 'eaf:unspecified';

/** ELAN constraint names and our stereotypes, both ways. */
export const STEREOTYPE_OF_CONSTRAINT: Readonly<Record<string, TierStereotype>> = {
  Time_Subdivision: 'TIME_SUBDIVISION',
  Included_In: 'INCLUDED_IN',
  Symbolic_Subdivision: 'SYMBOLIC_SUBDIVISION',
  Symbolic_Association: 'SYMBOLIC_ASSOCIATION',
};

export const CONSTRAINT_OF_STEREOTYPE: Readonly<Record<TierStereotype, string | null>> = {
  NONE: null,
  TIME_SUBDIVISION: 'Time_Subdivision',
  INCLUDED_IN: 'Included_In',
  SYMBOLIC_SUBDIVISION: 'Symbolic_Subdivision',
  SYMBOLIC_ASSOCIATION: 'Symbolic_Association',
};

/** ELAN's own descriptions of its constraints, written when a document did not carry them. */
export const CONSTRAINT_DESCRIPTIONS: ReadonlyArray<[string, string]> = [
  ['Time_Subdivision', "Time subdivision of parent annotation's time interval, no time gaps allowed within this interval"],
  ['Symbolic_Subdivision', 'Symbolic subdivision of a parent annotation. Annotations refering to the same parent are ordered'],
  ['Symbolic_Association', '1-1 association with a parent annotation'],
  ['Included_In', "Time alignable annotations within the parent annotation's time interval, gaps are allowed"],
];

/** TIER attributes and the tier metadata keys they become. Others are kept under `other_attributes`. */
export const TIER_ATTRIBUTE_KEYS: ReadonlyArray<[string, string]> = [
  ['LINGUISTIC_TYPE_REF', 'linguistic_type'],
  ['PARTICIPANT', 'participant'],
  ['ANNOTATOR', 'annotator'],
  ['DEFAULT_LOCALE', 'default_locale'],
  ['LANG_REF', 'lang_ref'],
  ['EXT_REF', 'ext_ref'],
];

/** Annotation attributes kept in the body under these keys (ANNOTATION_ID goes to annotation_id). */
export const ANNOTATION_ATTRIBUTE_KEYS: ReadonlyArray<[string, string]> = [
  ['CVE_REF', 'cve_ref'],
  ['EXT_REF', 'ext_ref'],
  ['LANG_REF', 'lang_ref'],
  ['SVG_REF', 'svg_ref'],
];

/**
 * An XML element as plain JSON, for the document parts kept verbatim in store meta (header,
 * linguistic types, locales, languages, constraints, vocabularies, lexicon and external refs, licences).
 */
export interface PlainElement {
  name: string;
  attributes: Record<string, string>;
  text?: string;
  children?: PlainElement[];
}

/**
 * What of an EAF document is not tiers, annotations or time slots, in document order: the root's
 * attributes (version, author, date, namespace) and every other top-level element.
 */
export interface DocumentParts {
  attributes: Record<string, string>;
  elements: PlainElement[];
}

export function toPlain(element: XmlElement): PlainElement {
  const plain: PlainElement = { name: element.name, attributes: { ...element.attributes } };
  if (element.children.length > 0) plain.children = element.children.map(toPlain);
  else if (element.text !== '') plain.text = element.text;
  return plain;
}

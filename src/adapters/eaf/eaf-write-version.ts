import type { DocumentParts, PlainElement } from './eaf-model.js';

/**
 * The parts an import of an older EAF kept (2.6, 2.7...), written so that EAFv3.0.xsd accepts
 * them (EAF 2.7 and 2.8 documents mostly are). The HEADER lists its media, then linked files,
 * then properties. A controlled vocabulary of one language (a DESCRIPTION attribute, CV_ENTRY
 * elements) becomes a multilingual one in the language "und" (undetermined), as ELAN makes it
 * when it opens such a file: its description a DESCRIPTION element, each entry a CV_ENTRY_ML
 * with a CVE_ID and one CVE_VALUE, the LANGUAGE "und" declared; the root then says 3.0.
 */
export function asEaf30(parts: DocumentParts | null): DocumentParts | null {
  if (parts === null) return null;
  let undetermined = false;
  const elements = parts.elements.map((element) => {
    if (element.name === 'HEADER') return headerInOrder(element);
    if (element.name !== 'CONTROLLED_VOCABULARY' || !isMonolingual(element)) return element;
    undetermined = true;
    return multilingual(element);
  });
  if (undetermined && !elements.some((element) => element.name === 'LANGUAGE' && element.attributes.LANG_ID === UNDETERMINED)) {
    // Where the schema puts it, so the parts read back in the order they were written.
    const at = elements.reduce((last, element, index) => (LANGUAGE_FOLLOWS.includes(element.name) ? index + 1 : last), 0);
    elements.splice(at, 0, { name: 'LANGUAGE', attributes: { LANG_DEF: 'http://cdb.iso.org/lg/CDB-00130975-001', LANG_ID: UNDETERMINED, LANG_LABEL: 'undetermined (und)' } });
  }
  // A vocabulary made multilingual is EAF 2.8 and later: the root says 3.0, what the file now is.
  return { attributes: undetermined ? rootAs30(parts.attributes) : { ...parts.attributes }, elements };
}

const UNDETERMINED = 'und';
const LANGUAGE_FOLLOWS = ['LICENSE', 'HEADER', 'TIME_ORDER', 'TIER', 'LINGUISTIC_TYPE', 'LOCALE', 'LANGUAGE'];

function rootAs30(attributes: Readonly<Record<string, string>>): Record<string, string> {
  const version = Number(attributes.FORMAT ?? attributes.VERSION ?? '3.0');
  if (!(version < 3)) return { ...attributes };
  const root: Record<string, string> = { ...attributes, FORMAT: '3.0', VERSION: '3.0' };
  if (root['xsi:noNamespaceSchemaLocation'] !== undefined) root['xsi:noNamespaceSchemaLocation'] = 'http://www.mpi.nl/tools/elan/EAFv3.0.xsd';
  return root;
}

const HEADER_ORDER = ['MEDIA_DESCRIPTOR', 'LINKED_FILE_DESCRIPTOR', 'PROPERTY'];

/** The HEADER's children in the schema's order (a stable sort: each kind keeps its own order). */
function headerInOrder(header: PlainElement): PlainElement {
  if (header.children === undefined) return header;
  const rank = (child: PlainElement): number => {
    const index = HEADER_ORDER.indexOf(child.name);
    return index === -1 ? HEADER_ORDER.length : index;
  };
  return { ...header, children: [...header.children].sort((a, b) => rank(a) - rank(b)) };
}

function isMonolingual(vocabulary: PlainElement): boolean {
  return vocabulary.attributes.DESCRIPTION !== undefined || (vocabulary.children ?? []).some((child) => child.name === 'CV_ENTRY');
}

function multilingual(vocabulary: PlainElement): PlainElement {
  const { DESCRIPTION: description, ...attributes } = vocabulary.attributes;
  const children: PlainElement[] = [];
  if (description !== undefined && description !== '') children.push({ name: 'DESCRIPTION', attributes: { LANG_REF: UNDETERMINED }, text: description });
  const ids = new Set((vocabulary.children ?? []).map((child) => child.attributes.CVE_ID).filter((id) => id !== undefined));
  let next = 0;
  for (const child of vocabulary.children ?? []) {
    if (child.name !== 'CV_ENTRY') {
      children.push(child);
      continue;
    }
    const { DESCRIPTION: entryDescription, EXT_REF: externalReference, CVE_ID: written } = child.attributes;
    let id = written;
    if (id === undefined) {
      while (ids.has(`cveid${next}`)) next++;
      id = `cveid${next}`;
      ids.add(id);
    }
    const value: PlainElement = { name: 'CVE_VALUE', attributes: { ...(entryDescription !== undefined ? { DESCRIPTION: entryDescription } : {}), LANG_REF: UNDETERMINED }, text: child.text ?? '' };
    children.push({ name: 'CV_ENTRY_ML', attributes: { CVE_ID: id, ...(externalReference !== undefined ? { EXT_REF: externalReference } : {}) }, children: [value] });
  }
  const { children: _old, ...rest } = vocabulary;
  return children.length > 0 ? { ...rest, attributes, children } : { ...rest, attributes };
}

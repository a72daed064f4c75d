import type { XmlElement } from '../eaf/xml-scan.js';

/**
 * The names pass: XML namespaces resolved, every element and attribute renamed to one spelling
 * whatever prefixes the file chose. An element of the TT namespace is its local name (`p`,
 * `span`), one of a namespace with a usual prefix is `prefix:local` (`ttm:agent`), any other
 * `{uri}local`; attributes likewise (`tts:color`, `xml:id`, and `begin` for one in no
 * namespace). The two DFXP drafts' namespaces (2006/04 and 2006/10 ttaf1) read as TTML's, and
 * the plain `id` DFXP files often give TTML's elements as their `xml:id`.
 */
export const TT = 'http://www.w3.org/ns/ttml';
const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';

/** The prefixes annot writes, by namespace. */
export const PREFIXES: ReadonlyMap<string, string> = new Map([
  ['http://www.w3.org/ns/ttml#parameter', 'ttp'],
  ['http://www.w3.org/ns/ttml#styling', 'tts'],
  ['http://www.w3.org/ns/ttml#metadata', 'ttm'],
  ['http://www.w3.org/ns/ttml#audio', 'tta'],
  [XML_NAMESPACE, 'xml'],
  ['http://www.w3.org/ns/ttml/profile/imsc1#parameter', 'ittp'],
  ['http://www.w3.org/ns/ttml/profile/imsc1#styling', 'itts'],
  ['http://www.w3.org/ns/ttml/profile/imsc1#metadata', 'ittm'],
  ['urn:ebu:tt:style', 'ebutts'],
  ['urn:ebu:tt:metadata', 'ebuttm'],
  ['http://www.smpte-ra.org/schemas/2052-1/2010/smpte-tt', 'smpte'],
]);

/** Namespaces of the DFXP drafts, and what they are now. */
const LEGACY: ReadonlyMap<string, string> = new Map([
  ['http://www.w3.org/2006/10/ttaf1', TT],
  ['http://www.w3.org/2006/10/ttaf1#parameter', 'http://www.w3.org/ns/ttml#parameter'],
  ['http://www.w3.org/2006/10/ttaf1#styling', 'http://www.w3.org/ns/ttml#styling'],
  ['http://www.w3.org/2006/10/ttaf1#style', 'http://www.w3.org/ns/ttml#styling'],
  ['http://www.w3.org/2006/10/ttaf1#metadata', 'http://www.w3.org/ns/ttml#metadata'],
  ['http://www.w3.org/2006/04/ttaf1', TT],
  ['http://www.w3.org/2006/04/ttaf1#parameter', 'http://www.w3.org/ns/ttml#parameter'],
  ['http://www.w3.org/2006/04/ttaf1#styling', 'http://www.w3.org/ns/ttml#styling'],
  ['http://www.w3.org/2006/04/ttaf1#metadata', 'http://www.w3.org/ns/ttml#metadata'],
]);

/** An element with its names resolved; `content` holds text and child elements in document order. */
export interface TtElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly content: ReadonlyArray<TtElement | string>;
  /** Offset of its start tag in the source, for messages. */
  readonly offset: number;
}

/**
 * Resolves the names of a scanned tree. `noNamespaceIsTt`: a document whose root `tt` declares
 * no namespace at all (hand-written files do) reads its unprefixed elements as TTML's.
 */
export function resolveNames(root: XmlElement, noNamespaceIsTt: boolean): TtElement {
  return resolveIn(root, documentScope(noNamespaceIsTt));
}

/** The prefixes in scope at the root of a document (`xml`, and TTML's as the default when the root declares none). */
export function documentScope(noNamespaceIsTt: boolean): ReadonlyMap<string, string> {
  const scope = new Map<string, string>([['xml', XML_NAMESPACE]]);
  if (noNamespaceIsTt) scope.set('', TT);
  return scope;
}

/** The prefixes in scope inside an element, given those outside it. */
export function scopeIn(element: XmlElement, outer: ReadonlyMap<string, string>): ReadonlyMap<string, string> {
  let scope = outer;
  for (const [name, value] of Object.entries(element.attributes)) {
    if (name === 'xmlns' || name.startsWith('xmlns:')) {
      if (scope === outer) scope = new Map(outer);
      (scope as Map<string, string>).set(name === 'xmlns' ? '' : name.slice(6), LEGACY.get(value) ?? value);
    }
  }
  return scope;
}

/** An element's name, resolved in the scope inside it (scopeIn). */
export function elementName(element: XmlElement, scope: ReadonlyMap<string, string>): string {
  const colon = element.name.indexOf(':');
  const namespace = colon === -1 ? scope.get('') : scope.get(element.name.slice(0, colon));
  const local = colon === -1 ? element.name : element.name.slice(colon + 1);
  if (namespace === TT) return local;
  // An element in no namespace is `{}local`: never taken for TTML's element of that name.
  return namespace === undefined && colon === -1 ? `{}${local}` : spelled(namespace, local, element.name);
}

/** An element and what it holds, its names resolved in the scope outside it. */
export function resolveIn(element: XmlElement, outer: ReadonlyMap<string, string>): TtElement {
  const scope = scopeIn(element, outer);
  const name = elementName(element, scope);
  // DFXP files in the wild write an element's id as a plain `id`: TTML's is xml:id, unless the element has one.
  const plainId = isTtmlElement(name) && !('xml:id' in element.attributes);
  const attributes: Record<string, string> = {};
  for (const [written, value] of Object.entries(element.attributes)) {
    if (written === 'xmlns' || written.startsWith('xmlns:')) continue;
    const colon = written.indexOf(':');
    // Unprefixed attributes are in no namespace (the default namespace does not apply to them).
    const attribute = colon === -1 ? (plainId && written === 'id' ? 'xml:id' : written) : spelled(scope.get(written.slice(0, colon)), written.slice(colon + 1), written);
    attributes[attribute] = xmlCharacters(value);
  }
  const content = (element.content ?? element.children).map((child) => (typeof child === 'string' ? xmlCharacters(child) : resolveIn(child, scope)));
  return { name, attributes, content, offset: element.offset };
}

/** Whether a resolved element name is one of TTML's own (`p`, `style`, `ttm:agent`), not a foreign one. */
function isTtmlElement(name: string): boolean {
  if (name.startsWith('{')) return false;
  const colon = name.indexOf(':');
  return colon === -1 || ['ttm', 'ttp', 'tts', 'tta'].includes(name.slice(0, colon));
}

/** `prefix:local` for a namespace with a usual prefix, `{uri}local` for another, the name as written when its prefix is undeclared. */
function spelled(namespace: string | undefined, local: string, written: string): string {
  if (namespace === undefined) return written;
  const prefix = PREFIXES.get(namespace);
  return prefix === undefined ? `{${namespace}}${local}` : `${prefix}:${local}`;
}

/**
 * Text with the control characters XML 1.0 does not allow (C0 but tab, LF and CR; they can
 * arrive raw or as character references) as U+FFFD, as a WebVTT parser treats NUL: what is read
 * is what can be written back as XML.
 */
export function xmlCharacters(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0xfffe || code === 0xffff) return replaceNotXml(text);
  }
  return text;
}

function replaceNotXml(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    out += (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0xfffe || code === 0xffff ? '\ufffd' : char;
  }
  return out;
}

/** The child elements of an element, text left out. */
export function childElements(element: TtElement): TtElement[] {
  return element.content.filter((child): child is TtElement => typeof child !== 'string');
}

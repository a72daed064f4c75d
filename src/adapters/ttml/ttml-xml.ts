import { parseSecondsText, type Seconds } from './exact-seconds.js';
import type { MarkupNode } from './ttml-model.js';
import { PREFIXES, xmlCharacters } from './ttml-names.js';
import { allowsAttribute, isTimed, ttmlRole } from './ttml-vocabulary.js';

/**
 * Markup written back as XML. Names come in annot's one spelling (ttml-names.ts); the writer
 * declares on the root every namespace they use: the usual prefixes (`tts`, `ttm`...) for the
 * namespaces that have one, `ns1`, `ns2`... for the others (`{uri}local`). A name whose prefix
 * the source never declared cannot be written as namespace-correct XML and is left out.
 */
export class XmlNames {
  private readonly byPrefix = new Map<string, string>();
  private readonly foreign = new Map<string, string>();
  /** Attributes of the source left out: a name XML cannot write, or one TTML2 does not allow there (ttml-vocabulary.ts). */
  droppedAttributes = 0;

  constructor() {
    for (const [uri, prefix] of PREFIXES) this.byPrefix.set(prefix, uri);
  }

  /** Declares the namespaces a name needs (a collect pass calls this for every name before anything is written). */
  use(name: string): void {
    const uri = foreignNamespace(name);
    if (uri !== null && uri !== '' && !this.foreign.has(uri)) this.foreign.set(uri, `ns${this.foreign.size + 1}`);
  }

  /** The name as written in the document, or null when it cannot be written (an undeclared prefix, not an XML name). */
  written(name: string, _element: boolean): string | null {
    const uri = foreignNamespace(name);
    if (uri !== null) {
      const local = name.slice(name.indexOf('}') + 1);
      if (!XML_NAME.test(local)) return null;
      if (uri === '') return local;
      const prefix = this.foreign.get(uri);
      return prefix === undefined ? null : `${prefix}:${local}`;
    }
    const colon = name.indexOf(':');
    if (colon === -1) return XML_NAME.test(name) ? name : null;
    return this.byPrefix.has(name.slice(0, colon)) && XML_NAME.test(name.slice(colon + 1)) ? name : null;
  }

  /** Whether an element name is in no namespace (`{}local`): written with `xmlns=""`. */
  static inNoNamespace(name: string): boolean {
    return name.startsWith('{}');
  }

  /** The xmlns attributes of the root element: TTML's, the usual ones annot always declares, and every foreign one used. */
  declarations(used: ReadonlySet<string>): string {
    let text = ' xmlns="http://www.w3.org/ns/ttml"';
    for (const [prefix, uri] of this.byPrefix) if (prefix !== 'xml' && (prefix === 'ttp' || prefix === 'tts' || prefix === 'ttm' || used.has(prefix))) text += ` xmlns:${prefix}="${escapeAttribute(uri)}"`;
    for (const [uri, prefix] of this.foreign) text += ` xmlns:${prefix}="${escapeAttribute(uri)}"`;
    return text;
  }
}

/** A name without a prefix, as XML (and the scanner that reads it back) allows. */
const XML_NAME = /^[A-Za-z_\u00c0-\uffef][-A-Za-z0-9_.\u00b7\u00c0-\uffef]*$/;

/** The namespace of a `{uri}local` name ('' for none), or null for a prefixed or plain name. */
function foreignNamespace(name: string): string | null {
  if (!name.startsWith('{')) return null;
  const close = name.indexOf('}');
  return close === -1 ? null : name.slice(1, close);
}

/** The prefixes of the usual namespaces a set of names uses. */
export function prefixesUsed(names: Iterable<string>): Set<string> {
  const used = new Set<string>();
  for (const name of names) {
    const colon = name.indexOf(':');
    if (colon !== -1 && !name.startsWith('{')) used.add(name.slice(0, colon));
  }
  return used;
}

/** Every element and attribute name in markup, for the collect pass. */
export function* markupNames(nodes: readonly MarkupNode[]): Generator<string> {
  for (const node of nodes) {
    if (typeof node === 'string') continue;
    yield node.name;
    for (const name of Object.keys(node.attributes ?? {})) yield name;
    yield* markupNames(node.children ?? []);
  }
}

/** Every relative time in markup, for the collect pass (to choose a time format that writes them exactly). */
export function* markupTimes(nodes: readonly MarkupNode[]): Generator<Seconds> {
  for (const node of nodes) {
    if (typeof node === 'string') continue;
    for (const text of [node.begin, node.end]) {
      const time = text === undefined ? null : parseSecondsText(text);
      if (time !== null) yield time;
    }
    yield* markupTimes(node.children ?? []);
  }
}

/** Markup as XML; `time` writes a relative time in the document's time format. */
export function markupXml(nodes: readonly MarkupNode[], names: XmlNames, time: (relative: Seconds) => string): string {
  let xml = '';
  for (const node of nodes) {
    if (typeof node === 'string') {
      xml += escapeText(node);
      continue;
    }
    const name = names.written(node.name, true);
    if (name === null) continue;
    let tag = `<${name}${XmlNames.inNoNamespace(node.name) ? ' xmlns=""' : ''}`;
    // Times the reader resolved for an element that has none of its own (a `br` ends with its paragraph) are not written.
    const begin = node.begin === undefined || !isTimed(node.name) ? null : parseSecondsText(node.begin);
    const end = node.end === undefined || !isTimed(node.name) ? null : parseSecondsText(node.end);
    if (begin !== null) tag += ` begin="${time(begin)}"`;
    if (end !== null) tag += ` end="${time(end)}"`;
    tag += attributesXml(node.attributes ?? {}, names, node.name);
    const children = node.children ?? [];
    xml += children.length === 0 ? `${tag}/>` : `${tag}>${markupXml(children, names, time)}</${name}>`;
  }
  return xml;
}

/**
 * The attributes of an element, those TTML2 allows there: a no-namespace attribute TTML2 does not
 * give that element (DFXP's), or a ttm:role that is not one of TTML2's, is left out and counted.
 */
export function attributesXml(attributes: Readonly<Record<string, string>>, names: XmlNames, element: string): string {
  let xml = '';
  for (const [key, raw] of Object.entries(attributes)) {
    const name = allowsAttribute(element, key) ? names.written(key, false) : null;
    const value = key === 'ttm:role' ? ttmlRole(raw) : raw;
    if (name === null || value === null) names.droppedAttributes++;
    else xml += ` ${name}="${escapeAttribute(value)}"`;
  }
  return xml;
}

/** Text content: markup characters as references, characters XML does not allow as U+FFFD. */
export function escapeText(raw: string): string {
  const text = xmlCharacters(raw);
  if (!/[&<>\r]/.test(text)) return text;
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('\r', '&#13;');
}

export function escapeAttribute(raw: string): string {
  const value = xmlCharacters(raw);
  if (!/[&<>"\r\n\t]/.test(value)) return value;
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll('\r', '&#13;').replaceAll('\n', '&#10;').replaceAll('\t', '&#9;');
}

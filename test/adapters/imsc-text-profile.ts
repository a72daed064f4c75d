import { XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * A checker of the IMSC 1.1 Text Profile's document constraints (W3C "TTML Profiles for Internet
 * Media Subtitles and Captions 1.1", sections 6 to 8: the feature table and the additional
 * constraints), for the documents annot writes. It parses with fast-xml-parser, not annot's own
 * XML scanner, so a document annot cannot read back correctly fails here too. It returns the
 * violations, each naming the rule; an empty list is a valid document as far as these rules see.
 */
const TT = 'http://www.w3.org/ns/ttml';
const TTP = 'http://www.w3.org/ns/ttml#parameter';
const TTS = 'http://www.w3.org/ns/ttml#styling';
const TTM = 'http://www.w3.org/ns/ttml#metadata';
const XML = 'http://www.w3.org/XML/1998/namespace';
const ITTS = 'http://www.w3.org/ns/ttml/profile/imsc1#styling';
const EBUTTS = 'urn:ebu:tt:style';
export const IMSC_11_TEXT = 'http://www.w3.org/ns/ttml/profile/imsc1.1/text';

/** Elements of the TT namespace a Text Profile document may hold (section 6: #content, #structure, #styling, #layout, #metadata, #set, #initial). */
const TT_ELEMENTS = new Set(['tt', 'head', 'body', 'div', 'p', 'span', 'br', 'styling', 'style', 'layout', 'region', 'metadata', 'set', 'initial']);
/** The style properties of the Text Profile (ttconv's imsc11text filter lists the same 36). */
const TTS_ATTRIBUTES = new Set(['backgroundColor', 'color', 'direction', 'disparity', 'display', 'displayAlign', 'extent', 'fontFamily', 'fontSize', 'fontStyle', 'fontWeight', 'lineHeight', 'luminanceGain', 'opacity', 'origin', 'overflow', 'padding', 'position', 'ruby', 'rubyAlign', 'rubyPosition', 'rubyReserve', 'shear', 'showBackground', 'textAlign', 'textCombine', 'textDecoration', 'textEmphasis', 'textOutline', 'textShadow', 'unicodeBidi', 'visibility', 'wrapOption', 'writingMode', 'zIndex']);
/** Parameters the profile prohibits (#clockMode, #dropMode, #markerMode, #subFrameRate, #timeBase-clock and -smpte). */
const PROHIBITED_PARAMETERS = new Set(['clockMode', 'dropMode', 'markerMode', 'subFrameRate']);
const CLOCK_TIME = /^\d{2,}:\d{2}:\d{2}(?:\.\d+|:\d{2,}(?:\.\d+)?)?$/;
const OFFSET_TIME = /^\d+(?:\.\d+)?(?:h|m|s|ms|f|t)$/;

interface Node {
  name: string;
  namespace: string;
  attributes: Array<{ name: string; namespace: string | null; value: string }>;
  children: Node[];
  text: string;
}

export function imscTextViolations(xml: string): string[] {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) return [`well-formed XML 1.0: ${valid.err.msg} (line ${valid.err.line})`];
  const violations: string[] = [];
  if (!xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')) violations.push('section 8.5: UTF-8, declared');
  if (/<!DOCTYPE|<!ENTITY/.test(xml)) violations.push('section 8.5: no entity declarations');
  const root = parse(xml);
  if (root.name !== 'tt' || root.namespace !== TT) return [...violations, `the root is tt in ${TT}, found ${root.name} in ${root.namespace}`];
  const rootAttribute = (namespace: string | null, name: string) => root.attributes.find((attribute) => attribute.namespace === namespace && attribute.name === name)?.value;
  if (rootAttribute(XML, 'lang') === undefined) violations.push('TTML2 section 8.1.1: xml:lang on tt');
  if (!(rootAttribute(TTP, 'contentProfiles') ?? '').split(/\s+/).includes(IMSC_11_TEXT)) violations.push(`section 5.7.2 (profile signaling): ttp:contentProfiles names ${IMSC_11_TEXT}`);
  const timeBase = rootAttribute(TTP, 'timeBase');
  if (timeBase !== undefined && timeBase !== 'media') violations.push('#timeBase-media: ttp:timeBase is media');
  const state = { frames: false, ticks: false, pixels: false, origin: false, position: false, regions: 0 };
  walk(root, (node) => checkNode(node, root, state, violations));
  if (state.frames && rootAttribute(TTP, 'frameRate') === undefined) violations.push('#frameRate: ttp:frameRate on tt when a time counts frames');
  if (state.ticks && rootAttribute(TTP, 'tickRate') === undefined) violations.push('#tickRate: ttp:tickRate on tt when a time counts ticks');
  if (state.pixels && rootAttribute(TTS, 'extent') === undefined) violations.push('#extent-root: tts:extent on tt when a length is in px');
  if (state.origin && state.position) violations.push('#origin/#position: not both tts:origin and tts:position');
  return violations;
}

function checkNode(node: Node, root: Node, state: { frames: boolean; ticks: boolean; pixels: boolean; origin: boolean; position: boolean; regions: number }, violations: string[]): void {
  if (node.namespace === TT && !TT_ELEMENTS.has(node.name)) violations.push(`section 6: <${node.name}> is not a Text Profile element`);
  for (const attribute of node.attributes) {
    if (attribute.namespace === TTS) {
      if (!TTS_ATTRIBUTES.has(attribute.name)) violations.push(`section 6: tts:${attribute.name} is not a Text Profile style`);
      if (/\dpx\b/.test(attribute.value)) state.pixels = true;
      if (/\dc\b/.test(attribute.value)) violations.push(`#length-cell: c units only in ebutts:linePadding (tts:${attribute.name}="${attribute.value}")`);
      if (attribute.name === 'origin') state.origin = true;
      if (attribute.name === 'position') state.position = true;
    }
    if (attribute.namespace === TTP && PROHIBITED_PARAMETERS.has(attribute.name)) violations.push(`section 6: ttp:${attribute.name} is prohibited`);
    if (attribute.namespace === null && (attribute.name === 'begin' || attribute.name === 'end' || attribute.name === 'dur')) {
      const value = attribute.value.trim();
      if (!CLOCK_TIME.test(value) && !OFFSET_TIME.test(value)) violations.push(`#time-clock/#time-offset: ${attribute.name}="${value}" is a TTML time expression`);
      if (/f$/.test(value) || /^\d+:\d+:\d+:\d+/.test(value)) state.frames = true;
      if (/t$/.test(value)) state.ticks = true;
    }
  }
  if (node.namespace === TT && node.name === 'region') {
    state.regions++;
    const extent = node.attributes.find((attribute) => attribute.namespace === TTS && attribute.name === 'extent');
    if (extent === undefined) violations.push('#extent-region: tts:extent on every region');
    else if (!/^\s*\d+(?:\.\d+)?(?:px|%|rw|rh)\s+\d+(?:\.\d+)?(?:px|%|rw|rh)\s*$/.test(extent.value)) violations.push(`#extent-region: px, % or root container units (tts:extent="${extent.value}")`);
  }
  if (node.namespace === TT && node.name === 'p' && !hasTiming(node, root)) violations.push('#timing: a p with text has begin and end (or dur) on it or an ancestor');
}

function hasTiming(p: Node, root: Node): boolean {
  const has = (node: Node, name: string) => node.attributes.some((attribute) => attribute.namespace === null && attribute.name === name);
  const chain = ancestors(root, p) ?? [p];
  return chain.some((node) => has(node, 'begin')) && chain.some((node) => has(node, 'end') || has(node, 'dur'));
}

function ancestors(from: Node, target: Node): Node[] | null {
  if (from === target) return [from];
  for (const child of from.children) {
    const found = ancestors(child, target);
    if (found !== null) return [from, ...found];
  }
  return null;
}

function walk(node: Node, visit: (node: Node) => void): void {
  visit(node);
  for (const child of node.children) walk(child, visit);
}

type Ordered = Record<string, unknown> & { ':@'?: Record<string, string> };

/** The document as a tree with namespaces resolved (fast-xml-parser keeps prefixes as written). */
function parse(xml: string): Node {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', preserveOrder: true, processEntities: true, trimValues: false });
  const ordered = parser.parse(xml) as Ordered[];
  const rootEntry = ordered.find((entry) => !Object.keys(entry).some((key) => key === '?xml' || key === '#comment'));
  return resolve(rootEntry as Ordered, new Map([['xml', XML], ['', '']]));
}

function resolve(entry: Ordered, outer: Map<string, string>): Node {
  const qualified = Object.keys(entry).find((key) => key !== ':@') as string;
  const raw = entry[':@'] ?? {};
  const scope = new Map(outer);
  for (const [name, value] of Object.entries(raw)) {
    if (name === 'xmlns') scope.set('', value);
    else if (name.startsWith('xmlns:')) scope.set(name.slice(6), value);
  }
  const split = (name: string, element: boolean): { prefix: string; local: string } => {
    const colon = name.indexOf(':');
    return colon === -1 ? { prefix: element ? '' : '\0', local: name } : { prefix: name.slice(0, colon), local: name.slice(colon + 1) };
  };
  const { prefix, local } = split(qualified, true);
  const attributes = Object.entries(raw)
    .filter(([name]) => name !== 'xmlns' && !name.startsWith('xmlns:'))
    .map(([name, value]) => {
      const part = split(name, false);
      return { name: part.local, namespace: part.prefix === '\0' ? null : (scope.get(part.prefix) ?? `undeclared:${part.prefix}`), value: String(value) };
    });
  const children: Node[] = [];
  let text = '';
  for (const child of (entry[qualified] as Ordered[]) ?? []) {
    if ('#text' in child) text += String(child['#text']);
    else if (!('#comment' in child)) children.push(resolve(child, scope));
  }
  return { name: local, namespace: scope.get(prefix) ?? `undeclared:${prefix}`, attributes, children, text };
}

/** ISO 639 two-letter codes are not checked: the profile only asks for xml:lang to be present. */
export const TTML_NAMESPACES = { TT, TTP, TTS, TTM, XML, ITTS, EBUTTS };

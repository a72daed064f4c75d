/**
 * What the TTML2 schema allows the writer to copy from a source document: which attributes in no
 * namespace each of TTML's elements takes (from the XSD's attribute groups, fixtures/schemas/ttml2/),
 * and which ttm:role values there are. An attribute of another namespace is allowed anywhere
 * (the schema takes them, checking the values of those it declares). An attribute a DFXP or
 * TTML1 file had where TTML2 has none, or a role TTML2 does not define, is left out and counted.
 */

const TIMED = ['animate', 'begin', 'condition', 'dur', 'end', 'region', 'style', 'timeContainer'];

const NO_NAMESPACE_ATTRIBUTES: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    tt: [],
    head: [],
    body: TIMED,
    div: TIMED,
    p: TIMED,
    span: TIMED,
    br: ['condition', 'style'],
    styling: [],
    style: ['condition', 'style'],
    layout: [],
    region: ['animate', 'begin', 'condition', 'dur', 'end', 'style', 'timeContainer'],
    metadata: ['condition'],
    animation: [],
    animate: ['begin', 'calcMode', 'condition', 'dur', 'end', 'fill', 'keySplines', 'keyTimes', 'repeatCount'],
    set: ['begin', 'condition', 'dur', 'end', 'fill', 'repeatCount'],
    resources: [],
    initial: ['condition'],
    audio: ['animate', 'begin', 'clipBegin', 'clipEnd', 'condition', 'dur', 'end', 'src', 'style', 'timeContainer', 'type'],
    image: [...TIMED, 'src', 'type'],
    font: ['condition', 'family', 'range', 'src', 'style', 'type', 'weight'],
    data: ['condition', 'encoding', 'format', 'length', 'src', 'type'],
    chunk: ['encoding', 'length'],
    source: ['condition', 'format', 'src', 'type'],
    'ttm:actor': ['agent', 'condition'],
    'ttm:agent': ['condition', 'type'],
    'ttm:copyright': ['condition'],
    'ttm:desc': ['condition'],
    'ttm:item': ['condition', 'name'],
    'ttm:name': ['condition', 'type'],
    'ttm:title': ['condition'],
    'ttp:extension': ['extends', 'restricts', 'value'],
    'ttp:extensions': [],
    'ttp:feature': ['extends', 'restricts', 'value'],
    'ttp:features': [],
    'ttp:profile': ['combine', 'designator', 'type', 'use'],
  }).map(([element, attributes]) => [element, new Set(attributes)]),
);

/**
 * Whether TTML2 allows an attribute (annot's spelling: `begin`, `tts:color`, `{uri}local`) on an
 * element (`p`, `ttm:agent`; another namespace's elements take anything).
 */
export function allowsAttribute(element: string, attribute: string): boolean {
  if (attribute.includes(':') || attribute.startsWith('{')) return true;
  const allowed = NO_NAMESPACE_ATTRIBUTES.get(element);
  return allowed === undefined || allowed.has(attribute);
}

/** Whether an element takes begin and end (a `br` or a `style` has no time of its own). */
export function isTimed(element: string): boolean {
  return allowsAttribute(element, 'begin');
}

const ROLES = new Set(['action', 'caption', 'description', 'dialog', 'expletive', 'kinesic', 'lyrics', 'music', 'narration', 'quality', 'sound', 'source', 'suppressed', 'reproduction', 'thought', 'title', 'transcription']);

/** A ttm:role value as TTML2 defines it: TTML's roles and `x-` extensions; null when it has none of them. */
export function ttmlRole(value: string): string | null {
  const tokens = value.split(/\s+/).filter((token) => token.length > 0);
  return tokens.length > 0 && tokens.every((token) => ROLES.has(token) || /^x-[-\w.:\u00b7\u00c0-\uffef]+$/.test(token)) ? tokens.join(' ') : null;
}

import { FormatParseError, InputTooDeepError } from '../errors.js';

/** How deep elements may nest: EAF nests six levels; anything near this is hostile or broken. */
export const MAX_XML_DEPTH = 256;

/** One XML element: attributes as written (entities decoded), child elements, and its own text. */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Record<string, string>;
  readonly children: XmlElement[];
  /** The element's direct character data (entities decoded, CDATA included), untrimmed. */
  text: string;
  /** Offset of the `<` in the source text, turned into a line and column only when an error needs one. */
  readonly offset: number;
  /**
   * Text and child elements in document order (mixed content, as TTML's `<p>` holds), kept only
   * when the scan is asked for it (`mixedContent`); EAF needs none of it.
   */
  content?: Array<XmlElement | string>;
}

/** What a scan keeps beyond EAF's needs, and how it names the document it expects. */
export interface XmlScanOptions {
  /** Keep `content` (mixed content in document order). Default false. */
  readonly mixedContent?: boolean;
  /** The root element the format expects, named when text stands where it should be (`ANNOTATION_DOCUMENT`). */
  readonly rootElement?: string;
}

/**
 * A single pass over an XML document that builds a light element tree, except for the elements
 * `streamed` takes, which it hands over whole at their end tags instead. EAF files are plain XML
 * (no DTD entities, no namespaces that matter), so the scanner keeps what EAF needs: elements,
 * attributes, text with the five predefined and numeric entities, CDATA, and skips the XML
 * declaration, processing instructions, comments and a DOCTYPE. It checks well-formedness as it
 * goes (matching end tags, quoted attributes, one root) and reports the line and column.
 *
 * Hostile input: a DOCTYPE's internal subset is skipped, never interpreted, so no entity is ever
 * defined or expanded (no "billion laughs") and no external entity or DTD is ever fetched; an
 * entity other than the five predefined ones is an error. Nesting deeper than MAX_XML_DEPTH is an
 * InputTooDeepError naming the line, column and element path.
 *
 * It exists because fast-xml-parser builds a far heavier tree: on a 200k-annotation EAF its parse
 * alone takes many times what this scan and the whole EAF walk take together (see
 * bench/adapters-eaf.bench.js, which measures both in the same run).
 */
export function scanXml(text: string, file: string, streamed?: StreamedElements, options: XmlScanOptions = {}): XmlElement {
  return new XmlScan(text, file, streamed, options.mixedContent ?? false, options.rootElement ?? 'ANNOTATION_DOCUMENT').document();
}

/** One scan of a document: the elements open at the position, and the root once met. */
class XmlScan {
  private readonly stack: XmlElement[] = [];
  // Per open element: whether it is handed to `streamed` when it closes, and how many of its
  // children were (so its own text is kept as if they were still there).
  private readonly taken: boolean[] = [];
  private readonly takenChildren: number[] = [];
  private root: XmlElement | null = null;
  private position = 0;
  // Every message says what was expected, as the other readers' do: "file:3:1: expected ...".
  readonly fail: Fail = (at, expected) => {
    throw new FormatParseError(this.file, { ...lineAndColumn(this.text, at), path: this.stack.map((element) => element.name).join('/') || undefined }, `expected ${expected}`);
  };

  constructor(
    private readonly text: string,
    private readonly file: string,
    private readonly streamed: StreamedElements | undefined,
    private readonly mixedContent: boolean,
    private readonly rootElement: string,
  ) {}

  document(): XmlElement {
    const { text } = this;
    const length = text.length;
    while (this.position < length) {
      const open = text.indexOf('<', this.position);
      const textEnd = open === -1 ? length : open;
      if (textEnd > this.position) this.characterData(this.position, textEnd);
      if (open === -1) break;
      const next = text.charCodeAt(open + 1);
      if (next === 0x2f /* / */) this.position = this.endTag(open);
      else if (next === 0x21 /* ! */) this.position = this.markup(open);
      else if (next === 0x3f /* ? */) {
        const close = text.indexOf('?>', open + 2);
        if (close === -1) this.fail(open, 'the end of the processing instruction ("?>")');
        this.position = close + 2;
      } else this.position = scanStartTag(text, open, this.startTag, this.fail);
    }
    if (this.stack.length > 0) this.fail(length, `</${this.stack[this.stack.length - 1].name}> before the end of the file`);
    if (!this.root) this.fail(0, 'an XML document; the file holds no element');
    return this.root as unknown as XmlElement;
  }

  private hasChildren(level: number): boolean {
    return this.stack[level].children.length > 0 || this.takenChildren[level] > 0;
  }

  /**
   * Text between tags. EAF has no mixed content: text beside child elements is indentation, not
   * kept in `text` (and not concatenated, which on a tier of 100k annotations would build one huge
   * string); a mixed-content scan keeps every piece in `content`.
   */
  private characterData(from: number, to: number): void {
    const chunk = this.text.slice(from, to);
    const current = this.stack.length > 0 ? this.stack[this.stack.length - 1] : null;
    if (current) {
      const decoded = chunk.indexOf('&') === -1 ? chunk : decodeEntities(chunk, this.text, from, this.fail);
      if (this.mixedContent) (current.content ??= []).push(decoded);
      if (!this.hasChildren(this.stack.length - 1) || chunk.trim() !== '') current.text += decoded;
    } else if (chunk.trim() !== '') this.fail(from, this.root ? 'nothing after the root element' : `an XML element ("<${this.rootElement} ...>")`);
  }

  private endTag(open: number): number {
    const close = this.text.indexOf('>', open);
    if (close === -1) this.fail(open, 'a closing ">" for the end tag');
    const name = this.text.slice(open + 2, close).trim();
    const current = this.stack.pop();
    if (!current) this.fail(open, `an element open before </${name}>; it closes nothing`);
    else if (current.name !== name) this.fail(open, `</${current.name}> to close <${current.name}> (line ${lineAndColumn(this.text, current.offset).line}), found </${name}>`);
    this.takenChildren.pop();
    if (this.taken.pop()) (this.streamed as StreamedElements).take(current as XmlElement);
    return close + 1;
  }

  /** A comment, a CDATA section (text of the open element) or a DOCTYPE (skipped, never interpreted). */
  private markup(open: number): number {
    const { text } = this;
    if (text.startsWith('<!--', open)) {
      const close = text.indexOf('-->', open + 4);
      if (close === -1) this.fail(open, 'the end of the comment ("-->")');
      return close + 3;
    }
    if (text.startsWith('<![CDATA[', open)) {
      const close = text.indexOf(']]>', open + 9);
      if (close === -1) this.fail(open, 'the end of the CDATA section ("]]>")');
      if (this.stack.length === 0) this.fail(open, 'CDATA inside an element');
      const data = text.slice(open + 9, close);
      if (this.mixedContent) (this.stack[this.stack.length - 1].content ??= []).push(data);
      this.stack[this.stack.length - 1].text += data;
      return close + 3;
    }
    if (text.startsWith('<!DOCTYPE', open)) return skipDoctype(text, open, this.fail);
    return this.fail(open, 'a comment, CDATA section or DOCTYPE after "<!"');
  }

  /** A start tag: the element joins its parent (or is the root), or is taken by `streamed`; it opens unless self-closing. */
  private readonly startTag = (element: XmlElement, selfClosing: boolean): void => {
    const { stack } = this;
    let take = false;
    if (stack.length > 0) {
      const level = stack.length - 1;
      const parent = stack[level];
      if (!this.hasChildren(level) && parent.text.trim() === '') parent.text = '';
      take = this.streamed !== undefined && this.streamed.takes(stack, element);
      if (take) this.takenChildren[level]++;
      else {
        parent.children.push(element);
        if (this.mixedContent) (parent.content ??= []).push(element);
      }
    } else if (this.root) this.fail(element.offset, 'a single root element; found a second one');
    else {
      this.root = element;
      this.streamed?.takes(stack, element);
    }
    if (selfClosing) {
      if (take) (this.streamed as StreamedElements).take(element);
      return;
    }
    if (stack.length >= MAX_XML_DEPTH) {
      throw new InputTooDeepError(this.file, { ...lineAndColumn(this.text, element.offset), path: stack.slice(0, 4).map((item) => item.name).join('/') + '/...' }, stack.length + 1, MAX_XML_DEPTH, 'XML elements');
    }
    stack.push(element);
    this.taken.push(take);
    this.takenChildren.push(0);
  };
}

type Fail = (at: number, expected: string) => never;

/**
 * Elements a reader handles one by one as the scan meets them, instead of finding them in the
 * tree: a file's bulk (EAF's time slots and annotations) then never sits in memory as elements.
 */
export interface StreamedElements {
  /**
   * Asked at every start tag, with the elements open around it (outermost first; empty for the
   * root, whose answer is ignored): whether this element is handed over instead of being added
   * to its parent.
   */
  takes(open: readonly XmlElement[], element: XmlElement): boolean;
  /** The complete element (children and text), at its end tag. */
  take(element: XmlElement): void;
}

const NAME_END = /[\s/>]/g;
// Attribute names are XML names: a stray `&` or `;` in one is damage, not a new attribute.
const ATTRIBUTE = /\s*([A-Za-z_:][-A-Za-z0-9_:.\u00b7\u00c0-\uffef]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;

function scanStartTag(text: string, open: number, emit: (element: XmlElement, selfClosing: boolean) => void, fail: Fail): number {
  NAME_END.lastIndex = open + 1;
  const nameEnd = NAME_END.exec(text);
  if (!nameEnd) return fail(open, 'the end of the start tag (">")');
  const name = text.slice(open + 1, nameEnd.index);
  if (name.length === 0) fail(open, 'an element name after "<"');
  const attributes: Record<string, string> = {};
  let position = nameEnd.index;
  for (;;) {
    const code = text.charCodeAt(position);
    if (code === 0x3e /* > */) {
      emit({ name, attributes, children: [], text: '', offset: open }, false);
      return position + 1;
    }
    if (code === 0x2f /* / */) {
      if (text.charCodeAt(position + 1) !== 0x3e) fail(position, `">" after "/" in <${name}>`);
      emit({ name, attributes, children: [], text: '', offset: open }, true);
      return position + 2;
    }
    if (code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d) {
      position++;
      continue;
    }
    ATTRIBUTE.lastIndex = position;
    const match = ATTRIBUTE.exec(text);
    if (!match) return fail(position, Number.isNaN(code) ? `the end of <${name}> before the end of the file` : `an attribute name="value" or the end of <${name}>`);
    const raw = match[2] ?? match[3];
    const key = match[1];
    if (Object.prototype.hasOwnProperty.call(attributes, key)) fail(position, `attribute ${key} once in <${name}>; it is repeated`);
    attributes[key] = raw.indexOf('&') === -1 ? raw : decodeEntities(raw, text, position, fail);
    position = ATTRIBUTE.lastIndex;
    // XML wants whitespace between attributes: `ID="a"TIME_VALUE="1"` is damage, not two attributes.
    const next = text.charCodeAt(position);
    if (next !== 0x3e && next !== 0x2f && next !== 0x20 && next !== 0x0a && next !== 0x09 && next !== 0x0d && !Number.isNaN(next)) {
      fail(position, `whitespace, ">" or "/>" after attribute ${key} of <${name}>`);
    }
  }
}

function skipDoctype(text: string, open: number, fail: Fail): number {
  let depth = 0;
  for (let position = open + 2; position < text.length; position++) {
    const char = text[position];
    if (char === '[') depth++;
    else if (char === ']') depth--;
    else if (char === '>' && depth <= 0) return position + 1;
  }
  return fail(open, 'the end of the DOCTYPE (">")');
}

const ENTITY = /&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);?/g;
const NAMED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(raw: string, text: string, at: number, fail: Fail): string {
  return raw.replace(ENTITY, (whole, entity: string, index: number) => {
    if (!whole.endsWith(';')) return fail(at + index, `";" to end the entity "${whole}"`);
    if (entity[0] === '#') {
      const code = entity[1] === 'x' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      if (!(code >= 1 && code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) return fail(at + index, `a valid character reference, got "${whole}"`);
      return String.fromCodePoint(code);
    }
    const named = NAMED[entity];
    if (named === undefined) return fail(at + index, `one of the XML entities &lt; &gt; &amp; &quot; &apos; or a character reference, got "${whole}"`);
    return named;
  });
}

/** 1-based line and column of an offset (computed only for error messages). */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) {
    line++;
    lineStart = index + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

import { compare, max, min, secondsText, subtract, type Seconds } from './exact-seconds.js';
import { isPlainMarkup, normalizeSpace, spaceIn, type TextPiece } from './ttml-markup.js';
import type { MarkupElement, MarkupNode, TtmlCueBody } from './ttml-model.js';
import type { TtElement } from './ttml-names.js';
import type { TimedNode } from './ttml-timing.js';

/**
 * The paragraphs pass, one `<p>` at a time as the scan meets them: a paragraph shown at some
 * time becomes a cue. Its interval is when its text
 * shows (from the first of its visible texts to the last: a paragraph whose spans are timed
 * begins with its first word), its text the text shown (white space handled as TTML presents it),
 * and what its ancestors and itself say about it is put in its body: region, styles, style
 * attributes, language, agent and role in effect. Its content is kept as markup when it is more
 * than text and plain line breaks, with its spans' times relative to the cue's start.
 */
export interface TtmlCue {
  readonly begin: Seconds;
  /** null: nothing in the document ends it. */
  readonly end: Seconds | null;
  readonly body: TtmlCueBody;
  /** The `<p>` start tag's offset in the source. */
  readonly offset: number;
}

export interface ParagraphContext {
  readonly agents: ReadonlyMap<string, string>;
  /** The document's xml:lang (the `tt` element's). */
  readonly lang: string | undefined;
  /**
   * The latest time the document names, where content without an end is taken to end: content
   * that only begins then would show for no time and is left out (a trailing `<br/>` timed at the
   * document's last time, say), so the cue written back shows the same text. Null while the scan
   * has not reached the end: a cue without end is then made again once it has (see the reader).
   */
  readonly documentEnd: Seconds | null;
}

export interface Inherited {
  readonly region?: string;
  readonly styles: readonly string[];
  readonly styling: Readonly<Record<string, string>>;
  readonly lang?: string;
  readonly preserve: boolean;
  readonly agent?: string;
  readonly role?: string;
}

/** Style properties an element passes down to its content (TTML2 section 10.2: "Inherited: yes"). */
const INHERITED_STYLES = new Set(
  ['color', 'direction', 'fontFamily', 'fontKerning', 'fontSelectionStrategy', 'fontShear', 'fontSize', 'fontStyle', 'fontVariant', 'fontWeight', 'letterSpacing', 'lineHeight', 'lineShear', 'rubyAlign', 'rubyPosition', 'rubyReserve', 'shear', 'textAlign', 'textCombine', 'textDecoration', 'textEmphasis', 'textOutline', 'textShadow', 'visibility', 'wrapOption']
    .map((name) => `tts:${name}`)
    .concat(['itts:fillLineGap', 'ebutts:multiRowAlign', 'ebutts:linePadding']),
);

/** What nothing has said yet: the start of the inheritance the `tt` element begins. */
export const NOTHING_INHERITED: Inherited = { styles: [], styling: {}, preserve: false };

/** What an element (`own`: the paragraph itself) says for its paragraphs, on top of what its ancestors said. */
export function inheritedAt(outer: Inherited, element: TtElement, own: boolean): Inherited {
  const attributes = element.attributes;
  const styling: Record<string, string> = { ...outer.styling };
  for (const [name, value] of Object.entries(attributes)) {
    if (isStyleAttribute(name) && (own || INHERITED_STYLES.has(name))) styling[name] = value;
  }
  const space = attributes['xml:space'];
  return {
    region: attributes.region ?? outer.region,
    styles: attributes.style !== undefined ? [...outer.styles, ...attributes.style.split(/\s+/).filter((id) => id.length > 0)] : outer.styles,
    styling,
    lang: attributes['xml:lang'] ?? outer.lang,
    preserve: space === undefined ? outer.preserve : space === 'preserve',
    agent: attributes['ttm:agent'] ?? outer.agent,
    role: attributes['ttm:role'] ?? outer.role,
  };
}

export function isStyleAttribute(name: string): boolean {
  return name.startsWith('tts:') || name.startsWith('itts:') || name.startsWith('ebutts:');
}

type TimedPiece = TextPiece & { readonly begin: Seconds; readonly end: Seconds | null };

/** The cue of a timed paragraph (active, or a point), or null when nothing of it is shown. */
export function paragraphCue(node: TimedNode, element: TtElement, inherited: Inherited, context: ParagraphContext): TtmlCue | null {
  if (node.point) return pointCue(node, element, inherited, context);
  const cut = context.documentEnd !== null && compare(context.documentEnd, node.begin) > 0 ? context.documentEnd : null;
  const shows = (child: TimedNode): boolean => child.active && !(child.end === null && cut !== null && compare(child.begin, cut) >= 0);
  const pieces: TimedPiece[] = [];
  collectPieces(node.children, inherited.preserve, shows, pieces);
  const shown = normalizeSpace(pieces, false);
  let begin: Seconds | null = null;
  let end: Seconds | null = null;
  let indefinite = false;
  for (const piece of shown) {
    if (piece.hard) continue;
    begin = begin === null ? piece.begin : min(begin, piece.begin);
    if (piece.end === null) indefinite = true;
    else end = end === null ? piece.end : max(end, piece.end);
  }
  if (begin === null) {
    // Nothing is shown: an empty paragraph keeps its own time; one whose text never shows is not a cue.
    if (holdsText(element)) return null;
    begin = node.begin;
    end = node.end;
    indefinite = node.end === null;
  }
  const cueEnd = indefinite ? null : end;
  let text = '';
  for (const piece of shown) text += piece.text;
  const markup = markupOf(node.children, begin, cueEnd, shows);
  return { begin, end: cueEnd, body: paragraphBody(text, element, inherited, markup, context), offset: element.offset };
}

/** A paragraph timed to no duration: a point annotation with all its text (annot writes points so). */
function pointCue(node: TimedNode, element: TtElement, inherited: Inherited, context: ParagraphContext): TtmlCue {
  const shows = (child: TimedNode): boolean => child.active || child.point || child.element === null;
  const pieces: TimedPiece[] = [];
  collectPieces(node.children, inherited.preserve, shows, pieces);
  let text = '';
  for (const piece of normalizeSpace(pieces, false)) text += piece.text;
  return { begin: node.begin, end: node.begin, body: paragraphBody(text, element, inherited, markupOf(node.children, node.begin, node.begin, shows), context), offset: element.offset };
}

function holdsText(element: TtElement): boolean {
  return element.content.some((child) => (typeof child === 'string' ? child.trim().length > 0 : child.name === 'span' && holdsText(child)));
}

/** The text (and `<br/>`) shown in a paragraph, each piece with its interval. */
function collectPieces(nodes: readonly TimedNode[], preserve: boolean, shows: (node: TimedNode) => boolean, pieces: TimedPiece[]): void {
  for (const node of nodes) {
    if (!shows(node)) continue;
    if (node.element === null) pieces.push({ text: node.text, hard: false, preserve, begin: node.begin, end: node.end });
    else if (node.element.name === 'br') pieces.push({ text: '\n', hard: true, begin: node.begin, end: node.end });
    else if (node.element.name === 'span') collectPieces(node.children, spaceIn(node.element.attributes, preserve), shows, pieces);
  }
}

/** The shown content as markup, times relative to the parent's begin where they differ from the parent's. */
function markupOf(nodes: readonly TimedNode[], parentBegin: Seconds, parentEnd: Seconds | null, shows: (node: TimedNode) => boolean): MarkupNode[] {
  const markup: MarkupNode[] = [];
  for (const node of nodes) {
    if (node.element === null) {
      if (shows(node)) markup.push(node.text);
      continue;
    }
    if (node.element.name === 'set') continue; // animation: not kept
    const timedElement = node.element.name === 'span' || node.element.name === 'br';
    if (timedElement && !shows(node)) continue;
    const attributes: Record<string, string> = {};
    for (const [name, value] of Object.entries(node.element.attributes)) if (name !== 'begin' && name !== 'end' && name !== 'dur' && name !== 'timeContainer') attributes[name] = value;
    const kept: { -readonly [K in keyof MarkupElement]: MarkupElement[K] } = { name: node.element.name };
    if (Object.keys(attributes).length > 0) kept.attributes = attributes;
    // A span that begins before the text around it shows begins with it (markup times are never negative).
    const begin = max(node.begin, parentBegin);
    if (timedElement && compare(begin, parentBegin) !== 0) kept.begin = secondsText(subtract(begin, parentBegin));
    if (timedElement && node.end !== null && (parentEnd === null || compare(node.end, parentEnd) !== 0)) kept.end = secondsText(subtract(node.end, parentBegin));
    const children = timedElement ? markupOf(node.children, begin, node.end, shows) : markupOfInert(node.element);
    if (children.length > 0) kept.children = children;
    markup.push(kept);
  }
  return markup;
}

/** An element with no time of its own in a paragraph (metadata, another namespace's): kept as written. */
function markupOfInert(element: TtElement): MarkupNode[] {
  return element.content.map((child) => (typeof child === 'string' ? child : { name: child.name, ...(Object.keys(child.attributes).length > 0 ? { attributes: { ...child.attributes } } : {}), ...(child.content.length > 0 ? { children: markupOfInert(child) } : {}) }));
}

function paragraphBody(text: string, element: TtElement, inherited: Inherited, markup: MarkupNode[], context: ParagraphContext): TtmlCueBody {
  const body: TtmlCueBody = { text };
  const id = element.attributes['xml:id'];
  if (id !== undefined) body.id = id;
  if (inherited.lang !== undefined && inherited.lang !== context.lang) body.lang = inherited.lang;
  const speaker = speakerOf(inherited, context.agents);
  if (speaker !== null) body.speaker = speaker;
  if (inherited.agent !== undefined) body.agent = inherited.agent;
  if (inherited.role !== undefined) body.role = inherited.role;
  if (inherited.region !== undefined) body.region = inherited.region;
  if (inherited.styles.length > 0) body.style = inherited.styles.join(' ');
  if (Object.keys(inherited.styling).length > 0) body.styling = { ...inherited.styling };
  if (inherited.preserve) body.preserve_space = true;
  if (!isPlainMarkup(markup)) body.markup = markup;
  return body;
}

/** The names of the agents a paragraph names (their ids when the head does not declare them), else its role. */
function speakerOf(inherited: Inherited, agents: ReadonlyMap<string, string>): string | null {
  if (inherited.agent !== undefined) {
    const names = inherited.agent.split(/\s+/).filter((id) => id.length > 0).map((id) => agents.get(id) ?? id);
    if (names.length > 0) return names.join(', ');
  }
  return inherited.role !== undefined && inherited.role.trim().length > 0 ? inherited.role.trim() : null;
}

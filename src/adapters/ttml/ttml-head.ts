import type { MarkupElement, MarkupNode } from './ttml-model.js';
import { childElements, type TtElement } from './ttml-names.js';

/**
 * The head pass: what the document's `<head>` says that annot keeps. Its styling, layout and
 * metadata are kept whole as markup (document metadata ttml.head), and the agents its metadata
 * declares (`<ttm:agent xml:id="a1"><ttm:name>Mara</ttm:name></ttm:agent>`) name the speakers
 * of the paragraphs that refer to them.
 */
export interface TtmlHead {
  readonly markup: MarkupNode[];
  /** Each agent's name (its ttm:name, the "full" one first), by id. */
  readonly agents: ReadonlyMap<string, string>;
  /** The ids of the regions the layout declares. */
  readonly regions: ReadonlySet<string>;
}

export function readHead(head: TtElement | undefined): TtmlHead {
  if (head === undefined) return { markup: [], agents: new Map(), regions: new Set() };
  const agents = new Map<string, string>();
  const regions = new Set<string>();
  const visit = (element: TtElement): void => {
    const id = element.attributes['xml:id'];
    if (element.name === 'ttm:agent' && id !== undefined) agents.set(id, agentName(element) ?? id);
    if (element.name === 'region' && id !== undefined) regions.add(id);
    for (const child of childElements(element)) visit(child);
  };
  visit(head);
  return { markup: childElements(head).map(markupOf), agents, regions };
}

/** An agent's name: its "full" ttm:name, else its first. */
function agentName(agent: TtElement): string | null {
  const names = childElements(agent).filter((child) => child.name === 'ttm:name');
  const chosen = names.find((name) => name.attributes.type === 'full') ?? names[0];
  if (chosen === undefined) return null;
  const text = chosen.content.filter((child): child is string => typeof child === 'string').join('').trim().replace(/\s+/g, ' ');
  return text.length > 0 ? text : null;
}

/**
 * An element as markup, whole: its attributes and content. White space between child elements
 * is layout, not content, and is left out; an element with text keeps it as written.
 */
export function markupOf(element: TtElement): MarkupElement {
  const hasElements = element.content.some((child) => typeof child !== 'string');
  const children: MarkupNode[] = [];
  for (const child of element.content) {
    if (typeof child !== 'string') children.push(markupOf(child));
    else if (!hasElements || child.trim().length > 0) children.push(child);
  }
  return {
    name: element.name,
    ...(Object.keys(element.attributes).length > 0 ? { attributes: { ...element.attributes } } : {}),
    ...(children.length > 0 ? { children } : {}),
  };
}

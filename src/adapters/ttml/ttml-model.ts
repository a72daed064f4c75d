/**
 * What annot keeps of a TTML document (TTML1, TTML2, IMSC 1.x, DFXP): the body of a paragraph
 * (schema annot://schema/ttml-cue/v1), the markup tree it keeps a paragraph's content in, and the
 * document metadata keys.
 */

export const TTML_CUE_SCHEMA = 'annot://schema/ttml-cue/v1';
/** Tier of the imported paragraphs when the caller names none (`--tier`). */
export const DEFAULT_TTML_TIER = 'subtitles';
export const DEFAULT_TTML_ASSET = 'ttml:unspecified';

/** The `<head>` element's children (styling, layout, metadata) as markup nodes, JSON. */
export const TTML_HEAD_META = 'ttml.head';
/** The `<tt>` element's attributes other than namespaces and time parameters (`xml:lang`, `tts:extent`...), JSON. */
export const TTML_ROOT_META = 'ttml.root';

/**
 * A node of kept markup: text as written (whitespace included), or an element by its name
 * (`span`, `br`; `ttm:agent` for a namespace annot knows the usual prefix of; `{uri}local` for
 * any other), its attributes by the same kind of name, and its children. Times are not
 * attributes: `begin` and `end` are exact seconds (`"3/2"`, `"1001/30000"`) relative to the
 * parent's begin (a paragraph's children: to the annotation's start), resolved from whatever
 * begin, end, dur and time container the file used.
 */
export type MarkupNode = string | MarkupElement;

export interface MarkupElement {
  readonly name: string;
  readonly attributes?: Readonly<Record<string, string>>;
  readonly begin?: string;
  readonly end?: string;
  readonly children?: readonly MarkupNode[];
}

/** The body of an imported paragraph. */
export interface TtmlCueBody {
  /** The plain text: spans joined, `<br/>` as LF, white space collapsed as TTML presents it. */
  text: string;
  /** The paragraph's xml:id. */
  id?: string;
  /** xml:lang in effect, when it is not the document's. */
  lang?: string;
  /** Who speaks: the name of the ttm:agent the paragraph names (or its id), else its ttm:role. */
  speaker?: string;
  /** ttm:agent as written (IDREFS). */
  agent?: string;
  /** ttm:role as written. */
  role?: string;
  /** The region in effect (the paragraph's, or the nearest ancestor's). */
  region?: string;
  /** The styles referred to in effect, outermost element's first (IDREFS). */
  style?: string;
  /** Style attributes written on the paragraph and its ancestors (the nearest wins), by name (`tts:color`). */
  styling?: Record<string, string>;
  /** xml:space="preserve" in effect: the text's white space is as written. */
  preserve_space?: true;
  /** The paragraph's content, when it is more than text and plain `<br/>`s (spans, styles, timed words). */
  markup?: MarkupNode[];
}

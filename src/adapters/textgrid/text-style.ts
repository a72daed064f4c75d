import type { TextLayout } from '../text-layout.js';

/**
 * How a TextGrid file is written, where Praat's format leaves room: the long or the short
 * format, and in the long one the space Praat puts at the end of its `key = value` lines, the
 * indentation, how deep the intervals sit, and whether times are written as Python floats
 * (`0.0`, not `0`): praatio and the Montreal Forced Aligner write interval times so, polyglotdb's
 * writer every time and indents with tabs. Told from the first characters of a file, kept in its
 * layout (text-layout.ts), and followed when it is written back.
 */
export interface TextGridStyle {
  readonly variant: 'long' | 'short';
  readonly trailingSpace: boolean;
  /** One level of indentation. */
  readonly indent: string;
  /** The level of `intervals [1]:` and `points [1]:` (Praat: 2, the level of the tier's fields). */
  readonly itemDepth: number;
  /** Whole-second grid and tier bounds written `1.0`. */
  readonly boundsAsFloat: boolean;
  /** Whole-second interval and point times written `1.0`. */
  readonly itemsAsFloat: boolean;
}

/** Praat's own layout: what annot writes when nothing else is known. */
export const PRAAT_STYLE: TextGridStyle = { variant: 'long', trailingSpace: true, indent: '    ', itemDepth: 2, boundsAsFloat: false, itemsAsFloat: false };

/** The style of a file from its first characters. */
export function styleOfText(head: string): TextGridStyle {
  const lines = head.split(/\r\n|\r|\n/);
  if (!lines.some((line) => /^\s*xmin = /.test(line))) return { ...PRAAT_STYLE, variant: 'short' };
  const gridBound = lines.find((line) => /^xmin = /.test(line)) ?? '';
  const indent = /^(\s+)item \[1\]:/.exec(lines.find((line) => /^\s+item \[1\]:/.test(line)) ?? '')?.[1] ?? PRAAT_STYLE.indent;
  const itemLine = lines.find((line) => /^\s+(?:intervals|points) \[1\]:/.test(line));
  const itemIndent = itemLine === undefined ? '' : (/^(\s+)/.exec(itemLine) as RegExpExecArray)[1];
  const itemDepth = itemIndent.length > 0 && itemIndent.length % indent.length === 0 ? itemIndent.length / indent.length : PRAAT_STYLE.itemDepth;
  const timeLines = lines.map((line) => /^(\s*)(?:xmin|xmax|number) = (-?\d+(?:\.\d+)?)\s*$/.exec(line)).filter((match) => match !== null);
  const isItem = (match: RegExpExecArray): boolean => match[1].length > itemIndent.length && itemIndent.length > 0;
  return {
    variant: 'long',
    trailingSpace: gridBound.endsWith(' '),
    indent,
    itemDepth,
    boundsAsFloat: timeLines.some((match) => !isItem(match) && /^-?\d+\.0$/.test(match[2])),
    itemsAsFloat: timeLines.some((match) => isItem(match) && /^-?\d+\.0$/.test(match[2])),
  };
}

/** The style as choices of a layout. */
export function styleChoices(style: TextGridStyle): Record<string, string | number | boolean> {
  return { variant: style.variant, trailing_space: style.trailingSpace, indent: style.indent, item_depth: style.itemDepth, bounds_as_float: style.boundsAsFloat, items_as_float: style.itemsAsFloat };
}

/** The style a layout keeps (Praat's for what it does not say), with the variant the user asked for, if any. */
export function styleOfLayout(layout: TextLayout | null, variant: string | undefined): TextGridStyle {
  const kept = layout === null ? PRAAT_STYLE : {
    variant: layout.variant === 'short' ? 'short' : 'long',
    trailingSpace: layout.trailing_space !== false,
    indent: typeof layout.indent === 'string' && /^[ \t]+$/.test(layout.indent) ? layout.indent : PRAAT_STYLE.indent,
    itemDepth: typeof layout.item_depth === 'number' && Number.isInteger(layout.item_depth) && layout.item_depth >= 1 && layout.item_depth <= 8 ? layout.item_depth : PRAAT_STYLE.itemDepth,
    boundsAsFloat: layout.bounds_as_float === true,
    itemsAsFloat: layout.items_as_float === true,
  } satisfies TextGridStyle;
  return variant === 'long' || variant === 'short' ? { ...kept, variant } : kept;
}

/** A time as the style writes it: `1` as `1.0` when whole seconds are written as floats. */
export function styledTime(decimal: string, asFloat: boolean): string {
  return asFloat && /^-?\d+$/.test(decimal) ? `${decimal}.0` : decimal;
}

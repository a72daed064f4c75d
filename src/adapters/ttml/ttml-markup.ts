import type { MarkupNode } from './ttml-model.js';

/**
 * A paragraph's text as TTML presents it. Text comes in pieces (text nodes, and `<br/>` as a hard
 * line break); with the default xml:space, white space (space, tab, CR, LF) collapses to one
 * space, and a space at the start or end of a line goes (TTML2 section 10.3.5 and XSL's
 * linefeed-treatment="treat-as-space", white-space-collapse, suppress-at-line-break); with
 * xml:space="preserve", the text is kept as written, each line break of it a line break.
 */
export interface TextPiece {
  readonly text: string;
  /** A `<br/>`: its text is LF. */
  readonly hard: boolean;
  /** xml:space="preserve" is in effect where the text is (it can change from span to span). */
  readonly preserve?: boolean;
}

export function normalizeSpace<T extends TextPiece>(pieces: readonly T[], preserveAll: boolean): T[] {
  const out: T[] = [];
  let lineStart = true;
  let afterSpace = false;
  let lastKept = false;
  const trimLast = (): void => {
    const last = out[out.length - 1];
    if (last === undefined || last.hard || lastKept || !last.text.endsWith(' ')) return;
    const text = last.text.slice(0, -1);
    if (text.length === 0) out.pop();
    else out[out.length - 1] = { ...last, text };
  };
  for (const piece of pieces) {
    if (piece.hard) {
      trimLast();
      out.push(piece);
      [lineStart, afterSpace, lastKept] = [true, false, false];
      continue;
    }
    if (preserveAll || piece.preserve === true) {
      // Preserved: every character as written, each line break a line break.
      const text = piece.text.replace(/\r\n?/g, '\n');
      if (text.length === 0) continue;
      out.push({ ...piece, text });
      [lineStart, afterSpace, lastKept] = [text.endsWith('\n'), /[ \t]$/.test(text), true];
      continue;
    }
    let text = piece.text.replace(/[ \t\r\n]+/g, ' ');
    if ((lineStart || afterSpace) && text.startsWith(' ')) text = text.slice(1);
    if (text.length === 0) continue;
    [lineStart, afterSpace, lastKept] = [false, text.endsWith(' '), false];
    out.push({ ...piece, text });
  }
  trimLast();
  return out;
}

/** The text pieces of markup: text nodes and the text of spans, `<br/>` as a hard break; other elements hold no text. */
export function markupPieces(nodes: readonly MarkupNode[], preserve = false, pieces: TextPiece[] = []): TextPiece[] {
  for (const node of nodes) {
    if (typeof node === 'string') pieces.push({ text: node, hard: false, preserve });
    else if (node.name === 'br') pieces.push({ text: '\n', hard: true });
    else if (node.name === 'span') markupPieces(node.children ?? [], spaceIn(node.attributes, preserve), pieces);
  }
  return pieces;
}

/** Whether white space is preserved inside an element with these attributes, given its parent's. */
export function spaceIn(attributes: Readonly<Record<string, string>> | undefined, outer: boolean): boolean {
  const space = attributes?.['xml:space'];
  return space === undefined ? outer : space === 'preserve';
}

/** The plain text of markup: what the reader puts in a body's `text`. */
export function markupText(nodes: readonly MarkupNode[], preserve: boolean): string {
  let text = '';
  for (const piece of normalizeSpace(markupPieces(nodes, preserve), false)) text += piece.text;
  return text;
}

/** Whether markup says no more than its text: text nodes and plain `<br/>`s only. */
export function isPlainMarkup(nodes: readonly MarkupNode[]): boolean {
  return nodes.every((node) => typeof node === 'string' || (node.name === 'br' && node.attributes === undefined && node.begin === undefined && node.end === undefined));
}

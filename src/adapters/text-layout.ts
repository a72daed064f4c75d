import type { TextShape } from './encoding/text-shape.js';
import type { BufferedTextWriter } from './text-writer.js';

/**
 * How a subtitle or TextGrid file was laid out: its line break, its UTF-8 byte-order mark, how
 * many line breaks end it, and what its format lets a writer choose (WebVTT: hours in timestamps,
 * blank lines between cues; TextGrid: long or short, indentation, number style). Its reader keeps
 * it in the store's metadata under TEXT_LAYOUT_META, and the writer of the same format follows
 * it, so a file converted to `.annot` and back is byte for byte the file that went in: what a
 * user who keeps subtitles in git wants to see in a diff. Another format's writer ignores it
 * (a WebVTT written from an SRT is laid out as annot writes WebVTT: LF, no byte-order mark).
 */
export const TEXT_LAYOUT_META = 'text.layout';

export interface TextLayout {
  /** The format the file was read as: only its writer follows the layout. */
  readonly format: string;
  readonly line_break: 'lf' | 'crlf' | 'cr';
  /** It started with a UTF-8 byte-order mark. */
  readonly bom: boolean;
  /** The encoding it was read in: for the record only, as annot writes UTF-8. */
  readonly encoding: string;
  /** The line breaks that end it (CR and LF only; often one line break, none when the last line has none). */
  readonly ending: string;
  /** Format-specific choices (see the format's writer). */
  readonly [choice: string]: string | number | boolean;
}

const BREAKS = { lf: '\n', crlf: '\r\n', cr: '\r' } as const;

/** The layout a reader keeps, from the file's shape and the choices its format adds. */
export function layoutOf(format: string, shape: TextShape, choices: Readonly<Record<string, string | number | boolean>> = {}): TextLayout {
  const line_break = shape.lineBreak === '\r\n' ? 'crlf' : shape.lineBreak === '\r' ? 'cr' : 'lf';
  return { ...choices, format, line_break, bom: shape.utf8Bom, ending: shape.ending, encoding: shape.encoding };
}

/** The metadata entry that keeps a layout. */
export function layoutMeta(layout: TextLayout): Record<string, string> {
  return { [TEXT_LAYOUT_META]: JSON.stringify(layout) };
}

/** The layout kept in metadata for `format`, or null (none, another format's, or not in the expected shape). */
export function readLayout(value: string | null | undefined, format: string): TextLayout | null {
  if (typeof value !== 'string') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const layout = parsed as Partial<TextLayout>;
  if (layout.format !== format || typeof layout.bom !== 'boolean' || typeof layout.ending !== 'string' || !/^[\r\n]*$/.test(layout.ending)) return null;
  if (layout.line_break !== 'lf' && layout.line_break !== 'crlf' && layout.line_break !== 'cr') return null;
  return layout as TextLayout;
}

/**
 * A text written through a BufferedTextWriter, laid out as `layout` says: the byte-order mark
 * first, every LF written as the file's line break, and the line breaks at the very end replaced
 * by the file's ending. The writers write their usual text (LF, a blank line after each block),
 * and may say how many blank lines precede a block; without a layout it goes out as written.
 */
export class LaidOutWriter {
  private started = false;
  /** Line breaks written last and not yet sent: only text after them shows they are not the end. */
  private heldBreaks = 0;

  constructor(
    private readonly writer: BufferedTextWriter,
    private readonly layout: TextLayout | null,
  ) {}

  write(text: string): Promise<void> | undefined {
    if (this.layout === null) return this.writer.write(text);
    let end = text.length;
    while (end > 0 && text.charCodeAt(end - 1) === 0x0a) end--;
    if (end === 0) {
      this.heldBreaks += text.length;
      return undefined;
    }
    const before = this.pending();
    this.heldBreaks = text.length - end;
    const body = this.layout.line_break === 'lf' ? text.slice(0, end) : text.slice(0, end).replaceAll('\n', BREAKS[this.layout.line_break]);
    return chain(this.writer.write(before), () => this.writer.write(body));
  }

  /**
   * The next block follows `blankLines` blank lines instead of those written (a file whose blocks
   * are not all one blank line apart). Only with a layout, and only after something was written.
   */
  beforeBlock(blankLines: number): void {
    if (this.layout !== null && this.heldBreaks > 0) this.heldBreaks = blankLines + 1;
  }

  async close(): Promise<void> {
    if (this.layout !== null) {
      // The breaks held back are the end: the file's own ending takes their place.
      this.heldBreaks = 0;
      await this.writer.write(this.pending() + this.layout.ending);
    }
    await this.writer.close();
  }

  destroy(): Promise<void> {
    return this.writer.destroy();
  }

  /** The byte-order mark (first time) and the line breaks held back, now that text follows them. */
  private pending(): string {
    const layout = this.layout as TextLayout;
    let text = this.started || !layout.bom ? '' : '\ufeff';
    this.started = true;
    if (this.heldBreaks > 0) text += BREAKS[layout.line_break].repeat(this.heldBreaks);
    return text;
  }
}

/** A whole text laid out as `layout` says (see LaidOutWriter). */
export function laidOutText(text: string, layout: TextLayout | null): string {
  if (layout === null) return text;
  const body = text.replace(/\n+$/, '');
  const lines = layout.line_break === 'lf' ? body : body.replaceAll('\n', BREAKS[layout.line_break]);
  return `${layout.bom ? '\ufeff' : ''}${lines}${layout.ending}`;
}

function chain(first: Promise<void> | undefined, next: () => Promise<void> | undefined): Promise<void> | undefined {
  if (first === undefined) return next();
  return first.then(() => next());
}

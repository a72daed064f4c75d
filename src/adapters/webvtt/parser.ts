import { scanTimestamp, type ScannedTimestamp } from './timestamp.js';

/**
 * The W3C WebVTT parser (WebVTT: The Web Video Text Tracks Format, section 6.1 "WebVTT file
 * parsing" and 6.3 "cue timings and settings"), fed line by line so that a file streams through
 * it. The algorithm is followed step by step: the signature, the header block, blocks collected
 * with their line count, the "seen arrow" rule that lets a line with `-->` start a new block,
 * STYLE and REGION blocks only before the first cue, and blocks that are neither a cue, a
 * style sheet nor a region returned as nothing. Input text comes with LF line breaks (CR and CRLF
 * already turned into LF); NUL is replaced by U+FFFD here, as the algorithm's first step says.
 *
 * What the algorithm throws away is still reported (so a converter can keep it or say it lost
 * it): the header's text, NOTE blocks, and blocks that looked like cues but whose timing failed.
 */

export interface WebVttCue {
  /** The cue identifier as written ('' when none). */
  readonly id: string;
  readonly startMs: number;
  readonly endMs: number;
  /** The settings after the end time, as their whitespace-separated tokens joined by one space ('' when none). */
  readonly settings: string;
  /** The cue payload lines joined with LF, tags and entities kept as written. */
  readonly text: string;
  /** The line of the timing line (1-based). */
  readonly line: number;
  /** The end time as written when it precedes the start (the W3C parser keeps such cues). */
  readonly writtenEnd: string | null;
  /** Which of its timestamps were written with hours (`00:01:02.000`, not `01:02.000`). */
  readonly hours: CueHours;
  /** Blank lines between the block before it (or the header) and its first line. */
  readonly blankLinesBefore: number;
}

export type CueHours = 'both' | 'none' | 'start' | 'end';

/** A block before or between cues that is not a cue: kept for round trips and reports. */
export interface WebVttBlock {
  readonly kind: 'STYLE' | 'REGION' | 'NOTE';
  /** For STYLE and REGION, the body after the first line; for NOTE, the whole block. */
  readonly text: string;
  readonly line: number;
}

export interface WebVttSink {
  cue(cue: WebVttCue): void;
  block(block: WebVttBlock, seenCue: boolean): void;
  /**
   * A block the algorithm drops: one with a `-->` line whose timings could not be parsed
   * (`reason` "timing", `line` the timing line), or one that is neither a cue, a comment, nor a
   * STYLE or REGION block before the first cue (`reason` "not_a_cue", `line` its first line).
   */
  skipped(line: number, text: string, reason: 'timing' | 'not_a_cue'): void;
}

export class WebVttSignatureError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly expected: string,
  ) {
    super(expected);
  }
}

const enum Phase {
  Signature,
  AfterSignature,
  BetweenBlocks,
  InBlock,
}

export class WebVttParser {
  /** Text after `WEBVTT` on the signature line (without the separating space or tab). */
  signatureText = '';
  /** The space or tab after `WEBVTT` ('' when the line ends there). */
  signatureSeparator = '';
  /** Lines of the header block (after the signature line, up to the first blank line). */
  readonly headerLines: string[] = [];

  private phase = Phase.Signature;
  private lineNumber = 0;
  private seenCue = false;
  // The block being collected (spec: collect a WebVTT block).
  private inHeader = false;
  private lineCount = 0;
  /** The block's lines from texts before the current one, joined with LF. */
  private buffer = '';
  /**
   * The block's latest lines, as a range of the text being scanned (lines of one text are
   * contiguous, LF between them): sliced once when the block ends, not line by line.
   */
  private spanTextId = -1;
  private spanText = '';
  private spanFrom = 0;
  private spanTo = 0;
  /** Counts the texts scanned, so a span is known to be in the current one without comparing strings. */
  private textId = 0;
  private bufferStartLine = 0;
  private seenArrow = false;
  private cueId: string | null = null;
  private cueStart = 0;
  private cueEnd = 0;
  private cueSettings = '';
  private cueLine = 0;
  private cueWrittenEnd: string | null = null;
  private cueHours: CueHours = 'both';
  /** Blank lines since the last block ended, and those before the block being collected. */
  private blankLines = 0;
  private blockBlankLines = 0;
  private blockKind: 'STYLE' | 'REGION' | null = null;
  private failedTimingLine = 0;
  private readonly scanned: ScannedTimestamp = { ms: -1, end: 0 };
  /** The pieces of the text not yet ending in a line break. */
  private pending: string[] = [];
  /** Where the last "-->" search in the current text found one (text length: none further). */
  private arrowAt = -1;

  constructor(private readonly sink: WebVttSink) {}

  /** Lines read to their end so far. */
  get linesRead(): number {
    return this.lineNumber;
  }

  /** Feeds the next lines of the file (already split on CR, LF and CRLF). */
  push(lines: readonly string[]): void {
    if (lines.length > 0) this.pushText(`${lines.join('\n')}\n`);
  }

  /**
   * Feeds the next piece of the file's text, with LF line breaks (CR and CRLF already turned
   * into LF). Lines are scanned where they lie in the text: a timing line is read in place and
   * only ids and payload lines become strings of their own, which is what keeps parsing fast.
   */
  pushText(chunk: string): void {
    const text = chunk.indexOf('\u0000') !== -1 ? chunk.replaceAll('\u0000', '\ufffd') : chunk;
    let position = 0;
    if (this.pending.length > 0) {
      // A line that began in an earlier chunk: its pieces are joined once, when its end comes, so
      // a very long line costs its length once and not once per chunk.
      const newline = text.indexOf('\n');
      if (newline === -1) {
        this.pending.push(text);
        return;
      }
      this.pending.push(text.slice(0, newline));
      const line = this.pending.join('');
      this.pending = [];
      this.arrowAt = -1;
      this.textId++;
      this.lineNumber++;
      this.feed(line, 0, line.length);
      position = newline + 1;
    }
    this.arrowAt = -1;
    this.textId++;
    for (;;) {
      const newline = text.indexOf('\n', position);
      if (newline === -1) break;
      this.lineNumber++;
      this.feed(text, position, newline);
      position = newline + 1;
    }
    if (position < text.length) this.pending.push(position === 0 ? text : text.slice(position));
  }

  /** The end of the file. Throws WebVttSignatureError when the file never had a signature. */
  end(): void {
    if (this.pending.length > 0) {
      const last = this.pending.join('');
      this.pending = [];
      this.arrowAt = -1;
      this.textId++;
      this.lineNumber++;
      this.feed(last, 0, last.length);
    }
    if (this.phase === Phase.Signature) {
      throw new WebVttSignatureError(1, 1, 'expected the WebVTT signature "WEBVTT" on the first line, found an empty file');
    }
    if (this.phase === Phase.InBlock) this.finishBlock();
    this.phase = Phase.BetweenBlocks;
  }

  private feed(text: string, start: number, end: number): void {
    switch (this.phase) {
      case Phase.Signature:
        this.checkSignature(text.slice(start, end));
        this.phase = Phase.AfterSignature;
        return;
      case Phase.AfterSignature:
        // Header: a non-empty line right after the signature line starts the header block.
        if (start === end) {
          this.phase = Phase.BetweenBlocks;
          this.blankLines = 1;
        } else {
          this.startBlock(true);
          this.blockLine(text, start, end);
        }
        return;
      case Phase.BetweenBlocks:
        if (start === end) {
          this.blankLines++;
          return;
        }
        this.startBlock(false);
        this.blockLine(text, start, end);
        return;
      case Phase.InBlock:
        this.blockLine(text, start, end);
        return;
    }
  }

  /** Whether the line [start, end) contains "-->"; the last match is remembered so a chunk is searched once. */
  private hasArrow(text: string, start: number, end: number): boolean {
    if (this.arrowAt < start) {
      this.arrowAt = text.indexOf('-->', start);
      if (this.arrowAt === -1) this.arrowAt = text.length;
    }
    return this.arrowAt + 3 <= end;
  }

  private checkSignature(line: string): void {
    // Steps 4-6: "WEBVTT" exactly, or followed by a space, a tab (or the line feed that ended the line).
    if (!line.startsWith('WEBVTT')) {
      throw new WebVttSignatureError(1, 1, `expected the WebVTT signature "WEBVTT" at the start of the file, found ${JSON.stringify(line.slice(0, 20))}`);
    }
    if (line.length > 6) {
      const seventh = line.charCodeAt(6);
      if (seventh !== 32 && seventh !== 9) {
        throw new WebVttSignatureError(1, 7, `expected a space, a tab or a line break after "WEBVTT", found ${JSON.stringify(line[6])}`);
      }
      this.signatureText = line.slice(7);
      this.signatureSeparator = line[6];
    }
  }

  private startBlock(inHeader: boolean): void {
    this.phase = Phase.InBlock;
    this.inHeader = inHeader;
    this.lineCount = 0;
    this.clearBuffer();
    this.bufferStartLine = this.lineNumber;
    this.seenArrow = false;
    this.cueId = null;
    this.cueWrittenEnd = null;
    this.blockKind = null;
    this.failedTimingLine = 0;
    this.blockBlankLines = this.blankLines;
    this.blankLines = 0;
  }

  /** One line of "collect a WebVTT block", step 11. */
  private blockLine(text: string, start: number, end: number): void {
    this.lineCount++;
    if (this.hasArrow(text, start, end)) {
      if (!this.inHeader && (this.lineCount === 1 || (this.lineCount === 2 && !this.seenArrow))) {
        this.seenArrow = true;
        if (this.collectTimings(text, start, end)) {
          this.cueId = this.takeBuffer();
          this.clearBuffer();
          this.bufferStartLine = this.lineNumber + 1;
          this.seenCue = true;
          this.cueLine = this.lineNumber;
        } else {
          this.cueId = null;
          this.failedTimingLine = this.lineNumber;
        }
        return;
      }
      // "Let position be previous position and break out of loop": this line starts the next block.
      this.finishBlock();
      this.startBlock(false);
      this.blockLine(text, start, end);
      return;
    }
    if (start === end) {
      this.finishBlock();
      this.phase = Phase.BetweenBlocks;
      this.blankLines = 1;
      return;
    }
    if (!this.inHeader && this.lineCount === 2 && !this.seenCue) {
      const first = this.takeBuffer();
      if (isBlockKeyword(first, 'STYLE')) {
        this.blockKind = 'STYLE';
        this.clearBuffer();
        this.bufferStartLine = this.lineNumber;
      } else if (isBlockKeyword(first, 'REGION')) {
        this.blockKind = 'REGION';
        this.clearBuffer();
        this.bufferStartLine = this.lineNumber;
      }
    }
    if (this.spanTextId === this.textId) {
      this.spanTo = end;
      return;
    }
    if (this.spanTextId !== -1) this.takeBuffer();
    this.spanTextId = this.textId;
    this.spanText = text;
    this.spanFrom = start;
    this.spanTo = end;
  }

  /** The block's lines so far, joined with LF (the span moved into the buffer). */
  private takeBuffer(): string {
    if (this.spanTextId !== -1) {
      const span = this.spanText.slice(this.spanFrom, this.spanTo);
      this.buffer = this.buffer.length === 0 ? span : `${this.buffer}\n${span}`;
      this.spanTextId = -1;
      this.spanText = '';
    }
    return this.buffer;
  }

  private clearBuffer(): void {
    this.buffer = '';
    this.spanTextId = -1;
    this.spanText = '';
  }

  private finishBlock(): void {
    this.takeBuffer();
    if (this.inHeader) {
      if (this.buffer.length > 0) this.headerLines.push(...this.buffer.split('\n'));
    } else if (this.cueId !== null) {
      this.sink.cue({
        id: this.cueId,
        startMs: this.cueStart,
        endMs: this.cueEnd,
        settings: this.cueSettings,
        text: this.buffer,
        line: this.cueLine,
        writtenEnd: this.cueWrittenEnd,
        hours: this.cueHours,
        blankLinesBefore: this.blockBlankLines,
      });
    } else if (this.blockKind !== null) {
      this.sink.block({ kind: this.blockKind, text: this.buffer, line: this.bufferStartLine }, this.seenCue);
    } else if (this.failedTimingLine !== 0) {
      this.sink.skipped(this.failedTimingLine, this.buffer, 'timing');
    } else if (isComment(this.buffer)) {
      this.sink.block({ kind: 'NOTE', text: this.buffer, line: this.bufferStartLine }, this.seenCue);
    } else {
      this.sink.skipped(this.bufferStartLine, this.buffer, 'not_a_cue');
    }
    this.phase = Phase.BetweenBlocks;
  }

  /** 6.3 "collect WebVTT cue timings and settings" on the line [from, to); false when it fails. */
  private collectTimings(text: string, from: number, to: number): boolean {
    const out = this.scanned;
    let p = skipWhitespace(text, from, to);
    scanTimestamp(text, p, out, to);
    if (out.ms < 0) return false;
    const start = out.ms;
    const startHours = colons(text, p, out.end) === 2;
    p = skipWhitespace(text, out.end, to);
    if (p + 3 > to || text.charCodeAt(p) !== 45 || text.charCodeAt(p + 1) !== 45 || text.charCodeAt(p + 2) !== 62) return false;
    p = skipWhitespace(text, p + 3, to);
    const endFrom = p;
    scanTimestamp(text, p, out, to);
    if (out.ms < 0) return false;
    const endHours = colons(text, endFrom, out.end) === 2;
    this.cueHours = startHours ? (endHours ? 'both' : 'start') : endHours ? 'end' : 'none';
    this.cueStart = start;
    this.cueEnd = out.ms;
    this.cueWrittenEnd = out.ms < start ? text.slice(endFrom, out.end) : null;
    this.cueSettings = out.end === to ? '' : normalizedSettings(text.slice(out.end, to));
    return true;
  }
}

function colons(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 58) count++;
  return count;
}

/** Settings tokens joined by one space; the common case (already written so) is returned as is. */
function normalizedSettings(remainder: string): string {
  if (remainder.charCodeAt(0) === 32 && remainder.length > 1) {
    let plain = remainder.charCodeAt(1) !== 32 && remainder.charCodeAt(remainder.length - 1) !== 32;
    for (let i = 1; plain && i < remainder.length; i++) {
      const code = remainder.charCodeAt(i);
      if (code === 9 || code === 10 || code === 12 || code === 13 || (code === 32 && remainder.charCodeAt(i + 1) === 32)) plain = false;
    }
    if (plain) return remainder.slice(1);
  }
  return splitOnSpaces(remainder).join(' ');
}

/** "STYLE" or "REGION" followed by nothing but ASCII whitespace. */
function isBlockKeyword(buffer: string, keyword: string): boolean {
  if (!buffer.startsWith(keyword)) return false;
  for (let i = keyword.length; i < buffer.length; i++) if (!isAsciiWhitespace(buffer.charCodeAt(i))) return false;
  return true;
}

/** A WebVTT comment block: "NOTE" followed by a space, a tab, a line break or nothing. */
function isComment(buffer: string): boolean {
  if (!buffer.startsWith('NOTE')) return false;
  if (buffer.length === 4) return true;
  const next = buffer.charCodeAt(4);
  return next === 32 || next === 9 || next === 10;
}

export function isAsciiWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 12 || code === 13;
}

function skipWhitespace(text: string, position: number, limit: number = text.length): number {
  while (position < limit && isAsciiWhitespace(text.charCodeAt(position))) position++;
  return position;
}

/** The HTML "split a string on ASCII whitespace". */
export function splitOnSpaces(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    i = skipWhitespace(text, i);
    if (i >= text.length) break;
    const start = i;
    while (i < text.length && !isAsciiWhitespace(text.charCodeAt(i))) i++;
    tokens.push(text.slice(start, i));
  }
  return tokens;
}

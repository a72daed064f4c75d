/**
 * A tolerant SubRip (SRT) reader, fed line by line. SRT has no specification, so it accepts what
 * real files do: sequence numbers present or missing, `,` or `.` (or `:`) before the fraction,
 * fractions of one to three digits or none, hours optional, anything after the end time kept as
 * coordinates (`X1:40 X2:600 Y1:20 Y2:50`), a cue that runs into the next timing line without a
 * blank line, tags and entities left as written. A block with no timing line is skipped and
 * counted rather than guessed at.
 */
import { formatTimestamp } from '../webvtt/timestamp.js';

export interface SrtCue {
  readonly sequence: number | null;
  readonly startMs: number;
  readonly endMs: number;
  /** What followed the end time on the timing line ('' when nothing did). */
  readonly coordinates: string;
  readonly text: string;
  readonly line: number;
  /** The end time as written when it precedes the start (the cue is kept as a point at its start). */
  readonly writtenEnd: string | null;
  /** The start time as written. */
  readonly writtenStart: string;
  /** Whether a timestamp on the timing line is not SubRip's `HH:MM:SS,mmm` (or the arrow not `-->`). */
  readonly nonstandard: boolean;
  /** Blank lines between the cue before it and its sequence number (or timing line). */
  readonly blankLinesBefore: number;
}

export interface SrtSink {
  cue(cue: SrtCue): void;
  /** A block without a timing line, skipped; `line` is its first line. */
  skipped(line: number, firstLine: string): void;
}

const TIMING =
  /^\s*((?:(\d+):)?(\d{1,2}):(\d{1,2})(?:[,.:](\d{1,3}))?)\s*-{1,2}>\s*((?:(\d+):)?(\d{1,2}):(\d{1,2})(?:[,.:](\d{1,3}))?)(?:[\s,;]+(.*?))?\s*$/;
/** The timing line as SubRip writes it: two or more hour digits, a comma and three fraction digits, `-->`. */
const STANDARD_TIMING = /^\s*\d{2,}:\d{2}:\d{2},\d{3}\s*-->\s*\d{2,}:\d{2}:\d{2},\d{3}(?:\s|$)/;

const enum State {
  Between,
  Text,
  Skipping,
}

export class SrtParser {
  private state = State.Between;
  private lineNumber = 0;
  private pendingSequence: number | null = null;
  private pendingSequenceLine = 0;
  private sequence: number | null = null;
  private startMs = 0;
  private endMs = 0;
  private coordinates = '';
  private writtenEnd: string | null = null;
  private writtenStart = '';
  private nonstandard = false;
  private cueLine = 0;
  private text: string[] = [];
  /** Blank lines since the last cue's text ended, and those before the cue being read. */
  private blankLines = 0;
  private cueBlankLines = 0;

  constructor(private readonly sink: SrtSink) {}

  push(lines: readonly string[]): void {
    for (let i = 0; i < lines.length; i++) {
      this.lineNumber++;
      this.feed(lines[i]);
    }
  }

  end(): void {
    if (this.state === State.Text) this.finishCue();
    else if (this.pendingSequence !== null) this.sink.skipped(this.pendingSequenceLine, String(this.pendingSequence));
    this.state = State.Between;
  }

  private feed(raw: string): void {
    // A BOM can sit at the start of the first line when the decoder did not drop it; zero-width, never text.
    const line = this.lineNumber === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    const blank = line.trim().length === 0;
    switch (this.state) {
      case State.Text: {
        if (blank) {
          this.finishCue();
          this.state = State.Between;
          this.blankLines = 1;
          return;
        }
        const timing = TIMING.exec(line);
        if (timing) {
          // No blank line before the next cue: its sequence number, if any, is the last line read.
          let sequence: number | null = null;
          if (this.text.length > 0 && /^\s*\d+\s*$/.test(this.text[this.text.length - 1])) sequence = Number(this.text.pop());
          this.finishCue();
          this.startCue(timing, sequence);
          return;
        }
        this.text.push(line);
        return;
      }
      case State.Skipping:
        if (blank) {
          this.state = State.Between;
          this.blankLines = 1;
        }
        else if (TIMING.test(line)) {
          this.state = State.Between;
          this.feed(raw);
        }
        return;
      case State.Between: {
        if (blank) {
          this.blankLines++;
          return;
        }
        const timing = TIMING.exec(line);
        if (timing) {
          this.startCue(timing, this.pendingSequence);
          this.pendingSequence = null;
          return;
        }
        if (this.pendingSequence === null && /^\s*\d+\s*$/.test(line)) {
          this.pendingSequence = Number(line.trim());
          this.pendingSequenceLine = this.lineNumber;
          return;
        }
        this.sink.skipped(this.pendingSequence !== null ? this.pendingSequenceLine : this.lineNumber, this.pendingSequence !== null ? String(this.pendingSequence) : line);
        this.pendingSequence = null;
        this.state = State.Skipping;
        return;
      }
    }
  }

  private startCue(timing: RegExpExecArray, sequence: number | null): void {
    this.state = State.Text;
    this.sequence = sequence !== null && Number.isSafeInteger(sequence) ? sequence : null;
    this.startMs = milliseconds(timing[2], timing[3], timing[4], timing[5]);
    this.endMs = milliseconds(timing[7], timing[8], timing[9], timing[10]);
    this.writtenStart = timing[1];
    this.writtenEnd = this.endMs < this.startMs ? timing[6] : null;
    this.coordinates = timing[11] ?? '';
    this.nonstandard = !STANDARD_TIMING.test(timing.input);
    this.cueLine = this.lineNumber;
    this.text = [];
    this.cueBlankLines = this.blankLines;
    this.blankLines = 0;
  }

  private finishCue(): void {
    this.sink.cue({
      sequence: this.sequence,
      startMs: this.startMs,
      endMs: this.endMs,
      coordinates: this.coordinates,
      text: this.text.join('\n'),
      line: this.cueLine,
      writtenEnd: this.writtenEnd,
      writtenStart: this.writtenStart,
      nonstandard: this.nonstandard,
      blankLinesBefore: this.cueBlankLines,
    });
    this.text = [];
  }
}

/** Fractions are decimal: `,5` is 500 ms, `,04` is 40 ms, `,040` is 40 ms. */
function milliseconds(hours: string | undefined, minutes: string, seconds: string, fraction: string | undefined): number {
  const ms = fraction === undefined ? 0 : Number(fraction.padEnd(3, '0'));
  return ((Number(hours ?? 0) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000 + ms;
}

/** `HH:MM:SS,mmm`: WebVTT's timestamp with SubRip's comma. */
export function formatSrtTimestamp(ms: number): string {
  return formatTimestamp(ms).replace('.', ',');
}

/** A timestamp as the reader accepts it, in milliseconds, or null. */
export function parseSrtTimestamp(text: string): number | null {
  const match = /^\s*(?:(\d+):)?(\d{1,2}):(\d{1,2})(?:[,.:](\d{1,3}))?\s*$/.exec(text);
  return match ? milliseconds(match[1], match[2], match[3], match[4]) : null;
}

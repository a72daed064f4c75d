/**
 * YouTube's SBV caption format, fed line by line: a timing line `0:00:01.000,0:00:03.500`
 * (hours, minutes, seconds and milliseconds of the start and the end, a comma between), the
 * caption's lines, a blank line. As the SRT reader does, a timing line also ends a caption that
 * has no blank line after it, and a block without a timing line is skipped and counted.
 */
export interface SbvCue {
  readonly startMs: number;
  readonly endMs: number;
  readonly text: string;
  /** The line of the timing line. */
  readonly line: number;
  readonly writtenStart: string;
  readonly writtenEnd: string;
  /** Whether a time is not written `h:mm:ss.mmm`. */
  readonly nonstandard: boolean;
}

export interface SbvSink {
  cue(cue: SbvCue): void;
  skipped(line: number, firstLine: string): void;
}

const TIMING = /^\s*((\d+):(\d{1,2}):(\d{1,2})(?:\.(\d{1,3}))?)\s*,\s*((\d+):(\d{1,2}):(\d{1,2})(?:\.(\d{1,3}))?)\s*$/;
const STANDARD = /^\s*\d+:\d\d:\d\d\.\d{3},\d+:\d\d:\d\d\.\d{3}\s*$/;

export class SbvParser {
  private lineNumber = 0;
  private inCue = false;
  private skipping = false;
  private timing: RegExpExecArray | null = null;
  private cueLine = 0;
  private text: string[] = [];

  constructor(private readonly sink: SbvSink) {}

  push(lines: readonly string[]): void {
    for (let i = 0; i < lines.length; i++) {
      this.lineNumber++;
      const raw = lines[i];
      this.feed(this.lineNumber === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw);
    }
  }

  end(): void {
    if (this.inCue) this.finishCue();
  }

  private feed(line: string): void {
    const timing = TIMING.exec(line);
    if (timing !== null) {
      if (this.inCue) this.finishCue();
      this.inCue = true;
      this.skipping = false;
      this.timing = timing;
      this.cueLine = this.lineNumber;
      return;
    }
    const blank = line.trim().length === 0;
    if (this.inCue) {
      if (blank) this.finishCue();
      else this.text.push(line);
      return;
    }
    if (blank) this.skipping = false;
    else if (!this.skipping) {
      this.sink.skipped(this.lineNumber, line);
      this.skipping = true;
    }
  }

  private finishCue(): void {
    const timing = this.timing as RegExpExecArray;
    this.sink.cue({
      startMs: milliseconds(timing[2], timing[3], timing[4], timing[5]),
      endMs: milliseconds(timing[7], timing[8], timing[9], timing[10]),
      text: this.text.join('\n'),
      line: this.cueLine,
      writtenStart: timing[1],
      writtenEnd: timing[6],
      nonstandard: !STANDARD.test(timing.input),
    });
    this.inCue = false;
    this.text = [];
  }
}

function milliseconds(hours: string, minutes: string, seconds: string, fraction: string | undefined): number {
  return ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000 + (fraction === undefined ? 0 : Number(fraction.padEnd(3, '0')));
}

/** Milliseconds as SBV writes them: `h:mm:ss.mmm`. */
export function formatSbvTime(ms: number): string {
  const hours = Math.floor(ms / 3600000);
  const minutes = Math.floor(ms / 60000) % 60;
  const seconds = Math.floor(ms / 1000) % 60;
  return `${hours}:${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}`;
}

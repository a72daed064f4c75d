import type { Finding, FindingSeverity } from './finding.js';

/**
 * The findings a cue reader (WebVTT, SRT) reports, one per place, each with its line, so that a
 * CI annotation lands on the line to fix. A file broken the same way a million times would print a
 * million lines, so each code reports its first PER_CODE places and then one summary of how many
 * more there were (at the end of the file, on the first place's line).
 */
const PER_CODE = 20;

export class CueFindings {
  private readonly counts = new Map<string, { count: number; first: number; severity: FindingSeverity; what: string }>();
  private previousStartMs = -1;
  private previousLine = 0;

  constructor(
    private readonly file: string,
    private readonly report: (finding: Finding) => void,
  ) {}

  /** Checks a cue's times: an end before the start is an error, a start before the previous cue's a warning. */
  cue(line: number, startMs: number, endMs: number, start: string, end: string): void {
    if (endMs < startMs) {
      this.add('cue_end_before_start', 'error', line, 'cues whose end precedes their start', `cue ends at ${end}, before its start ${start}; read as a point at its start`);
    }
    if (startMs < this.previousStartMs) {
      this.add('cues_out_of_order', 'warning', line, 'cues that start before the cue above them', `cue starts at ${start}, before the cue at line ${this.previousLine}; cues must be in order of their start times`);
    }
    this.previousStartMs = startMs;
    this.previousLine = line;
  }

  /** A block the reader could not use and left out. */
  dropped(line: number, message: string): void {
    this.add('block_dropped', 'warning', line, 'blocks dropped', message);
  }

  /** A timestamp read although it is not in the format's standard form. */
  nonstandardTimestamp(line: number, message: string): void {
    this.add('timestamp_nonstandard', 'warning', line, 'timing lines with a non-standard timestamp', message);
  }

  /** A NUL character the format's parsing rules replace by U+FFFD (WebVTT): the text changes, so it is said. */
  nulReplaced(line: number): void {
    this.add('nul_replaced', 'warning', line, 'NUL characters replaced', 'a NUL character (U+0000), replaced by U+FFFD as the WebVTT parsing algorithm requires (players show it so)');
  }

  /** Any other finding of a cue reader, counted and capped per code like the ones above; `what` names many of them. */
  note(code: string, severity: FindingSeverity, line: number, what: string, message: string): void {
    this.add(code, severity, line, what, message);
  }

  /** Reports how many of each code were left unreported. Call once, at the end of the file. */
  finish(): void {
    for (const [code, { count, first, severity, what }] of this.counts) {
      if (count > PER_CODE) {
        this.report({ code, severity, file: this.file, location: { line: first, column: 1 }, message: `${count - PER_CODE} more ${what} than the ${PER_CODE} reported (the first at this line)` });
      }
    }
  }

  private add(code: string, severity: FindingSeverity, line: number, what: string, message: string): void {
    let tally = this.counts.get(code);
    if (tally === undefined) {
      tally = { count: 0, first: line, severity, what };
      this.counts.set(code, tally);
    }
    if (++tally.count <= PER_CODE) this.report({ code, severity, file: this.file, location: { line, column: 1 }, message });
  }
}

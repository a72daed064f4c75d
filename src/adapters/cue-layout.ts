/**
 * How the cues of a subtitle file (SRT, WebVTT) are laid out where the format leaves a choice:
 * the blank lines between them, and in WebVTT whether a timestamp under an hour is written with
 * its hours (`00:01:02.000`) or without (`01:02.000`). The file's usual choice goes in its layout
 * (text-layout.ts); a cue that differs keeps its own in its body (`blank_lines_before`,
 * `written_hours`), so the few odd cues of a file come back as they were and the rest carry
 * nothing. These fields say how a cue was written, not what it says: the writers of other
 * formats ignore them and never report them lost.
 */
export const CUE_LAYOUT_FIELDS: readonly string[] = ['blank_lines_before', 'written_hours'];

/** Which of a cue's two timestamps are written with their hours. */
export type WrittenHours = 'both' | 'none' | 'start' | 'end';

/** A file's habit: hours always, or only when they are not zero. */
export type HoursStyle = 'always' | 'when-needed';

const HOUR_MS = 3_600_000;

/** The value most of the cues have (the first one on a tie), or `fallback` for none. */
export function mostCommon<T>(values: readonly T[], fallback: T): T {
  const counts = new Map<T, number>();
  let best = fallback;
  let bestCount = 0;
  for (const value of values) {
    const count = (counts.get(value) ?? 0) + 1;
    counts.set(value, count);
    if (count > bestCount) [best, bestCount] = [value, count];
  }
  return best;
}

/** The hours a style writes for a cue (a time of an hour or more always has them). */
export function hoursByStyle(style: HoursStyle, startMs: number, endMs: number): WrittenHours {
  if (style === 'always') return 'both';
  const start = startMs >= HOUR_MS;
  const end = endMs >= HOUR_MS;
  return start ? (end ? 'both' : 'start') : end ? 'end' : 'none';
}

/** The style most of the cues follow (`always` on a tie: annot's own). */
export function usualHoursStyle(cues: ReadonlyArray<{ hours: WrittenHours; startMs: number; endMs: number }>): HoursStyle {
  let always = 0;
  let whenNeeded = 0;
  for (const cue of cues) {
    if (cue.hours === hoursByStyle('always', cue.startMs, cue.endMs)) always++;
    if (cue.hours === hoursByStyle('when-needed', cue.startMs, cue.endMs)) whenNeeded++;
  }
  return whenNeeded > always ? 'when-needed' : 'always';
}

/** A body's own `written_hours`, if it is one. */
export function writtenHoursOf(body: Readonly<Record<string, unknown>>): WrittenHours | null {
  const value = body.written_hours;
  return value === 'both' || value === 'none' || value === 'start' || value === 'end' ? value : null;
}

/** A body's own `blank_lines_before`, if it is one. */
export function blankLinesOf(body: Readonly<Record<string, unknown>>): number | null {
  const value = body.blank_lines_before;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= 1000 ? value : null;
}

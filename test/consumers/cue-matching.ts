/**
 * Comparing a consumer's reading of a file with the content it must show. Times are compared
 * within the precision the written format has (a WebVTT time is whole milliseconds, an ASS one
 * centiseconds: a finer time is rounded on the way out), so each shown cue is paired with a wanted
 * one of the same text (and voice) whose times are that close; what is left unpaired on either
 * side is the difference. Cues that start together are in no order that matters.
 */
export interface TimedText {
  /** Milliseconds. */
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly voice?: string | null;
  /** The source wrote its end before its start: a consumer's end for it is not compared. */
  readonly endBeforeStart?: boolean;
}

export interface CueDifference {
  /** Cues the content has and the consumer does not show. */
  readonly missing: TimedText[];
  /** Cues the consumer shows that the content does not have. */
  readonly extra: TimedText[];
}

export function cueDifference(shown: readonly TimedText[], wanted: readonly TimedText[], precisionMs: number): CueDifference {
  const close = (a: number, b: number): boolean => Math.abs(a - b) <= precisionMs + 1e-6;
  const unpaired = [...shown];
  const missing: TimedText[] = [];
  for (const cue of wanted) {
    const at = unpaired.findIndex(
      (candidate) => candidate.text === cue.text && (candidate.voice ?? null) === (cue.voice ?? null) && close(candidate.start, cue.start) && (cue.endBeforeStart === true || close(candidate.end, cue.end)),
    );
    if (at === -1) missing.push(cue);
    else unpaired.splice(at, 1);
  }
  return { missing, extra: unpaired };
}

/** No difference, as a value jest prints in full when it is not. */
export const NO_DIFFERENCE: CueDifference = { missing: [], extra: [] };

/**
 * A beat with an action and no line has nothing to speak: render_beat stores and returns a
 * result with empty urls (the description's rule), and the commands report it as skipped with
 * this reason rather than as rendered.
 */
export const ACTION_ONLY_SKIP = 'action only (no line): nothing to speak';

export function isActionOnly(beat: { line: string; action: string }): boolean {
  return beat.line === '' && beat.action !== '';
}

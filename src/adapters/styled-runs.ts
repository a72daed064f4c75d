/**
 * Cue text as runs of characters with the three styles every subtitle format can say (italic,
 * bold, underline): the common ground a writer meets a reader on when the two formats carry
 * styling differently (ASS override tags, TTML spans, SRT and WebVTT tags). Line breaks are LF
 * inside a run's text. See cue-runs.ts for the runs of a body, by its format.
 */
export interface StyledRun {
  readonly text: string;
  readonly italic: boolean;
  readonly bold: boolean;
  readonly underline: boolean;
}

export const PLAIN = Object.freeze({ italic: false, bold: false, underline: false });

export function plainRuns(text: string): StyledRun[] {
  return text.length === 0 ? [] : [{ text, ...PLAIN }];
}

/** The runs' characters, styling left out. */
export function runsText(runs: readonly StyledRun[]): string {
  if (runs.length === 1) return runs[0].text;
  let text = '';
  for (const run of runs) text += run.text;
  return text;
}

/** Whether any run is styled. */
export function anyStyled(runs: readonly StyledRun[]): boolean {
  for (const run of runs) if (run.italic || run.bold || run.underline) return true;
  return false;
}

/** Adjacent runs of the same style as one, empty runs dropped. */
export function mergedRuns(runs: readonly StyledRun[]): StyledRun[] {
  const merged: StyledRun[] = [];
  for (const run of runs) {
    if (run.text.length === 0) continue;
    const last = merged[merged.length - 1];
    if (last && sameStyle(last, run)) merged[merged.length - 1] = { ...last, text: last.text + run.text };
    else merged.push(run);
  }
  return merged;
}

/**
 * The runs as SubRip or WebVTT text: `<b>`, `<i>` and `<u>` around the styled runs, opened in that
 * order and closed in the reverse one so that they nest; `escape` makes each run's text what the
 * format reads back as that text (WebVTT's character references, SubRip's word joiners).
 */
export function taggedText(runs: readonly StyledRun[], escape: (text: string) => string): string {
  let out = '';
  // Adjacent runs of one style are written as one (a tag pair around both).
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i];
    let text = run.text;
    while (i + 1 < runs.length && sameStyle(runs[i + 1], run)) text += runs[++i].text;
    if (text.length === 0) continue;
    text = escape(text);
    const open = (run.bold ? '<b>' : '') + (run.italic ? '<i>' : '') + (run.underline ? '<u>' : '');
    if (open.length === 0) {
      out += text;
      continue;
    }
    const close = (run.underline ? '</u>' : '') + (run.italic ? '</i>' : '') + (run.bold ? '</b>' : '');
    // A tag pair does not span a line break: players and editors handle one line at a time best.
    if (text.indexOf('\n') === -1) out += open + text + close;
    else out += text.split('\n').map((line) => (line.length > 0 ? open + line + close : line)).join('\n');
  }
  return out;
}

function sameStyle(a: StyledRun, b: StyledRun): boolean {
  return a.italic === b.italic && a.bold === b.bold && a.underline === b.underline;
}

import { add, compare, max, min, ZERO, type Seconds } from './exact-seconds.js';
import type { TtElement } from './ttml-names.js';
import { parseTime, type TimingParameters } from './ttml-time.js';

/**
 * The timing pass: every content element's and text's active interval in absolute media time
 * (TTML2 section 12, as ttconv's reader computes it). In two steps:
 *
 * desired times, bottom-up: an element begins at its sync base plus its `begin` (the sync base
 * is its parent's begin in a `par` container, the end of its previous sibling in a `seq`); it
 * ends at `end` (from the same sync base) or `begin + dur`, the earlier of the two when both are
 * given, else when its content does (in a `par`, the last child's end, indefinite when any child
 * or any text has no end; in a `seq`, its last child's end; an empty element at its begin).
 * Text in a `par` runs from its parent's begin without end; text in a `seq` never shows.
 *
 * active intervals, top-down: each interval cut to its parent's (par time containment); an
 * element that ends before it begins, or after its parent ended, is not active.
 */
export interface TimedNode {
  /** The element, or null for text. */
  readonly element: TtElement | null;
  readonly text: string;
  readonly begin: Seconds;
  /** null: no end (indefinite). */
  readonly end: Seconds | null;
  readonly active: boolean;
  /**
   * An element timed to no duration (its begin is its end) within its parent's time: never shown,
   * and no more than a point in time, which is how annot writes a point annotation (see the reader).
   */
  readonly point: boolean;
  /** Whether the element says its own timing (begin, end or dur). */
  readonly timed: boolean;
  readonly children: readonly TimedNode[];
}

/** What a time attribute the reader could not use, or read outside the grammar, is reported as. */
export type TimingProblem = (element: TtElement, attribute: string, message: string, severity: 'warning' | 'error') => void;

export interface Desired {
  element: TtElement | null;
  text: string;
  begin: Seconds | null;
  end: Seconds | null;
  timed: boolean;
  children: Desired[];
}

const TIMED_ELEMENTS = new Set(['body', 'div', 'p', 'span', 'br', 'set']);
/** Elements whose text is content (the others hold only elements, and white space between them). */
const MIXED = new Set(['p', 'span']);

/** How times are read: the document's parameters, where to report, and whether times are absolute (see the reader). */
export interface TimingRules {
  readonly parameters: TimingParameters;
  readonly problem: TimingProblem;
  /**
   * Begin and end read as times of the media, not offsets from the parent's begin, as iTunes
   * lyrics write them (pysubs2's ignore_par_time_offset); the reader decides when.
   */
  readonly absolute: boolean;
}

/** An element's begin, end and dur attributes as read (null when absent or unreadable, reported). */
export function explicitTimes(element: TtElement, rules: TimingRules): { begin: Seconds | null; end: Seconds | null; dur: Seconds | null } {
  const time = (name: string): Seconds | null => {
    const written = element.attributes[name];
    if (written === undefined) return null;
    const reading = parseTime(written, rules.parameters);
    if ('error' in reading) {
      rules.problem(element, name, `${name}="${written}" is not ${reading.error}; ignored`, 'warning');
      return null;
    }
    if (reading.nonstandard !== null) rules.problem(element, name, `${name}="${written}" is ${reading.nonstandard}`, 'warning');
    return reading.seconds;
  };
  return { begin: time('begin'), end: time('end'), dur: time('dur') };
}

/** Where an element begins, and where its written end puts it, from its sync base (null: unresolved). */
export function desiredInterval(times: { begin: Seconds | null; end: Seconds | null; dur: Seconds | null }, syncBase: Seconds | null, rules: TimingRules): { begin: Seconds | null; explicitEnd: Seconds | null } {
  if (syncBase === null) return { begin: null, explicitEnd: null };
  // Read as absolute, a time is its own sync base: the parent's begin counts only when none is written.
  const base = rules.absolute ? ZERO : syncBase;
  const begin = rules.absolute && times.begin !== null ? times.begin : add(syncBase, times.begin ?? ZERO);
  let explicitEnd: Seconds | null = null;
  if (times.end !== null && times.dur !== null) explicitEnd = min(add(begin, times.dur), add(base, times.end));
  else if (times.dur !== null) explicitEnd = add(begin, times.dur);
  else if (times.end !== null) explicitEnd = add(base, times.end);
  return { begin, explicitEnd };
}

/** The desired times of an element (a paragraph) and of everything in it, from its sync base. */
export function desiredTimes(element: TtElement, syncBase: Seconds | null, parentKind: 'par' | 'seq', rules: TimingRules): Desired {
  const times = explicitTimes(element, rules);
  const { begin, explicitEnd } = desiredInterval(times, syncBase, rules);
  const kind = element.attributes.timeContainer === 'seq' ? 'seq' : 'par';
  const children: Desired[] = [];
  // The implicit end: an empty element ends where it begins; br and set last as long as their parent in a par.
  let implicitEnd: Seconds | null = (element.name === 'br' || element.name === 'set') && parentKind === 'par' ? null : begin;
  let cursor = begin;
  for (const child of element.content) {
    if (typeof child === 'string') {
      if (!MIXED.has(element.name)) continue;
      children.push({ element: null, text: child, begin: kind === 'par' ? begin : cursor, end: kind === 'par' ? null : cursor, timed: false, children: [] });
      if (kind === 'par') implicitEnd = null;
      continue;
    }
    if (!TIMED_ELEMENTS.has(child.name)) {
      children.push({ element: child, text: '', begin, end: begin, timed: false, children: [] });
      continue;
    }
    const timed = desiredTimes(child, kind === 'par' ? begin : cursor, kind, rules);
    children.push(timed);
    if (kind === 'seq') {
      cursor = timed.end;
      implicitEnd = timed.end;
    } else implicitEnd = implicitEnd === null || timed.end === null ? null : max(implicitEnd, timed.end);
  }
  const end = begin === null ? null : (explicitEnd ?? implicitEnd);
  return { element, text: '', begin, end, timed: times.begin !== null || times.end !== null || times.dur !== null, children };
}

/**
 * The active intervals of a desired tree within its parent's window (par time containment), and
 * the latest time shown, kept in `last`.
 */
export function activeIntervals(node: Desired, parentBegin: Seconds, parentEnd: Seconds | null, parentActive: boolean, last: { time: Seconds }): TimedNode {
  const begin = node.begin === null ? parentBegin : max(node.begin, parentBegin);
  const end = node.end === null ? parentEnd : parentEnd === null ? node.end : min(node.end, parentEnd);
  const active = parentActive && node.begin !== null && (end === null || compare(begin, end) < 0);
  const point = !active && parentActive && node.timed && node.begin !== null && node.end !== null && compare(node.begin, node.end) === 0 && compare(node.begin, parentBegin) >= 0 && (parentEnd === null || compare(node.begin, parentEnd) <= 0);
  if (active || point) {
    if (compare(begin, last.time) > 0) last.time = begin;
    if (end !== null && compare(end, last.time) > 0) last.time = end;
  }
  // A container that lasts no time only because its content does (points) still holds that content.
  const holdsPoints = !active && !point && parentActive && !node.timed && node.begin !== null && end !== null && compare(begin, end) === 0;
  // The content of a point is timed as the point itself: it is there, for no time.
  const children = node.children.map((child) => activeIntervals(child, begin, point ? null : end, active || point || holdsPoints, last));
  return { element: node.element, text: node.text, begin, end: point ? begin : end, active, point, timed: node.timed, children };
}

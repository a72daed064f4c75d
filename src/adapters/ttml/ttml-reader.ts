import { type Annotation, makeAnnotation, mediaRef } from '../../model/annotation.js';
import { makeProvenance } from '../../model/provenance.js';
import { makeTier, type Tier } from '../../model/tier.js';
import { TimeInterval } from '../../time/time-interval.js';
import type { LoadOptions } from '../adapter.js';
import { scanXml, type StreamedElements, type XmlElement } from '../eaf/xml-scan.js';
import { FormatParseError, type SourceLocation } from '../errors.js';
import type { Finding, FindingSeverity } from '../finding.js';
import { decimalRateFor, ImportClock } from '../import-clock.js';
import { importProvenance } from '../import-provenance.js';
import { compare, ZERO, type Seconds } from './exact-seconds.js';
import { ContainerTiming } from './ttml-containers.js';
import { CueColumns } from './ttml-cue-columns.js';
import { readHead, type TtmlHead } from './ttml-head.js';
import { DEFAULT_TTML_ASSET, DEFAULT_TTML_TIER, TTML_CUE_SCHEMA, TTML_HEAD_META, TTML_ROOT_META } from './ttml-model.js';
import { documentScope, elementName, resolveIn, scopeIn, TT, type TtElement } from './ttml-names.js';
import { timingParameters } from './ttml-parameters.js';
import { inheritedAt, NOTHING_INHERITED, paragraphCue, type Inherited, type ParagraphContext } from './ttml-paragraphs.js';
import { activeIntervals, desiredTimes, type TimedNode, type TimingRules } from './ttml-timing.js';

/**
 * Reads a TTML document (TTML1, TTML2, IMSC 1.x, DFXP) in passes over one explicit state, driven
 * by one scan of the text (the EAF reader's XML scanner, so the same hostile-input rules: no
 * entity expansion, a depth limit) that hands each paragraph over at its end tag, so that a
 * million paragraphs never sit in memory as elements:
 * - root: at the `tt` start tag, its names (namespaces resolved) and timing parameters;
 * - head: at `</head>`, the agents, styling and layout kept (ttml-head.ts);
 * - containers: at each `body` and `div` start and end tag, their timing (ttml-containers.ts) and
 *   what they say for their paragraphs;
 * - paragraph: at each `</p>`, its exact timing and its cue (ttml-timing.ts, ttml-paragraphs.ts),
 *   kept as columns (ttml-cue-columns.ts);
 * - finish: the cues without end, made again now that the document's last time is known.
 * iTunes lyrics write nested times as media times: when a first scan leaves paragraphs unshown
 * that a second, reading times so, shows, the second is kept.
 */
export interface TtmlReadState {
  readonly file: string;
  /** The source text: let go once the scans are done. */
  text: string;
  rules: TimingRules;
  readonly findings: FindingBuffer;
  root: TtElement | null;
  head: TtmlHead;
  containers: ContainerTiming | null;
  readonly inherited: Inherited[];
  readonly last: { time: Seconds };
  hidden: number;
  readonly cues: CueColumns;
  /** Cues without end (their paragraph's timed tree kept until the end of the document). */
  readonly open: Array<{ index: number; node: TimedNode; element: TtElement; inherited: Inherited }>;
  /** Line starts, built the first time a finding needs a line. */
  lineStarts: number[] | null;
  /** The line of each cue's paragraph (by cue index): where a refusal of its annotation is named. */
  readonly cueLines: number[];
  /** How far the paragraphs' lines are counted: newlines before `offset` make `line`. */
  readonly counted: { offset: number; line: number };
}

/** Findings of one scan, at most 20 per code (and how many more), reported only for the scan kept. */
class FindingBuffer {
  readonly kept: Finding[] = [];
  private readonly counts = new Map<string, { count: number; first: Finding }>();

  add(finding: Finding): void {
    const tally = this.counts.get(finding.code) ?? { count: 0, first: finding };
    this.counts.set(finding.code, tally);
    if (++tally.count <= 20) this.kept.push(finding);
  }

  flush(report: LoadOptions['report']): void {
    for (const finding of this.kept) report(finding);
    for (const [code, { count, first }] of this.counts) {
      if (count > 20) report({ ...first, code, message: `${count - 20} more of these than the 20 reported (the first at this line)` });
    }
  }
}

export function readTtml(text: string, file: string, report: LoadOptions['report']): TtmlReadState {
  let state = scanDocument(text, file, false);
  if (state.hidden > 0) {
    const absolute = scanDocument(text, file, true);
    if (absolute.hidden < state.hidden) {
      note(absolute, 0, 'times_absolute', 'warning', `nested begin and end times read as media times, not offsets from their parent's begin: read as offsets, ${state.hidden} paragraph${state.hidden === 1 ? '' : 's'} would never show (iTunes lyrics write times this way)`);
      state = absolute;
    }
  }
  state.findings.flush(report);
  state.text = '';
  return state;
}

/** One scan of the document, every pass run as its elements are met. */
export function scanDocument(text: string, file: string, absolute: boolean): TtmlReadState {
  const findings = new FindingBuffer();
  const state: TtmlReadState = {
    file,
    text,
    rules: { parameters: timingParameters({}, () => undefined), problem: () => undefined, absolute },
    findings,
    root: null,
    head: readHead(undefined),
    containers: null,
    inherited: [NOTHING_INHERITED],
    last: { time: ZERO },
    hidden: 0,
    cues: new CueColumns(),
    open: [],
    lineStarts: null,
    cueLines: [],
    counted: { offset: 0, line: 1 },
  };
  scanXml(text, file, new DocumentScan(state), { mixedContent: true, rootElement: 'tt' });
  finishPass(state);
  return state;
}

/** The scan's hand-over: which elements are taken whole, and where each goes. */
class DocumentScan implements StreamedElements {
  /** Resolved names and scopes of the open elements, by depth (deeper entries are stale). */
  private readonly names: string[] = [];
  private readonly scopes: Array<ReadonlyMap<string, string>> = [];
  private readonly taken = new Map<XmlElement, { name: string; outer: ReadonlyMap<string, string> }>();

  constructor(private readonly state: TtmlReadState) {}

  takes(open: readonly XmlElement[], element: XmlElement): boolean {
    const depth = open.length;
    const outer = depth === 0 ? documentScope(element.name === 'tt' && element.attributes.xmlns === undefined) : this.scopes[depth - 1];
    const scope = scopeIn(element, outer);
    const name = elementName(element, scope);
    this.names[depth] = name;
    this.scopes[depth] = scope;
    if (depth === 0) {
      rootPass(this.state, element, outer);
      return false;
    }
    const parent = this.names[depth - 1];
    const container = parent === 'body' || parent === 'div';
    if (!((name === 'head' || name === 'body') && parent === 'tt') && !(container && (name === 'div' || name === 'p'))) return false;
    this.taken.set(element, { name, outer });
    if (name === 'body' || name === 'div') containerOpenPass(this.state, resolveIn(element, outer));
    return true;
  }

  take(element: XmlElement): void {
    const taken = this.taken.get(element);
    if (taken === undefined) return;
    this.taken.delete(element);
    if (taken.name === 'p') paragraphPass(this.state, resolveIn(element, taken.outer));
    else if (taken.name === 'head') this.state.head = readHead(resolveIn(element, taken.outer));
    else containerClosePass(this.state);
  }
}

/** root: the `tt` element, and the timing parameters it states. */
export function rootPass(state: TtmlReadState, element: XmlElement, outer: ReadonlyMap<string, string>): void {
  const root = resolveIn({ ...element, children: [], content: [] }, outer);
  if (root.name !== 'tt') {
    throw new FormatParseError(state.file, { ...lineOf(state, element.offset), path: element.name }, `expected a TTML document: root element <tt> in the namespace ${TT}, found <${element.name}>`);
  }
  if (element.attributes.xmlns === undefined && !element.name.includes(':')) note(state, element.offset, 'namespace_missing', 'warning', `<tt> declares no namespace; read as TTML (xmlns="${TT}")`);
  state.root = root;
  const parameters = timingParameters(root.attributes, (_attribute, message) => note(state, element.offset, 'parameter_invalid', 'warning', message));
  const rules: TimingRules = {
    parameters,
    absolute: state.rules.absolute,
    problem: (at, _attribute, message, severity) => note(state, at.offset, /is not a time|not a media time/.test(message) ? 'time_invalid' : 'timestamp_nonstandard', severity, message),
  };
  state.rules = rules;
  state.containers = new ContainerTiming(rules, state.last);
}

/** containers: a `body` or `div` start tag, and its end tag. */
export function containerOpenPass(state: TtmlReadState, element: TtElement): void {
  state.containers?.open(element);
  state.inherited.push(inheritedAt(state.inherited[state.inherited.length - 1], element, false));
}

export function containerClosePass(state: TtmlReadState): void {
  state.containers?.close();
  state.inherited.pop();
}

/** paragraph: a `</p>`: its timing, and its cue, or a warning that it is never shown. */
export function paragraphPass(state: TtmlReadState, element: TtElement): void {
  const containers = state.containers as ContainerTiming;
  const base = containers.childBase();
  const desired = desiredTimes(element, base.syncBase, base.kind, state.rules);
  containers.childEnded(desired.end);
  const node = activeIntervals(desired, base.windowBegin, base.windowEnd, base.active, state.last);
  const inherited = inheritedAt(state.inherited[state.inherited.length - 1], element, true);
  const cue = node.active || node.point ? paragraphCue(node, element, inherited, paragraphContext(state, null)) : null;
  if (cue === null) {
    state.hidden++;
    const id = element.attributes['xml:id'];
    note(state, element.offset, 'paragraph_hidden', 'warning', `paragraph${id !== undefined ? ` "${id}"` : ''} is never shown (its time is outside its parent's, or nothing in it shows): not kept`);
    return;
  }
  const index = state.cues.push(cue.begin, cue.end, cue.body);
  state.cueLines[index] = paragraphLine(state, element.offset);
  if (cue.end === null) state.open.push({ index, node, element, inherited });
}

/** finish: cues without end end at the document's last time; what would begin only then is left out. */
export function finishPass(state: TtmlReadState): void {
  const context = paragraphContext(state, state.last.time);
  for (const { index, node, element, inherited } of state.open) {
    const cue = paragraphCue(node, element, inherited, context);
    if (cue === null) continue;
    const end = compare(state.last.time, cue.begin) > 0 ? state.last.time : cue.begin;
    note(state, element.offset, 'end_indefinite', 'warning', `paragraph has no end (neither it nor its ancestors say one): read as ending at ${Number(end.num) / Number(end.den)} s, the document's last time`);
    state.cues.replace(index, cue.begin, end, cue.body);
  }
  state.open.length = 0;
}

function paragraphContext(state: TtmlReadState, documentEnd: Seconds | null): ParagraphContext {
  return { agents: state.head.agents, lang: state.root?.attributes['xml:lang'], documentEnd };
}

/** Time parameters and profile claims: annot writes its own, so they are not kept. */
const NOT_KEPT_ON_ROOT = /^(?:xmlns(?::.*)?|ttp:(?:frameRate|frameRateMultiplier|subFrameRate|tickRate|timeBase|dropMode|clockMode|markerMode|profile|contentProfiles|processorProfiles))$/;

/** The document: one tier of the paragraphs as annotations (built as they are consumed), the head and root attributes as metadata. */
export function ttmlDocument(state: TtmlReadState, options: LoadOptions): TtmlDocument {
  const tier = options.tier ?? DEFAULT_TTML_TIER;
  const assetId = options.assetId ?? DEFAULT_TTML_ASSET;
  const provenance = makeProvenance(importProvenance('ttml', options));
  const cues = state.cues;
  const clock = new ImportClock(options.rate ?? exactRate(cues), options.strictTime ?? false);
  let at = 0;
  function* annotations(): Generator<Annotation> {
    for (let index = 0; index < cues.length; index++) {
      at = index;
      const begin = cues.begin(index);
      const end = cues.end(index) ?? begin;
      const interval = new TimeInterval(clock.seconds(`${begin.num}/${begin.den}`, state.file), clock.seconds(`${end.num}/${end.den}`, state.file));
      yield makeAnnotation({ tier, reference: mediaRef(assetId, interval), body: cues.body(index) as unknown as Record<string, unknown>, body_schema_uri: TTML_CUE_SCHEMA, provenance });
    }
  }
  const meta: Record<string, string> = {};
  if (state.head.markup.length > 0) meta[TTML_HEAD_META] = JSON.stringify(state.head.markup);
  const rootAttributes = Object.fromEntries(Object.entries(state.root?.attributes ?? {}).filter(([name]) => !NOT_KEPT_ON_ROOT.test(name)));
  if (Object.keys(rootAttributes).length > 0) meta[TTML_ROOT_META] = JSON.stringify(rootAttributes);
  return {
    tiers: [makeTier({ name: tier })],
    meta,
    annotations: annotations(),
    clock,
    file: state.file,
    placeOfAnnotation: () => ({ line: state.cueLines[at] }),
    placeOfMeta: (key) => ({ path: key === TTML_HEAD_META ? 'tt/head' : 'tt' }),
  };
}

/** The document ttmlDocument makes, with where its parts were read (see LoadedDocument). */
export interface TtmlDocument {
  tiers: Tier[];
  meta: Record<string, string>;
  annotations: Iterable<Annotation>;
  clock: ImportClock;
  file: string;
  placeOfAnnotation: () => SourceLocation;
  placeOfMeta: (key: string) => SourceLocation;
}

/**
 * The rate at which every time of the document is a whole number of ticks: milliseconds, or the
 * least common multiple of 1000 and the times' denominators (24000 for frames at 24000/1001,
 * the tick rate for ticks). Beyond what safe integers hold, the finest decimal rate that fits,
 * and the clock rounds (and counts) what it must.
 */
function exactRate(cues: CueColumns): number {
  const { denominator, largest } = cues;
  if (denominator <= 1_000_000_000_000n && (largest.num * denominator) / largest.den <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(denominator);
  return decimalRateFor([String(Number(largest.num) / Number(largest.den))], 1000);
}

function note(state: TtmlReadState, offset: number, code: string, severity: FindingSeverity, message: string): void {
  state.findings.add({ code, severity, file: state.file, location: lineOf(state, offset), message });
}

/** The line of a paragraph: paragraphs come in file order, so the newlines are counted once, from the one before. */
function paragraphLine(state: TtmlReadState, offset: number): number {
  const counted = state.counted;
  if (offset < counted.offset) return lineOf(state, offset).line;
  for (let at = state.text.indexOf('\n', counted.offset); at !== -1 && at < offset; at = state.text.indexOf('\n', at + 1)) counted.line++;
  counted.offset = offset;
  return counted.line;
}

function lineOf(state: TtmlReadState, offset: number): { line: number; column: number } {
  if (state.lineStarts === null) {
    const starts = [0];
    for (let at = state.text.indexOf('\n'); at !== -1; at = state.text.indexOf('\n', at + 1)) starts.push(at + 1);
    state.lineStarts = starts;
  }
  const starts = state.lineStarts;
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle] <= offset) low = middle;
    else high = middle - 1;
  }
  return { line: low + 1, column: offset - starts[low] + 1 };
}

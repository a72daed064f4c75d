import { createWriteStream } from 'node:fs';
import type { Annotation } from '../../model/annotation.js';
import type { AnnotationStore } from '../../store/store.js';
import { reduce } from '../../time/decimal.js';
import type { DumpOptions, DumpReport, FlatSelection } from '../adapter.js';
import { cueRunContext, cueRuns, type CueRunContext } from '../cue-runs.js';
import { selectFlatCues, SUB_MILLISECOND_PRECISION } from '../flat-cues.js';
import { plainCueText } from '../plain-cue-text.js';
import { mergedRuns, type StyledRun } from '../styled-runs.js';
import { BufferedTextWriter } from '../text-writer.js';
import { add, compare, lcm, type Seconds } from './exact-seconds.js';
import { markupText, normalizeSpace } from './ttml-markup.js';
import { ttmlRole } from './ttml-vocabulary.js';
import { TTML_CUE_SCHEMA, TTML_HEAD_META, TTML_ROOT_META, type MarkupElement, type MarkupNode } from './ttml-model.js';
import { attributesXml, escapeAttribute, escapeText, markupNames, markupTimes, markupXml, prefixesUsed, XmlNames } from './ttml-xml.js';

/**
 * Writes an IMSC 1.1 Text Profile document (ttp:contentProfiles says so) in three passes over one
 * state. collect: every time, speaker and name the paragraphs will need, and the head and root a
 * TTML source kept. allocate: a time format that writes every time exactly (clock times when all
 * are whole milliseconds, else ticks at a ttp:tickRate they all divide), an agent per speaker,
 * the namespaces to declare, a region when the source had none. emit: the document, one `<p>`
 * per cue, a TTML paragraph's content markup written back while its text still matches it.
 */
export async function dumpTtml(store: AnnotationStore, path: string, options: DumpOptions): Promise<DumpReport> {
  const selection = await selectFlatCues(store, options, 'ttml', { storeOrderFor: TTML_CUE_SCHEMA });
  return writeTtml(selection, (key) => store.getMeta(key), path);
}

export const IMSC_11_TEXT = 'http://www.w3.org/ns/ttml/profile/imsc1.1/text';
const DEFAULT_REGION = 'bottom';

interface WriteState {
  head: MarkupNode[] | null;
  root: Record<string, string>;
  /** The least common multiple of every time's denominator, while it stays small enough. */
  denominator: bigint;
  largest: Seconds;
  speakers: Set<string>;
  names: Set<string>;
  ids: Set<string>;
  /** allocate */
  tickRate: bigint | null;
  agents: Map<string, string>;
  xmlNames: XmlNames;
  regions: Set<string>;
  styles: Set<string>;
  /** Times that no safe tick rate holds exactly are rounded to milliseconds (how many written so). */
  rounding: boolean;
  lost: { ids: number; references: number; otherFields: number; noText: number; rounded: number };
}

export async function writeTtml(selection: FlatSelection, meta: (key: string) => Promise<string | null>, path: string): Promise<DumpReport> {
  const state = await collect(selection, meta);
  allocate(state);
  const runs = await cueRunContext(meta);
  const writer = new BufferedTextWriter(createWriteStream(path));
  try {
    let sent = writer.write(documentStart(state));
    if (sent) await sent;
    const written = new Set<string>();
    for await (const { annotation } of selection.cues()) {
      sent = writer.write(paragraphXml(annotation, state, runs, written));
      if (sent) await sent;
    }
    sent = writer.write('    </div>\n  </body>\n</tt>\n');
    if (sent) await sent;
    await writer.close();
  } catch (error) {
    await writer.destroy();
    throw error;
  }
  // Times are written exactly (ticks), or their rounding counted below: never as milliseconds lost.
  const dropped = selection.dropped.filter((entry) => entry.what !== SUB_MILLISECOND_PRECISION);
  const { ids, references, otherFields, noText, rounded } = state.lost;
  if (rounded > 0) dropped.push({ what: 'exact times (no safe tick rate holds them all; rounded to milliseconds)', count: rounded });
  if (otherFields > 0) dropped.push({ what: 'body fields TTML has no place for', count: otherFields });
  if (ids > 0) dropped.push({ what: 'paragraph ids already used in the document', count: ids });
  if (references > 0) dropped.push({ what: 'references to styles or regions the document does not declare', count: references });
  if (noText > 0) dropped.push({ what: 'bodies without a text (written as empty paragraphs)', count: noText });
  if (state.xmlNames.droppedAttributes > 0) dropped.push({ what: 'attributes TTML2 does not allow where they were (a ttm:role it does not define, a DFXP attribute in no namespace)', count: state.xmlNames.droppedAttributes });
  return { dropped };
}

/** collect: one pass over the cues and the kept metadata. */
async function collect(selection: FlatSelection, meta: (key: string) => Promise<string | null>): Promise<WriteState> {
  const state: WriteState = {
    head: parsedJson(await meta(TTML_HEAD_META), Array.isArray) as MarkupNode[] | null,
    root: (parsedJson(await meta(TTML_ROOT_META), isStringRecord) as Record<string, string> | null) ?? {},
    denominator: 1000n,
    largest: { num: 0n, den: 1n },
    speakers: new Set(),
    names: new Set(),
    ids: new Set(),
    tickRate: null,
    agents: new Map(),
    xmlNames: new XmlNames(),
    regions: new Set(),
    styles: new Set(),
    rounding: false,
    lost: { ids: 0, references: 0, otherFields: 0, noText: 0, rounded: 0 },
  };
  const time = (value: Seconds): void => {
    if (state.denominator <= 1_000_000_000_000n) state.denominator = lcm(state.denominator, value.den);
    if (compare(value, state.largest) > 0) state.largest = value;
  };
  for (const name of markupNames(state.head ?? [])) state.names.add(name);
  for (const name of Object.keys(state.root)) state.names.add(name);
  for await (const { annotation } of selection.cues()) {
    const { start, end } = (annotation.reference as { interval: { start: { v: number; r: number }; end: { v: number; r: number } } }).interval;
    const begin = reduce(BigInt(Math.max(0, start.v)), BigInt(start.r));
    time(begin);
    time(reduce(BigInt(end.v), BigInt(end.r)));
    const body = annotation.body as Readonly<Record<string, unknown>>;
    if (typeof body.speaker === 'string' && body.speaker.trim().length > 0) state.speakers.add(body.speaker.trim());
    if (annotation.body_schema_uri !== TTML_CUE_SCHEMA) continue;
    const markup = Array.isArray(body.markup) ? (body.markup as MarkupNode[]) : [];
    for (const relative of markupTimes(markup)) time(add(begin, relative));
    for (const name of markupNames(markup)) state.names.add(name);
    if (isStringRecord(body.styling)) for (const name of Object.keys(body.styling)) state.names.add(name);
  }
  return state;
}

/** allocate: time format, agents, namespaces, regions and styles. */
function allocate(state: WriteState): void {
  const fits = state.denominator <= 1_000_000_000_000n && (state.largest.num * state.denominator) / state.largest.den <= BigInt(Number.MAX_SAFE_INTEGER);
  // Whole milliseconds read best as clock times; anything finer is written in ticks, exactly.
  state.tickRate = state.denominator === 1000n || !fits ? null : state.denominator;
  state.rounding = !fits;
  const head = state.head ?? [];
  const known = new Map<string, string>();
  visitMarkup(head, (element) => {
    const id = element.attributes?.['xml:id'];
    if (id === undefined) return;
    state.ids.add(id);
    if (element.name === 'region') state.regions.add(id);
    if (element.name === 'style') state.styles.add(id);
    if (element.name === 'ttm:agent') known.set(agentNameOf(element) ?? id, id);
  });
  let next = 1;
  for (const speaker of state.speakers) {
    const existing = known.get(speaker);
    if (existing !== undefined) {
      state.agents.set(speaker, existing);
      continue;
    }
    while (state.ids.has(`speaker${next}`)) next++;
    state.agents.set(speaker, `speaker${next}`);
    state.ids.add(`speaker${next}`);
  }
  // A document from another format gets one region (documentStart); a TTML one keeps its layout as it was.
  if (state.head === null) state.regions.add(DEFAULT_REGION);
  for (const name of state.names) state.xmlNames.use(name);
}

function visitMarkup(nodes: readonly MarkupNode[], visit: (element: MarkupElement) => void): void {
  for (const node of nodes) {
    if (typeof node === 'string') continue;
    visit(node);
    visitMarkup(node.children ?? [], visit);
  }
}

function agentNameOf(agent: MarkupElement): string | null {
  const names = (agent.children ?? []).filter((child): child is MarkupElement => typeof child !== 'string' && child.name === 'ttm:name');
  const chosen = names.find((name) => name.attributes?.type === 'full') ?? names[0];
  const text = (chosen?.children ?? []).filter((child): child is string => typeof child === 'string').join('').trim().replace(/\s+/g, ' ');
  return text.length > 0 ? text : null;
}

/** emit: the XML declaration, the root, the head and the opening of the body. */
function documentStart(state: WriteState): string {
  const root: Record<string, string> = { 'xml:lang': '', ...state.root, 'ttp:contentProfiles': IMSC_11_TEXT };
  if (state.tickRate !== null) root['ttp:tickRate'] = String(state.tickRate);
  const used = prefixesUsed([...state.names, ...Object.keys(root), 'ttm:agent']);
  let xml = `<?xml version="1.0" encoding="UTF-8"?>\n<tt${state.xmlNames.declarations(used)}${attributesXml(root, state.xmlNames, 'tt')}>\n  <head>\n`;
  const head = [...(state.head ?? [])];
  const agents = [...state.agents].filter(([, id]) => !head.some((node) => hasAgent(node, id))).map(([name, id]): MarkupElement => ({ name: 'ttm:agent', attributes: { 'xml:id': id, type: 'person' }, children: [{ name: 'ttm:name', attributes: { type: 'full' }, children: [name] }] }));
  if (agents.length > 0) {
    const metadata = head.findIndex((node) => typeof node !== 'string' && node.name === 'metadata');
    if (metadata === -1) head.unshift({ name: 'metadata', children: agents });
    else head[metadata] = { ...(head[metadata] as MarkupElement), children: [...((head[metadata] as MarkupElement).children ?? []), ...agents] };
  }
  if (state.head === null) {
    // Subtitles at the bottom, centred, within the title-safe 80% of the picture.
    head.push({ name: 'layout', children: [{ name: 'region', attributes: { 'xml:id': DEFAULT_REGION, 'tts:origin': '10% 10%', 'tts:extent': '80% 80%', 'tts:displayAlign': 'after', 'tts:textAlign': 'center' } }] });
  }
  for (const node of head) xml += `    ${markupXml([node], state.xmlNames, (time) => timeExpression(time, state))}\n`;
  const region = state.head === null ? ` region="${DEFAULT_REGION}"` : '';
  return `${xml}  </head>\n  <body${region}>\n    <div>\n`;
}

function hasAgent(node: MarkupNode, id: string): boolean {
  if (typeof node === 'string') return false;
  if (node.name === 'ttm:agent' && node.attributes?.['xml:id'] === id) return true;
  return (node.children ?? []).some((child) => hasAgent(child, id));
}

/** emit: one paragraph. */
function paragraphXml(annotation: Annotation, state: WriteState, runs: CueRunContext, written: Set<string>): string {
  const body = annotation.body as Readonly<Record<string, unknown>>;
  const { start, end } = (annotation.reference as { interval: { start: { v: number; r: number }; end: { v: number; r: number } } }).interval;
  if (state.rounding) state.lost.rounded++;
  let attributes = ` begin="${timeExpression(reduce(BigInt(Math.max(0, start.v)), BigInt(start.r)), state)}" end="${timeExpression(reduce(BigInt(end.v), BigInt(end.r)), state)}"`;
  const text = plainCueText(annotation);
  if (text === null) state.lost.noText++;
  const fromTtml = annotation.body_schema_uri === TTML_CUE_SCHEMA;
  if (fromTtml) attributes += ttmlAttributes(body, state, written);
  else if (Object.keys(body).some((key) => !['text', 'label', 'value', 'speaker', 'sequence', 'id', 'style', 'raw', 'comment'].includes(key) && !(key === 'id' && body.id === ''))) state.lost.otherFields++;
  if (typeof body.speaker === 'string' && state.agents.has(body.speaker.trim())) attributes += ` ttm:agent="${escapeAttribute(state.agents.get(body.speaker.trim()) as string)}"`;
  const markup = fromTtml && Array.isArray(body.markup) ? (body.markup as MarkupNode[]) : null;
  const preserve = fromTtml && body.preserve_space === true;
  let content: string;
  if (markup !== null && text !== null && markupText(markup, preserve) === text) {
    if (preserve) attributes += ' xml:space="preserve"';
    content = markupXml(markup, state.xmlNames, (time) => timeExpression(time, state));
  } else {
    const styled = fromTtml ? null : cueRuns(annotation, runs);
    const plain = text ?? '';
    // White space TTML would collapse is kept by saying so.
    const keepSpace = preserve || normalizeSpace([{ text: plain.replaceAll('\n', ' '), hard: false }], false).map((piece) => piece.text).join('') !== plain.replaceAll('\n', ' ');
    if (keepSpace) attributes += ' xml:space="preserve"';
    content = styled === null ? linesXml(plain) : runsXml(styled);
  }
  return `      <p${attributes}>${content}</p>\n`;
}

/** What a TTML paragraph said about itself beyond its times and speaker, each reference checked against the head written. */
function ttmlAttributes(body: Readonly<Record<string, unknown>>, state: WriteState, written: Set<string>): string {
  let attributes = '';
  if (typeof body.id === 'string' && /^[A-Za-z_][\w.-]*$/.test(body.id)) {
    if (written.has(body.id) || state.ids.has(body.id)) state.lost.ids++;
    else {
      written.add(body.id);
      attributes += ` xml:id="${body.id}"`;
    }
  }
  if (typeof body.region === 'string') {
    if (state.regions.has(body.region)) attributes += ` region="${escapeAttribute(body.region)}"`;
    else state.lost.references++;
  }
  if (typeof body.style === 'string') {
    const ids = body.style.split(/\s+/).filter((id) => id.length > 0);
    const declared = ids.filter((id) => state.styles.has(id));
    if (declared.length < ids.length) state.lost.references++;
    if (declared.length > 0) attributes += ` style="${escapeAttribute(declared.join(' '))}"`;
  }
  if (typeof body.role === 'string') {
    const role = ttmlRole(body.role);
    if (role === null) state.xmlNames.droppedAttributes++;
    else attributes += ` ttm:role="${escapeAttribute(role)}"`;
  }
  if (typeof body.lang === 'string') attributes += ` xml:lang="${escapeAttribute(body.lang)}"`;
  if (isStringRecord(body.styling)) attributes += attributesXml(body.styling, state.xmlNames, 'p');
  return attributes;
}

function linesXml(text: string): string {
  return text.split('\n').map(escapeText).join('<br/>');
}

/** Styled runs as spans: italic, bold and underline as tts:fontStyle, tts:fontWeight and tts:textDecoration. */
function runsXml(runs: readonly StyledRun[]): string {
  let xml = '';
  for (const run of mergedRuns(runs)) {
    let styles = '';
    if (run.italic) styles += ' tts:fontStyle="italic"';
    if (run.bold) styles += ' tts:fontWeight="bold"';
    if (run.underline) styles += ' tts:textDecoration="underline"';
    xml += styles.length === 0 ? linesXml(run.text) : `<span${styles}>${linesXml(run.text)}</span>`;
  }
  return xml;
}

/** A time as the document writes them: `HH:MM:SS.mmm`, or ticks (`90090t`) at the document's tick rate. */
function timeExpression(time: Seconds, state: WriteState): string {
  if (state.tickRate !== null) return `${(time.num * state.tickRate) / time.den}t`;
  // Exact when every time is whole milliseconds; otherwise the nearest (the denominators outgrew safe ticks).
  const ms = (time.num * 1000n * 2n + time.den) / (time.den * 2n);
  const hours = ms / 3_600_000n;
  const pad = (value: bigint, width: number): string => String(value).padStart(width, '0');
  return `${pad(hours, 2)}:${pad((ms / 60_000n) % 60n, 2)}:${pad((ms / 1000n) % 60n, 2)}.${pad(ms % 1000n, 3)}`;
}

function parsedJson(json: string | null, check: (value: unknown) => boolean): unknown {
  if (json === null) return null;
  try {
    const value: unknown = JSON.parse(json);
    return check(value) ? value : null;
  } catch {
    return null;
  }
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((item) => typeof item === 'string');
}

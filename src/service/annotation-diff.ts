import { canonicalJson } from '../json/canonical-json.js';
import type { Annotation } from '../model/annotation.js';
import { referenceToWire, type ReferenceWire } from '../model/wire.js';
import { matchByMaximalOverlap } from '../quality/segment-matching.js';
import type { AnnotationStore } from '../store/store.js';
import type { TimeIntervalWire } from '../time/time-interval.js';
import { TimeInterval } from '../time/time-interval.js';
import { RationalTime } from '../time/rational-time.js';

/** One difference between two annotation sets, as `annot diff --json` prints it (one per line). */
export type AnnotationChange =
  | { change: 'added'; id: string; tier: string; reference: ReferenceWire; label: string }
  | { change: 'removed'; id: string; tier: string; reference: ReferenceWire; label: string }
  | { change: 'retimed'; id: string; id_b?: string; tier: string; from: TimeIntervalWire; to: TimeIntervalWire }
  | { change: 'relabelled'; id: string; id_b?: string; tier: string; from: string; to: string }
  | { change: 'changed'; id: string; id_b?: string; tier: string; fields: string[] };

/**
 * What a side keeps of an annotation while the other side streams by: the fields a diff compares,
 * flattened into one string so a million of them fit in memory (provenance is left out: the same
 * annotation converted twice gets two generation times, and that is no change).
 */
interface Kept {
  id: string;
  tier: string;
  /** `v/r` as stored, for media references; `@target` for references to another annotation. */
  start: string;
  end: string;
  body: string;
  rest: string;
}

const SEP = '\u001f';

function keep(annotation: Annotation): Kept {
  const reference = annotation.reference;
  const [start, end] = reference.kind === 'media' ? [`${reference.interval.start.v}/${reference.interval.start.r}`, `${reference.interval.end.v}/${reference.interval.end.r}`] : [`@${reference.target_id}`, ''];
  const asset = reference.kind === 'media' ? reference.asset_id : '';
  return { id: annotation.id, tier: annotation.tier, start, end, body: canonicalJson(annotation.body, 'body'), rest: `${asset}${SEP}${annotation.body_schema_uri}${SEP}${annotation.confidence}` };
}

const pack = (k: Kept) => [k.tier, k.start, k.end, k.body, k.rest].join(SEP);
function unpack(id: string, packed: string): Kept {
  const [tier, start, end, body, asset, schema, confidence] = packed.split(SEP);
  return { id, tier, start, end, body, rest: [asset, schema, confidence].join(SEP) };
}

/**
 * The changes from store A to store B: annotations added, removed, retimed and relabelled (and
 * `changed` for a new tier, asset, schema or confidence). Annotations are paired by id first;
 * those whose id is on one side only are then paired within their tier by overlap and text:
 * same text and overlapping times (the largest overlap first) is one annotation retimed, the
 * same times with another text is one relabelled. What is left was added or removed.
 *
 * A streams into a map keyed by id (one short string per annotation), B streams past it, so
 * memory is one side's worth of keys and the time is two passes, whatever the sizes.
 */
export async function* diffStores(a: AnnotationStore, b: AnnotationStore): AsyncGenerator<AnnotationChange> {
  const left = new Map<string, string>();
  for await (const annotation of a.all()) left.set(annotation.id, pack(keep(annotation)));
  const onlyB: Kept[] = [];
  for await (const annotation of b.all()) {
    const kb = keep(annotation);
    const packed = left.get(kb.id);
    if (packed === undefined) {
      onlyB.push(kb);
      continue;
    }
    left.delete(kb.id);
    if (packed !== pack(kb)) yield* compare(unpack(kb.id, packed), kb);
  }
  const onlyA = [...left].map(([id, packed]) => unpack(id, packed));
  left.clear();
  yield* pairLeftovers(onlyA, onlyB);
}

function* compare(x: Kept, y: Kept): Generator<AnnotationChange> {
  const ids = x.id === y.id ? { id: x.id } : { id: x.id, id_b: y.id };
  if (!sameTime(x.start, y.start) || !sameTime(x.end, y.end)) yield { change: 'retimed', ...ids, tier: y.tier, from: intervalWire(x), to: intervalWire(y) };
  const [labelX, labelY] = [labelOf(x), labelOf(y)];
  if (labelX !== labelY) yield { change: 'relabelled', ...ids, tier: y.tier, from: labelX, to: labelY };
  const fields: string[] = [];
  if (labelX === labelY && x.body !== y.body) fields.push('body');
  if (x.tier !== y.tier) fields.push('tier');
  const [assetX, schemaX, confX] = x.rest.split(SEP);
  const [assetY, schemaY, confY] = y.rest.split(SEP);
  if (assetX !== assetY) fields.push('reference.asset_id');
  if (schemaX !== schemaY) fields.push('body_schema_uri');
  if (confX !== confY) fields.push('confidence');
  if (fields.length > 0) yield { change: 'changed', ...ids, tier: y.tier, fields };
}

interface Leftover {
  kept: Kept;
  interval: TimeInterval;
}

/** Pairs the annotations whose ids matched nothing, tier by tier: by text and overlap, then by identical times. */
function* pairLeftovers(onlyA: Kept[], onlyB: Kept[]): Generator<AnnotationChange> {
  const byTier = new Map<string, { a: Kept[]; b: Kept[] }>();
  const group = (tier: string) => byTier.get(tier) ?? byTier.set(tier, { a: [], b: [] }).get(tier)!;
  for (const k of onlyA) group(k.tier).a.push(k);
  for (const k of onlyB) group(k.tier).b.push(k);
  for (const { a, b } of byTier.values()) {
    const timed = (list: Kept[]) => list.filter((k) => !k.start.startsWith('@')).map((kept): Leftover => ({ kept, interval: intervalOf(kept) }));
    const removed = new Set(a);
    const added = new Set(b);
    // Same text, overlapping: one annotation retimed (or unchanged, under a new id).
    const byText = new Map<string, { a: Leftover[]; b: Leftover[] }>();
    for (const l of timed(a)) {
      const label = labelOf(l.kept);
      (byText.get(label) ?? byText.set(label, { a: [], b: [] }).get(label)!).a.push(l);
    }
    for (const l of timed(b)) byText.get(labelOf(l.kept))?.b.push(l);
    for (const { a: sameA, b: sameB } of byText.values()) {
      if (sameB.length === 0) continue;
      for (const [x, y] of matchByMaximalOverlap(sameA, sameB).matched) {
        removed.delete(x.kept);
        added.delete(y.kept);
        yield* compare(x.kept, y.kept);
      }
    }
    // The same times, another text: relabelled.
    const atTimes = new Map<string, Kept[]>();
    const timesKey = (k: Kept) => `${reduced(k.start)} ${reduced(k.end)}`;
    for (const k of added) if (!k.start.startsWith('@')) (atTimes.get(timesKey(k)) ?? atTimes.set(timesKey(k), []).get(timesKey(k))!).push(k);
    for (const x of [...removed]) {
      if (x.start.startsWith('@')) continue;
      const candidates = atTimes.get(timesKey(x));
      const y = candidates?.shift();
      if (!y) continue;
      removed.delete(x);
      added.delete(y);
      yield* compare(x, y);
    }
    for (const x of removed) yield { change: 'removed', id: x.id, tier: x.tier, reference: referenceOf(x), label: labelOf(x) };
    for (const y of added) yield { change: 'added', id: y.id, tier: y.tier, reference: referenceOf(y), label: labelOf(y) };
  }
}

/** Two `v/r` keys name the same instant (rates may differ); `@target` keys compare as text. */
function sameTime(x: string, y: string): boolean {
  if (x === y) return true;
  if (x.startsWith('@') || y.startsWith('@') || x === '' || y === '') return false;
  return timeOf(x).equals(timeOf(y));
}

function reduced(key: string): string {
  return key.startsWith('@') || key === '' ? key : timeOf(key).valueKey();
}

function timeOf(key: string): RationalTime {
  const [num, den] = key.split('/');
  return new RationalTime(Number(num), Number(den));
}

function intervalOf(k: Kept): TimeInterval {
  return new TimeInterval(timeOf(k.start), timeOf(k.end));
}

function intervalWire(k: Kept): TimeIntervalWire {
  return k.start.startsWith('@') ? { start: { v: 0, r: 1 }, end: { v: 0, r: 1 } } : intervalOf(k).toWire();
}

function referenceOf(k: Kept): ReferenceWire {
  if (k.start.startsWith('@')) return { kind: 'annotation', target_id: k.start.slice(1) };
  return referenceToWire({ kind: 'media', asset_id: k.rest.split(SEP)[0], interval: intervalOf(k) });
}

function labelOf(k: Kept): string {
  const body = JSON.parse(k.body) as Record<string, unknown>;
  for (const key of ['text', 'label', 'value']) if (typeof body[key] === 'string') return body[key] as string;
  return k.body;
}

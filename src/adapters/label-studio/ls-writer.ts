import { writeFile } from 'node:fs/promises';
import type { Annotation, MediaRef } from '../../model/annotation.js';
import type { AnnotationStore } from '../../store/store.js';
import type { Fraction } from '../../time/decimal.js';
import type { TimeInterval } from '../../time/time-interval.js';
import type { DumpOptions, DumpReport } from '../adapter.js';
import { ImportClock } from '../import-clock.js';
import { CONTAINER_KINDS, LABEL_STUDIO_REGION_SCHEMA, LABEL_STUDIO_TASKS_META, REGION_PLACEHOLDER, type ContainerKind } from './ls-reader.js';
import { framerateFromText, framerateOf, framerateText, framesAt, regionInterval, regionTime, type TimeUnit } from './region-time.js';
import { plainCueText } from '../plain-cue-text.js';

type Json = Record<string, unknown>;

interface Counts {
  symbolic: number;
  unwritableEdits: number;
  otherBodies: number;
  inexactFrames: number;
  provenance: number;
}

/**
 * Writes a Label Studio import file: a JSON array of tasks with `data` and `annotations` /
 * `predictions` result arrays. Tasks read from Label Studio come back with everything they had
 * (ids, data, annotators, untimed results), their timed results rebuilt from the store (deleted
 * annotations left out, new ones appended); annotations from other formats become `labels`
 * results on new tasks, one per asset, in `predictions` when they have a confidence.
 */
export async function writeLabelStudio(store: AnnotationStore, path: string, options: DumpOptions): Promise<DumpReport> {
  const counts: Counts = { symbolic: 0, unwritableEdits: 0, otherBodies: 0, inexactFrames: 0, provenance: 0 };
  const annotations: Annotation[] = [];
  for await (const annotation of store.all()) {
    if (annotation.reference.kind === 'media') annotations.push(annotation);
    else counts.symbolic++;
  }
  const byId = new Map(annotations.map((annotation) => [annotation.id, annotation]));
  const placed = new Set<string>();
  const kept = (await store.getMeta(LABEL_STUDIO_TASKS_META)) ?? '[]';
  const tasks = (JSON.parse(kept) as Json[]).map((task) => {
    const out: Json = { ...task };
    for (const kind of CONTAINER_KINDS) {
      if (!Array.isArray(task[kind])) continue;
      out[kind] = (task[kind] as Json[]).map((container) => ({
        ...container,
        result: (container.result as Json[]).flatMap((result) => {
          const id = result[REGION_PLACEHOLDER];
          if (typeof id !== 'string') return [result];
          const annotation = byId.get(id);
          if (!annotation) return [];
          placed.add(id);
          return [resultOf(annotation, container.score, counts)];
        }),
      }));
    }
    return out;
  });

  const newTasks = new Map<string, Json>();
  for (const annotation of annotations) {
    if (placed.has(annotation.id)) continue;
    const body = annotation.body as Json;
    const isRegion = annotation.body_schema_uri === LABEL_STUDIO_REGION_SCHEMA;
    const where = isRegion ? (body.container as { kind: ContainerKind; index: number }) : { kind: annotation.confidence === null ? 'annotations' : 'predictions', index: 0 };
    const asset = (annotation.reference as MediaRef).asset_id;
    let task = isRegion && typeof body.task === 'number' && kept !== '[]' ? tasks[body.task] : undefined;
    if (!task) {
      const key = isRegion ? `${String(body.task)}\u0000${asset}` : `\u0000${asset}`;
      task = newTasks.get(key);
      if (!task) newTasks.set(key, (task = { data: { [dataKeyFor(body.time_unit)]: asset } }));
    }
    const containers = ((task[where.kind] as Json[] | undefined) ??= []);
    while (containers.length <= where.index) containers.push(where.kind === 'predictions' ? { model_version: 'annot', result: [] } : { result: [] });
    (containers[where.index].result as Json[]).push(resultOf(annotation, containers[where.index].score, counts));
  }
  const all = [...tasks, ...newTasks.values()];
  for (const task of all) keepFramerate(task, annotations);
  for (const task of all) keepResultFramerates(task, annotations);
  for (const task of all) {
    if (isObject(task.data)) continue;
    const first = CONTAINER_KINDS.flatMap((kind) => (Array.isArray(task[kind]) ? (task[kind] as Json[]) : [])).flatMap((c) => c.result as Json[])[0];
    task.data = first ? { [dataKeyFor(timeUnitOf(first))]: assetOfResult(first, annotations) } : {};
  }
  await writeFile(path, JSON.stringify(all, null, 2) + '\n');

  const dropped = [
    { what: 'provenance', count: counts.provenance },
    { what: 'symbolic annotations', count: counts.symbolic },
    { what: 'body fields other than a label', count: counts.otherBodies },
    { what: 'interval edits on keyframe tracks and multi-range timelines', count: counts.unwritableEdits },
    { what: 'times between frames (rounded to the nearest frame)', count: counts.inexactFrames },
  ];
  if (counts.unwritableEdits > 0) options.warn(`${counts.unwritableEdits} video regions had their interval changed; their keyframes were written as they were`);
  return { dropped: dropped.filter((entry) => entry.count > 0) };
}

function resultOf(annotation: Annotation, containerScore: unknown, counts: Counts): Json {
  const interval = (annotation.reference as MediaRef).interval;
  counts.provenance++;
  if (annotation.body_schema_uri !== LABEL_STUDIO_REGION_SCHEMA) {
    const body = annotation.body as Json;
    const plain = plainCueText(annotation);
    const text = plain ?? JSON.stringify(body);
    if (plain === null || Object.keys(body).some((key) => !['text', 'source_id'].includes(key) && body[key] !== null)) counts.otherBodies++;
    const result: Json = { id: annotation.id, type: 'labels', from_name: annotation.tier, to_name: 'audio', value: { start: interval.start.toSeconds(), end: interval.end.toSeconds(), labels: [text] } };
    if (annotation.confidence !== null) result.score = annotation.confidence;
    return result;
  }
  const body = annotation.body as Json;
  const extra = isObject(body.extra) ? body.extra : {};
  const result: Json = { ...extra, id: body.id ?? annotation.id, type: body.type, from_name: body.from_name, to_name: body.to_name };
  if (typeof body.origin === 'string') result.origin = body.origin;
  result.value = valueFor(body, interval, counts);
  if (annotation.confidence !== null && annotation.confidence !== containerScore) result.score = annotation.confidence;
  return result;
}

/** The result value with the interval's times: verbatim while the interval is the one the value gives. */
function valueFor(body: Json, interval: TimeInterval, counts: Counts): Json {
  const value = body.value as Json;
  const unit = body.time_unit as TimeUnit;
  const framerate = framerateFromText(body.framerate) ?? { num: 24n, den: 1n };
  const written = regionTime(body.type, value);
  if (written !== null && written.unit === unit) {
    const clock = new ImportClock(Math.max(interval.start.r, interval.end.r));
    // Verbatim while the written times still give this interval at its rate: floats keep their spelling.
    if (regionInterval(written, framerate, clock, 'value').equals(interval)) return value;
  }
  switch (unit) {
    case 'seconds':
    case 'series':
      return { ...value, start: interval.start.toSeconds(), end: interval.end.toSeconds() };
    case 'epoch_ms':
      return { ...value, start: milliseconds(interval.start.toFraction()), end: milliseconds(interval.end.toFraction()) };
    case 'frames': {
      if (!Array.isArray(value.ranges) || value.ranges.length !== 1) {
        counts.unwritableEdits++;
        return value;
      }
      const start = frames(interval.start, framerate, counts);
      const end = frames(interval.end, framerate, counts);
      return { ...value, ranges: [{ ...(value.ranges[0] as Json), start, end }] };
    }
  }
}

/**
 * A frame rate read from somewhere the file will not carry (a webhook's label config, the
 * default) goes into the task data, where the reader looks for it.
 */
function keepFramerate(task: Json, annotations: readonly Annotation[]): void {
  if (isObject(task.data) && task.data.framerate !== undefined) return;
  const ids = new Set(CONTAINER_KINDS.flatMap((kind) => (Array.isArray(task[kind]) ? (task[kind] as Json[]) : [])).flatMap((c) => (c.result as Json[]).map((r) => r.id)));
  const region = annotations.find((a) => a.body_schema_uri === LABEL_STUDIO_REGION_SCHEMA && typeof a.body.framerate === 'string' && ids.has(a.body.id ?? a.id) && !('framerate' in (a.body.value as Json)));
  if (!region) return;
  task.data = { ...(isObject(task.data) ? task.data : {}), framerate: framerateValue(region.body.framerate as string) };
}

/**
 * A task's data holds one frame rate; a result read at another (from its own label config tag,
 * or Label Studio's default) says its rate in its value, which the reader looks at first.
 */
function keepResultFramerates(task: Json, annotations: readonly Annotation[]): void {
  const bodyOf = new Map<unknown, Json>(annotations.filter((a) => a.body_schema_uri === LABEL_STUDIO_REGION_SCHEMA).map((a) => [(a.body as Json).id ?? a.id, a.body as Json]));
  for (const kind of CONTAINER_KINDS) {
    if (!Array.isArray(task[kind])) continue;
    for (const container of task[kind] as Json[]) {
      for (const result of container.result as Json[]) {
        const body = bodyOf.get(result.id);
        if (!body || body.time_unit !== 'frames' || typeof body.framerate !== 'string' || !isObject(result.value)) continue;
        const readAs = framerateOf(result.value, task.data, undefined, result.to_name).rate;
        if (framerateText(readAs) !== body.framerate) result.value = { ...result.value, framerate: framerateValue(body.framerate) };
      }
    }
  }
}

function framerateValue(text: string): number | string {
  return /^\d+$/.test(text) ? Number(text) : text;
}

function frames(time: TimeInterval['start'], rate: Fraction, counts: Counts): number {
  const { frames: count, exact } = framesAt(time, rate);
  if (!exact) counts.inexactFrames++;
  return count;
}

function milliseconds({ num, den }: Fraction): number {
  return Number(num * 1000n) / Number(den);
}

function dataKeyFor(unit: unknown): string {
  return unit === 'frames' ? 'video' : unit === 'series' || unit === 'epoch_ms' ? 'ts' : 'audio';
}

function timeUnitOf(result: Json): TimeUnit | undefined {
  return isObject(result.value) ? regionTime(result.type, result.value)?.unit : undefined;
}

function assetOfResult(result: Json, annotations: readonly Annotation[]): string {
  const annotation = annotations.find((a) => (a.body as Json).id === result.id || a.id === result.id);
  return annotation ? (annotation.reference as MediaRef).asset_id : 'label-studio:unspecified';
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

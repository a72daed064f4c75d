import { makeAnnotation, mediaRef, type Annotation } from '../../model/annotation.js';
import { isUuid, newAnnotationId, normalizeUuid } from '../../model/ids.js';
import { makeTier, type Tier } from '../../model/tier.js';
import type { Fraction } from '../../time/decimal.js';
import type { LoadedDocument, LoadOptions } from '../adapter.js';
import type { TimeInterval } from '../../time/time-interval.js';
import { FormatParseError } from '../errors.js';
import { placedInFile } from '../refusal-place.js';
import { decimalRateFor, ImportClock } from '../import-clock.js';
import { importProvenance } from '../import-provenance.js';
import { LazyJsonArray, MAX_JSON_DEPTH, parseJson } from '../json-text.js';
import { decodeSource } from '../source-text.js';
import { framerateOf, framerateText, regionInterval, regionTime, type RegionTime } from './region-time.js';

import { LABEL_STUDIO_REGION_SCHEMA } from './region-schema.js';

export { LABEL_STUDIO_REGION_SCHEMA };
export const LABEL_STUDIO_DEFAULT_ASSET = 'label-studio:unspecified';
/** Store meta key holding the tasks without their timed results (see readLabelStudio). */
export const LABEL_STUDIO_TASKS_META = 'label_studio.tasks';
/** Placeholder key standing for a timed result in the kept task skeleton: its annotation id. */
export const REGION_PLACEHOLDER = '$annot_annotation';

export const CONTAINER_KINDS = ['annotations', 'predictions', 'completions'] as const;
export type ContainerKind = (typeof CONTAINER_KINDS)[number];

interface PendingRegion {
  readonly id: string;
  readonly tier: string;
  readonly path: string;
  readonly assetId: string;
  readonly time: RegionTime;
  readonly framerate: Fraction;
  readonly body: Record<string, unknown>;
  readonly confidence: number | null;
  readonly attributedTo: string;
}

/**
 * Reads a Label Studio export: a JSON array of tasks, one task, or an ML-backend webhook payload
 * `{annotation, task, project}`. Every result with a time (see region-time.ts) becomes an
 * annotation on the tier named by its from_name, with the result kept in its body. Results
 * without a time (file-level choices, text spans, image boxes) are not annotations: the model
 * anchors every annotation in time, and inventing one (0 s, or the whole file whose length the
 * export does not give) would be a lie. They stay, verbatim, in the task skeleton kept in store
 * meta `label_studio.tasks` (the tasks without their timed results), so the writer gives them back.
 */
export function readLabelStudio(bytes: Buffer, options: LoadOptions): LoadedDocument {
  return readLabelStudioText(decodeSource(bytes, options), options);
}

/**
 * readLabelStudio from the decoded text, for a caller that lets go of the file's bytes first:
 * they would otherwise stay in memory beside the text through both passes.
 */
export function readLabelStudioText(text: string, options: LoadOptions): LoadedDocument {
  const file = options.sourceName;
  // The task list and every result list (a million results in a big file) stay text until read,
  // one item at a time, on each of the two passes below.
  const document = parseJson(text, file, 'refuse', MAX_JSON_DEPTH, isTaskOrResultList);
  const { tasks, labelConfig } = tasksOf(document, file);
  const taskPathOf = (taskIndex: number) => (isList(document) ? `$[${taskIndex}]` : '$');
  const first = new FirstPass();

  // First pass: checks every result, keeps the tasks without their timed results (the skeleton),
  // names the tiers and ids, and finds the rate the times need. The annotations are made on the
  // second pass, in generate, so no list of a million regions is ever held.
  function* allTimes(): Generator<string> {
    let taskIndex = -1;
    for (const task of tasks()) {
      taskIndex++;
      yield* first.task(task, taskIndex, { taskPath: taskPathOf(taskIndex), labelConfig, options, file });
    }
  }
  const neededRate = decimalRateFor(allTimes());
  const skeletonText = JSON.stringify(first.skeleton);
  first.skeleton = [];
  const { untimed, guessedFramerate, tierNames, ids } = first;

  if (untimed > 0) {
    options.report({ code: 'untimed_items_kept', severity: 'warning', file, location: {}, message: `${untimed} Label Studio results have no time (file-level choices, text spans, image regions); they are kept in store meta ${LABEL_STUDIO_TASKS_META} and written back, but are not annotations` });
  }
  if (guessedFramerate > 0) options.report({ code: 'frame_rate_guessed', severity: 'warning', file, location: {}, message: `${guessedFramerate} video results name no frame rate; Label Studio's default of 24 fps was used` });

  const clock = new ImportClock(options.rate ?? neededRate, options.strictTime);
  const tiers: Tier[] = tierNames.map((name, index) => {
    try {
      return makeTier({ name });
    } catch (error) {
      throw placedInFile(error, file, { path: first.tierPaths[index] });
    }
  });

  // The result being read: where a refusal of its annotation is named.
  let placePath = '$';
  async function* generate(): AsyncGenerator<Annotation> {
    let timed = 0;
    let taskIndex = -1;
    for (const task of tasks()) {
      taskIndex++;
      for (const { kind, containers } of containersOf(task, taskPathOf(taskIndex), file)) {
        for (const [containerIndex, container] of containers.entries()) {
          if (!isObject(container)) continue;
          for (const item of resultsOf(container, `${taskPathOf(taskIndex)}.${kind}[${containerIndex}]`, file)) {
            if (item.time === null) continue;
            const context = { task, taskIndex, kind, container, containerIndex, path: item.path, labelConfig, options, file };
            const region = regionOf(item.result, item.time, ids[timed++], context).pending;
            if (Number(region.time.start) < 0 || Number(region.time.end) < Number(region.time.start)) {
              throw new FormatParseError(file, { path: `${region.path}.value` }, `expected a region with 0 <= start <= end, got start ${region.time.start} and end ${region.time.end} (${region.time.unit})`);
            }
            const interval = regionInterval(region.time, region.framerate, clock, `${region.path}.value`);
            placePath = region.path;
            yield builtRegion(region, interval, options, file);
          }
        }
      }
    }
  }

  return {
    tiers,
    meta: { [LABEL_STUDIO_TASKS_META]: skeletonText },
    annotations: generate(),
    quantization: () => clock.quantization(),
    placeOfAnnotation: () => ({ path: placePath }),
    // The tasks without their timed results are kept whole in one metadata entry.
    placeOfMeta: () => ({ path: '$' }),
  };
}

/** The annotation of a region; a refusal of it (a limit) is named at the region's result. */
function builtRegion(region: PendingRegion, interval: TimeInterval, options: LoadOptions, file: string): Annotation {
  try {
    return makeAnnotation({
      id: region.id,
      tier: region.tier,
      reference: mediaRef(region.assetId, interval),
      body: region.body,
      body_schema_uri: LABEL_STUDIO_REGION_SCHEMA,
      provenance: importProvenance('label_studio', options, region.attributedTo),
      confidence: region.confidence,
    });
  } catch (error) {
    throw placedInFile(error, file, { path: region.path });
  }
}

/** What the first pass of readLabelStudioText keeps: the skeleton, the tier names and ids, the counts it reports. */
class FirstPass {
  readonly tierNames: string[] = [];
  /** The JSON path of the first result on each tier, by the tier's index in tierNames. */
  readonly tierPaths: string[] = [];
  /** The ids of the timed results, in file order: the skeleton names them, the second pass reuses them. */
  readonly ids: string[] = [];
  untimed = 0;
  guessedFramerate = 0;
  skeleton: Array<Record<string, unknown>> = [];
  private readonly usedIds = new Set<string>();

  /** Checks one task's results and keeps its skeleton; yields the times of its timed results (not frames). */
  *task(task: Record<string, unknown>, taskIndex: number, where: { taskPath: string; labelConfig: string | undefined; options: LoadOptions; file: string }): Generator<string> {
    const { taskPath, labelConfig, options, file } = where;
    const kept: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(task)) {
      if (!(CONTAINER_KINDS as readonly string[]).includes(key)) kept[key] = value;
    }
    for (const { kind, containers } of containersOf(task, taskPath, file)) {
      const keptContainers: unknown[] = [];
      for (const [containerIndex, container] of containers.entries()) {
        if (!isObject(container)) throw new FormatParseError(file, { path: `${taskPath}.${kind}[${containerIndex}]` }, 'expected an object with a result array');
        const results: unknown[] = [];
        for (const item of resultsOf(container, `${taskPath}.${kind}[${containerIndex}]`, file)) {
          if (item.time === null) {
            this.untimed++;
            results.push(item.result);
            continue;
          }
          const context = { task, taskIndex, kind, container, containerIndex, path: item.path, labelConfig, options, file };
          const region = regionOf(item.result, item.time, regionIdFor(item.result.id, this.usedIds), context);
          if (region.guessed) this.guessedFramerate++;
          if (!this.tierNames.includes(region.pending.tier)) {
            this.tierNames.push(region.pending.tier);
            this.tierPaths.push(region.pending.path);
          }
          this.ids.push(region.pending.id);
          results.push({ [REGION_PLACEHOLDER]: region.pending.id });
          if (item.time.unit !== 'frames') {
            yield item.time.start;
            yield item.time.end;
          }
        }
        const { result: _result, ...rest } = container;
        keptContainers.push({ ...rest, result: results });
      }
      kept[kind] = keptContainers;
    }
    this.skeleton.push(kept);
  }
}

/** Where task lists and result lists sit: the top-level list, and each container's result. */
function isTaskOrResultList(path: readonly (string | number)[]): boolean {
  if (path.length === 0) return true;
  if (path.length === 2) return path[0] === 'annotation' && path[1] === 'result';
  const at = path.length === 4 && typeof path[0] === 'number' ? 1 : path.length === 3 ? 0 : -1;
  return at >= 0 && (CONTAINER_KINDS as readonly unknown[]).includes(path[at]) && typeof path[at + 1] === 'number' && path[at + 2] === 'result';
}

/** The container lists of a task (annotations, predictions, completions), each checked to be an array. */
function* containersOf(task: Record<string, unknown>, taskPath: string, file: string): Generator<{ kind: ContainerKind; containers: unknown[] }> {
  for (const kind of CONTAINER_KINDS) {
    const containers = task[kind];
    if (containers === undefined) continue;
    if (!Array.isArray(containers)) throw new FormatParseError(file, { path: `${taskPath}.${kind}` }, `expected an array of ${kind}, each with a result array`);
    yield { kind, containers };
  }
}

/** The results of a container, one at a time, each with its time (null when it has none). */
function* resultsOf(container: Record<string, unknown>, containerPath: string, file: string): Generator<{ result: Record<string, unknown>; path: string; time: RegionTime | null }> {
  const { result = [] } = container;
  if (!isList(result)) throw new FormatParseError(file, { path: `${containerPath}.result` }, 'expected an array of results');
  let resultIndex = -1;
  for (const item of result as Iterable<unknown>) {
    resultIndex++;
    const path = `${containerPath}.result[${resultIndex}]`;
    if (!isObject(item)) throw new FormatParseError(file, { path }, 'expected a result object {id, type, from_name, to_name, value}');
    const value = item.value;
    yield { result: item, path, time: isObject(value) ? regionTime(item.type, value) : null };
  }
}

/**
 * A region id that is a UUID (an annot id written out by us) becomes the annotation id again; a
 * repeated one, or a result without one, gets a new id. Only the ids from the file are remembered:
 * a new random id meets another only by a 2^-122 chance, and a million of them would take ~50 MB.
 */
function regionIdFor(regionId: unknown, usedIds: Set<string>): string {
  const fromFile = typeof regionId === 'string' && isUuid(regionId) ? normalizeUuid(regionId) : null;
  if (fromFile === null || usedIds.has(fromFile)) {
    let id = newAnnotationId();
    while (usedIds.has(id)) id = newAnnotationId();
    return id;
  }
  usedIds.add(fromFile);
  return fromFile;
}

interface RegionContext {
  readonly task: Record<string, unknown>;
  readonly taskIndex: number;
  readonly kind: ContainerKind;
  readonly container: Record<string, unknown>;
  readonly containerIndex: number;
  readonly path: string;
  readonly labelConfig: string | undefined;
  readonly options: LoadOptions;
  readonly file: string;
}

function regionOf(result: Record<string, unknown>, time: RegionTime, id: string, context: RegionContext): { pending: PendingRegion; guessed: boolean } {
  const value = result.value as Record<string, unknown>;
  const { id: regionId, type, from_name: fromName, to_name: toName, origin, value: _value, score, ...rest } = result;
  const tier = nonEmpty(fromName) ?? nonEmpty(type) ?? 'label-studio';
  const extra: Record<string, unknown> = { ...rest };
  let confidence: number | null = null;
  if (inUnitRange(score)) confidence = score;
  else {
    if (score !== undefined) extra.score = score;
    if (inUnitRange(context.container.score)) confidence = context.container.score;
  }
  const framerate = time.unit === 'frames' ? framerateOf(value, context.task.data, context.labelConfig, toName) : { rate: { num: 1n, den: 1n }, guessed: false };
  const body: Record<string, unknown> = {
    id: typeof regionId === 'string' ? regionId : regionId === undefined || regionId === null ? null : String(regionId),
    type: typeof type === 'string' ? type : '',
    from_name: typeof fromName === 'string' ? fromName : tier,
    to_name: typeof toName === 'string' ? toName : '',
    value,
    time_unit: time.unit,
    task: context.taskIndex,
    container: { kind: context.kind, index: context.containerIndex },
  };
  if (typeof origin === 'string') body.origin = origin;
  else if (origin !== undefined) extra.origin = origin;
  if (time.unit === 'frames') body.framerate = framerateText(framerate.rate);
  if (Object.keys(extra).length > 0) body.extra = extra;
  return {
    pending: {
      id,
      tier,
      path: context.path,
      assetId: context.options.assetId ?? assetOf(context.task, result),
      time,
      framerate: framerate.rate,
      body,
      confidence,
      attributedTo: attributionOf(context.kind, context.container),
    },
    guessed: framerate.guessed,
  };
}

/** Tasks of the document, and the label config when the payload carries one. */
function tasksOf(document: unknown, file: string): { tasks: () => Iterable<Record<string, unknown>>; labelConfig: string | undefined } {
  if (isList(document)) {
    let index = 0;
    for (const task of document as Iterable<unknown>) {
      if (!isObject(task)) throw new FormatParseError(file, { path: `$[${index}]` }, 'expected a task object {data, annotations, predictions}');
      index++;
    }
    return { tasks: () => document as Iterable<Record<string, unknown>>, labelConfig: undefined };
  }
  if (isObject(document) && isObject(document.annotation) && isList(document.annotation.result)) {
    const task = isObject(document.task) ? document.task : {};
    const project = isObject(document.project) ? document.project : {};
    const tasks = [{ ...task, annotations: [document.annotation] }];
    return { tasks: () => tasks, labelConfig: typeof project.label_config === 'string' ? project.label_config : undefined };
  }
  if (isObject(document) && (CONTAINER_KINDS.some((kind) => kind in document) || 'data' in document)) {
    return { tasks: () => [document], labelConfig: typeof document.label_config === 'string' ? document.label_config : undefined };
  }
  throw new FormatParseError(file, { path: '$' }, 'expected a Label Studio export: an array of tasks, or a task {data, annotations, predictions}');
}

/** The media a task's results are about: the data field named by result.source (`$url`), else the first string in data. */
function assetOf(task: Record<string, unknown>, result: Record<string, unknown>): string {
  const data = task.data;
  if (isObject(data)) {
    const named = typeof result.source === 'string' && result.source.startsWith('$') ? data[result.source.slice(1)] : undefined;
    if (typeof named === 'string' && named !== '') return named;
    for (const value of Object.values(data)) if (typeof value === 'string' && value !== '') return value;
  }
  if (typeof task.id === 'number' || (typeof task.id === 'string' && task.id !== '')) return `label-studio:task:${task.id}`;
  return LABEL_STUDIO_DEFAULT_ASSET;
}

function attributionOf(kind: ContainerKind, container: Record<string, unknown>): string {
  if (kind === 'predictions') return nonEmpty(container.model_version) ? `agent:${container.model_version as string}` : 'agent:label-studio';
  const who = container.completed_by;
  if (typeof who === 'string' && who !== '') return who;
  if (typeof who === 'number') return `label-studio:user:${who}`;
  if (isObject(who)) return nonEmpty(who.email) ?? nonEmpty(who.username) ?? (who.id !== undefined ? `label-studio:user:${String(who.id)}` : 'anonymous');
  return nonEmpty(container.created_username)?.trim() ?? 'anonymous';
}

function inUnitRange(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value <= 1;
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function isList(value: unknown): boolean {
  return Array.isArray(value) || value instanceof LazyJsonArray;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !isList(value);
}

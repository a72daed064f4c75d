import { makeAnnotation, mediaRef, type Annotation } from '../../model/annotation.js';
import { isUuid, newAnnotationId, normalizeUuid } from '../../model/ids.js';
import { makeTier, type Tier } from '../../model/tier.js';
import type { Fraction } from '../../time/decimal.js';
import type { LoadedDocument, LoadOptions } from '../adapter.js';
import { FormatParseError } from '../errors.js';
import { decimalRateFor, ImportClock } from '../import-clock.js';
import { importProvenance } from '../import-provenance.js';
import { parseJsonText } from '../json-text.js';
import { decodeSource } from '../source-text.js';
import { framerateOf, framerateText, regionInterval, regionTime, type RegionTime } from './region-time.js';

export const LABEL_STUDIO_REGION_SCHEMA = 'annot://schema/label-studio-region/v1';
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
  const file = options.sourceName;
  const document = parseJsonText(decodeSource(bytes, file), file);
  const { tasks, labelConfig } = tasksOf(document, file);
  const tierNames: string[] = [];
  const pending: PendingRegion[] = [];
  const usedIds = new Set<string>();
  let untimed = 0;
  let guessedFramerate = 0;

  const skeleton = tasks.map((task, taskIndex) => {
    const taskPath = Array.isArray(document) ? `$[${taskIndex}]` : '$';
    const kept: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(task)) {
      if (!(CONTAINER_KINDS as readonly string[]).includes(key)) kept[key] = value;
    }
    for (const kind of CONTAINER_KINDS) {
      const containers = task[kind];
      if (containers === undefined) continue;
      if (!Array.isArray(containers)) throw new FormatParseError(file, { path: `${taskPath}.${kind}` }, `expected an array of ${kind}, each with a result array`);
      kept[kind] = containers.map((container, containerIndex) => {
        const containerPath = `${taskPath}.${kind}[${containerIndex}]`;
        if (!isObject(container)) throw new FormatParseError(file, { path: containerPath }, 'expected an object with a result array');
        const { result = [], ...rest } = container;
        if (!Array.isArray(result)) throw new FormatParseError(file, { path: `${containerPath}.result` }, 'expected an array of results');
        const results = result.map((item, resultIndex) => {
          const path = `${containerPath}.result[${resultIndex}]`;
          if (!isObject(item)) throw new FormatParseError(file, { path }, 'expected a result object {id, type, from_name, to_name, value}');
          const value = item.value;
          const time = isObject(value) ? regionTime(item.type, value) : null;
          if (time === null) {
            untimed++;
            return item;
          }
          const region = regionOf(item, value as Record<string, unknown>, time, { task, taskIndex, kind, container, containerIndex, path, labelConfig, options, usedIds, file });
          if (region.guessed) guessedFramerate++;
          if (!tierNames.includes(region.pending.tier)) tierNames.push(region.pending.tier);
          pending.push(region.pending);
          return { [REGION_PLACEHOLDER]: region.pending.id };
        });
        return { ...rest, result: results };
      });
    }
    return kept;
  });

  if (untimed > 0) {
    options.report({ code: 'untimed_items_kept', severity: 'warning', file, location: {}, message: `${untimed} Label Studio results have no time (file-level choices, text spans, image regions); they are kept in store meta ${LABEL_STUDIO_TASKS_META} and written back, but are not annotations` });
  }
  if (guessedFramerate > 0) options.report({ code: 'frame_rate_guessed', severity: 'warning', file, location: {}, message: `${guessedFramerate} video results name no frame rate; Label Studio's default of 24 fps was used` });

  const decimals = pending.filter((region) => region.time.unit !== 'frames').flatMap((region) => [region.time.start, region.time.end]);
  const clock = new ImportClock(options.rate ?? decimalRateFor(decimals), options.strictTime);
  const tiers: Tier[] = tierNames.map((name) => makeTier({ name }));

  async function* generate(): AsyncGenerator<Annotation> {
    for (const region of pending) {
      if (Number(region.time.start) < 0 || Number(region.time.end) < Number(region.time.start)) {
        throw new FormatParseError(file, { path: `${region.path}.value` }, `expected a region with 0 <= start <= end, got start ${region.time.start} and end ${region.time.end} (${region.time.unit})`);
      }
      const interval = regionInterval(region.time, region.framerate, clock, `${region.path}.value`);
      yield makeAnnotation({
        id: region.id,
        tier: region.tier,
        reference: mediaRef(region.assetId, interval),
        body: region.body,
        body_schema_uri: LABEL_STUDIO_REGION_SCHEMA,
        provenance: importProvenance('label_studio', options, region.attributedTo),
        confidence: region.confidence,
      });
    }
  }

  return { tiers, meta: { [LABEL_STUDIO_TASKS_META]: JSON.stringify(skeleton) }, annotations: generate(), quantization: () => clock.quantization() };
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
  readonly usedIds: Set<string>;
  readonly file: string;
}

function regionOf(result: Record<string, unknown>, value: Record<string, unknown>, time: RegionTime, context: RegionContext): { pending: PendingRegion; guessed: boolean } {
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
  // A region id that is a UUID (an annot id written out by us) becomes the annotation id again.
  let id = typeof regionId === 'string' && isUuid(regionId) ? normalizeUuid(regionId) : newAnnotationId();
  if (context.usedIds.has(id)) id = newAnnotationId();
  context.usedIds.add(id);
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
function tasksOf(document: unknown, file: string): { tasks: Record<string, unknown>[]; labelConfig: string | undefined } {
  if (Array.isArray(document)) {
    return {
      tasks: document.map((task, index) => {
        if (!isObject(task)) throw new FormatParseError(file, { path: `$[${index}]` }, 'expected a task object {data, annotations, predictions}');
        return task;
      }),
      labelConfig: undefined,
    };
  }
  if (isObject(document) && isObject(document.annotation) && Array.isArray(document.annotation.result)) {
    const task = isObject(document.task) ? document.task : {};
    const project = isObject(document.project) ? document.project : {};
    return { tasks: [{ ...task, annotations: [document.annotation] }], labelConfig: typeof project.label_config === 'string' ? project.label_config : undefined };
  }
  if (isObject(document) && (CONTAINER_KINDS.some((kind) => kind in document) || 'data' in document)) {
    return { tasks: [document], labelConfig: typeof document.label_config === 'string' ? document.label_config : undefined };
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

import { makeAnnotation, mediaRef, type Annotation } from '../../model/annotation.js';
import { makeTier, type Tier } from '../../model/tier.js';
import { TimeInterval } from '../../time/time-interval.js';
import type { LoadedDocument, LoadOptions } from '../adapter.js';
import { gunzipBounded } from '../bounded-gunzip.js';
import { InvalidAnnotationError } from '../../model/errors.js';
import { FormatParseError } from '../errors.js';
import { placedInFile } from '../refusal-place.js';
import { decimalRateFor, ImportClock } from '../import-clock.js';
import { tierNameInSandbox } from './jams-namespace.js';
import { importProvenance } from '../import-provenance.js';
import { isGzip } from '../sniffers.js';
import { decodeSource, type TextSourceOptions } from '../source-text.js';
import { extractNonFinite, LazyJsonArray, MAX_JSON_DEPTH, nonFiniteToken, parseJson, stringifyWithNonFinite, type NonFiniteToken } from '../json-text.js';

export const JAMS_OBSERVATION_SCHEMA = 'annot://schema/jams-observation/v1';
export const JAMS_DEFAULT_ASSET = 'jams:unspecified';

/** Store meta keys that keep the file-level parts of a JAMS file for the way back. */
export const JAMS_META = { fileMetadata: 'jams.file_metadata', sandbox: 'jams.sandbox', extra: 'jams.extra' } as const;

/** Identifier keys tried, in order, for the asset id when the user gives none. */
const IDENTIFIER_KEYS = ['musicbrainz', 'slug', 'track_id', 'id'];

/** One JAMS annotation (a namespace's data) as the reader sees it. */
interface JamsAnnotation {
  readonly tier: string;
  /** The annotation's data as parsed, read into observations on demand (see observationsOf). */
  readonly data: unknown;
  readonly path: string;
  readonly attributedTo?: string;
}

interface Observation {
  /** The observation's JSON path (in dense data, that of its time). */
  readonly path: string;
  readonly timePath: string;
  readonly durationPath: string;
  readonly time: number;
  readonly duration: number;
  readonly value: unknown;
  readonly confidence: unknown;
}

/**
 * Reads a JAMS (or gzip-compressed .jamz) file. Each JAMS annotation becomes a tier named after its
 * namespace (`chord`), or after the tier annot wrote it from (its sandbox's `annot.tier`), numbered
 * when a name occurs more than once (`pitch_contour#1`, `pitch_contour#2`, in file order), so
 * duplicates never collide; the tier's metadata `jams` keeps
 * the annotation's namespace, position, annotation_metadata, sandbox, time, duration and whether
 * its data was written in the old dense (column) form. Each observation becomes an annotation.
 */
export async function readJams(bytes: Buffer, options: LoadOptions): Promise<LoadedDocument> {
  return readJamsText(await jamsText(bytes, options), options);
}

/**
 * The text of a JAMS file, or of a .jamz once uncompressed: inflated as a stream under
 * INFLATE_LIMITS, so a gzip bomb is refused after a few megabytes instead of filling memory.
 */
export async function jamsText(bytes: Buffer, options: TextSourceOptions): Promise<string> {
  const raw = isGzip(bytes) ? (await gunzipBounded(bytes, options.sourceName, 'gzip-compressed JAMS (.jamz)')).bytes : bytes;
  return decodeSource(raw, options);
}

/**
 * readJams from the text (see jamsText), for a caller that lets go of the file's bytes first:
 * they would otherwise stay in memory beside the text through both passes.
 */
export function readJamsText(text: string, options: LoadOptions): LoadedDocument {
  const file = options.sourceName;
  // The observation lists (`annotations[i].data`, a million items in a big file) stay text until
  // they are read, one observation at a time.
  const document = parseJson(text, file, 'marker', MAX_JSON_DEPTH, isObservationList);
  if (!isObject(document)) throw new FormatParseError(file, { path: '$' }, 'expected a JAMS object {annotations, file_metadata, sandbox}');
  if (!Array.isArray(document.annotations)) {
    throw new FormatParseError(file, { path: '$.annotations' }, 'expected an array of JAMS annotations (pre-0.2 JAMS files with "sections"/"beats" keys are not supported; convert them with the jams library)');
  }
  const rawAnnotations = document.annotations as unknown[];
  const namespaces = rawAnnotations.map((annotation, index) => namespaceOf(annotation, index, file));
  // A tier annot wrote into JAMS keeps its name in the sandbox (jams-namespace.ts); others are named after their namespace.
  const tierNames = tierNamesFor(rawAnnotations.map((annotation, index) => tierNameInSandbox((annotation as Record<string, unknown>).sandbox) ?? namespaces[index]));
  const tiers: Tier[] = [];
  const annotations: JamsAnnotation[] = [];
  rawAnnotations.forEach((annotation, index) => {
    const record = annotation as Record<string, unknown>;
    const path = `$.annotations[${index}]`;
    const { data, ...rest } = record;
    const nonFinite: Record<string, NonFiniteToken> = {};
    const kept = extractNonFinite(rest, '', nonFinite);
    const jams: Record<string, unknown> = { namespace: namespaces[index], position: index, annotation: kept, dense: isObject(data) };
    if (Object.keys(nonFinite).length > 0) jams.non_finite = nonFinite;
    try {
      tiers.push(makeTier({ name: tierNames[index], metadata: { jams } }));
    } catch (error) {
      throw placedInFile(error, file, { path });
    }
    annotations.push({ tier: tierNames[index], data, path: `${path}.data`, attributedTo: annotatorOf(record.annotation_metadata) });
  });

  // One pass over the observations checks them all and finds the rate their times need; the
  // annotations are made on a second pass as they are read, so no copy of a million
  // observations is ever held beside the parsed file.
  function* allTimes(): Generator<number> {
    for (const annotation of annotations) {
      for (const observation of observationsOf(annotation.data, annotation.path, file)) {
        yield observation.time;
        yield observation.duration;
      }
    }
  }
  const neededRate = decimalRateFor(allTimes());
  const clock = new ImportClock(options.rate ?? neededRate, options.strictTime);
  const assetId = options.assetId ?? assetIdOf(document.file_metadata);
  const meta: Record<string, string> = {};
  if (document.file_metadata !== undefined) meta[JAMS_META.fileMetadata] = stringifyWithNonFinite(document.file_metadata);
  if (document.sandbox !== undefined) meta[JAMS_META.sandbox] = stringifyWithNonFinite(document.sandbox);
  const extra = Object.fromEntries(Object.entries(document).filter(([key]) => !['annotations', 'file_metadata', 'sandbox'].includes(key)));
  if (Object.keys(extra).length > 0) meta[JAMS_META.extra] = stringifyWithNonFinite(extra);

  // The observation being read: where a refusal of its annotation is named.
  let placePath = '$';
  async function* generate(): AsyncGenerator<Annotation> {
    for (const annotation of annotations) {
      const provenance = importProvenance('jams', options, annotation.attributedTo);
      for (const observation of observationsOf(annotation.data, annotation.path, file)) {
        placePath = observation.path;
        const start = clock.seconds(observation.time, observation.timePath);
        const end = start.plus(clock.seconds(observation.duration, observation.durationPath));
        const { body, confidence } = bodyOf(observation);
        let built: Annotation;
        try {
          built = makeAnnotation({ tier: annotation.tier, reference: mediaRef(assetId, new TimeInterval(start, end)), body, body_schema_uri: JAMS_OBSERVATION_SCHEMA, provenance, confidence });
        } catch (error) {
          throw placedInFile(error, file, { path: refusedPath(error, observation.path, annotation.path) });
        }
        yield built;
      }
    }
  }

  return {
    tiers,
    meta,
    annotations: generate(),
    quantization: () => clock.quantization(),
    placeOfAnnotation: () => ({ path: placePath }),
    placeOfMeta: (key) => ({ path: key === JAMS_META.fileMetadata ? '$.file_metadata' : key === JAMS_META.sandbox ? '$.sandbox' : '$' }),
  };
}

function isObservationList(path: readonly (string | number)[]): boolean {
  return path.length === 3 && path[0] === 'annotations' && typeof path[1] === 'number' && path[2] === 'data';
}

function namespaceOf(annotation: unknown, index: number, file: string): string {
  const path = `$.annotations[${index}]`;
  if (!isObject(annotation)) throw new FormatParseError(file, { path }, 'expected a JAMS annotation object {namespace, data, annotation_metadata, sandbox}');
  if (typeof annotation.namespace !== 'string' || annotation.namespace.length === 0) {
    throw new FormatParseError(file, { path: `${path}.namespace` }, 'expected the namespace name (a non-empty string such as "chord" or "beat")');
  }
  return annotation.namespace;
}

/** Tier names: the name (a namespace, or the name kept in the sandbox), or `name#k` when it occurs more than once; never two alike. */
function tierNamesFor(namespaces: readonly string[]): string[] {
  const total = new Map<string, number>();
  for (const namespace of namespaces) total.set(namespace, (total.get(namespace) ?? 0) + 1);
  const seen = new Map<string, number>();
  const used = new Set<string>();
  return namespaces.map((namespace) => {
    const ordinal = (seen.get(namespace) ?? 0) + 1;
    seen.set(namespace, ordinal);
    let name = total.get(namespace)! > 1 ? `${namespace}#${ordinal}` : namespace;
    while (used.has(name)) name += "'";
    used.add(name);
    return name;
  });
}

/**
 * Observations of a JAMS annotation's data, one at a time: a list of observations, or the old
 * dense columns. A malformed one throws where it is met.
 */
function* observationsOf(data: unknown, path: string, file: string): Generator<Observation> {
  if (Array.isArray(data) || data instanceof LazyJsonArray) {
    let index = -1;
    for (const observation of data as Iterable<unknown>) {
      index++;
      const at = `${path}[${index}]`;
      if (!isObject(observation)) throw new FormatParseError(file, { path: at }, 'expected an observation {time, duration, value, confidence}');
      yield {
        path: at,
        timePath: `${at}.time`,
        durationPath: `${at}.duration`,
        time: timeOf(observation.time, `${at}.time`, file),
        duration: timeOf(observation.duration, `${at}.duration`, file),
        value: observation.value,
        confidence: observation.confidence,
      };
    }
    return;
  }
  if (isObject(data)) {
    const column = (key: string): unknown[] => {
      const values = data[key];
      if (values === undefined && (key === 'value' || key === 'confidence')) return [];
      if (!Array.isArray(values)) throw new FormatParseError(file, { path: `${path}.${key}` }, 'expected an array (dense JAMS data holds one array per field)');
      return values;
    };
    const times = column('time');
    const durations = column('duration');
    const values = column('value');
    const confidences = column('confidence');
    if (durations.length !== times.length) {
      throw new FormatParseError(file, { path: `${path}.duration` }, `expected ${times.length} durations, one per time, got ${durations.length}`);
    }
    for (let index = 0; index < times.length; index++) {
      yield {
        path: `${path}.time[${index}]`,
        timePath: `${path}.time[${index}]`,
        durationPath: `${path}.duration[${index}]`,
        time: timeOf(times[index], `${path}.time[${index}]`, file),
        duration: timeOf(durations[index], `${path}.duration[${index}]`, file),
        value: values[index] ?? null,
        confidence: confidences[index] ?? null,
      };
    }
    return;
  }
  if (data === undefined || data === null) return;
  throw new FormatParseError(file, { path }, 'expected the annotation data: a list of observations or dense columns {time, duration, value, confidence}');
}

/**
 * Where what a refusal names was read: the asset id from the file's metadata, the provenance from
 * the JAMS annotation's annotator, anything else from the observation.
 */
function refusedPath(error: unknown, observationPath: string, dataPath: string): string {
  const field = error instanceof InvalidAnnotationError ? error.path : '';
  if (field.startsWith('reference.asset_id')) return '$.file_metadata';
  if (field.startsWith('provenance')) return `${dataPath.replace(/\.data$/, '')}.annotation_metadata`;
  return observationPath;
}

function timeOf(value: unknown, path: string, file: string): number {
  if (typeof value !== 'number') {
    const token = nonFiniteToken(value);
    throw new FormatParseError(file, { path }, `expected a time in seconds (a finite number), got ${token ?? JSON.stringify(value) ?? 'nothing'}`);
  }
  if (value < 0) throw new FormatParseError(file, { path }, `expected a non-negative time in seconds, got ${value} (JAMS times and durations cannot be negative)`);
  return value;
}

function bodyOf(observation: Observation): { body: Record<string, unknown>; confidence: number | null } {
  const nonFinite: Record<string, NonFiniteToken> = {};
  const body: Record<string, unknown> = { value: extractNonFinite(observation.value ?? null, '/value', nonFinite) };
  let confidence: number | null = null;
  const raw = observation.confidence;
  if (typeof raw === 'number' && raw >= 0 && raw <= 1) confidence = raw;
  else if (raw !== undefined && raw !== null) body.confidence = extractNonFinite(raw, '/confidence', nonFinite);
  if (Object.keys(nonFinite).length > 0) body.non_finite = nonFinite;
  return { body, confidence };
}

function annotatorOf(metadata: unknown): string | undefined {
  if (!isObject(metadata)) return undefined;
  for (const who of [metadata.annotator, metadata.curator]) {
    if (isObject(who) && typeof who.name === 'string' && who.name.trim() !== '') return who.name;
  }
  return undefined;
}

function assetIdOf(fileMetadata: unknown): string {
  if (!isObject(fileMetadata)) return JAMS_DEFAULT_ASSET;
  const identifiers = fileMetadata.identifiers;
  if (isObject(identifiers)) {
    for (const key of IDENTIFIER_KEYS) {
      const value = identifiers[key];
      if ((typeof value === 'string' && value !== '') || typeof value === 'number') return `jams:${key}:${value}`;
    }
  }
  if (typeof fileMetadata.title === 'string' && fileMetadata.title !== '') return `jams:title:${fileMetadata.title}`;
  return JAMS_DEFAULT_ASSET;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof LazyJsonArray);
}

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { nonFiniteToken, parseJsonText } from '../../src/adapters/json-text.js';

/**
 * The check `jams.load` makes, with ajv over the JAMS schemata in fixtures/schemas/jams/ (marl/jams,
 * ISC): JAMS(**file) takes only annotations, file_metadata and sandbox, each annotation only its
 * own fields and each observation only time, duration, value and confidence (anything else is a
 * TypeError in jams); the file must validate against jams_schema.json; each annotation's namespace
 * must be one of the schemata's (else NamespaceError), and its observations, as a list (dense
 * columns turned into one), must validate against the namespace's value and confidence schemas
 * inside the schema's SparseObservation, as jams.schema.namespace_array builds it.
 *
 * jams validates with jsonschema's Draft4Validator and no format checker, so formats are not
 * checked here either; the two draft-04 spellings the schemata use are given to ajv in its own
 * (`id` is left out: nothing refers to it; `exclusiveMinimum: true` becomes the number).
 */

const SCHEMATA = fileURLToPath(new URL('../../fixtures/schemas/jams/', import.meta.url));

const TOP_LEVEL = new Set(['annotations', 'file_metadata', 'sandbox']);
const ANNOTATION_FIELDS = new Set(['namespace', 'data', 'annotation_metadata', 'sandbox', 'time', 'duration']);
const OBSERVATION_FIELDS = new Set(['time', 'duration', 'value', 'confidence']);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Schemata {
  readonly file: ValidateFunction;
  readonly namespaces: ReadonlyMap<string, ValidateFunction>;
}

let loaded: Schemata | null = null;

/** The namespace names of the schemata (`tag_open`, `segment_open`, `lyrics`, `chord`...). */
export function jamsNamespaces(): string[] {
  return [...schemata().namespaces.keys()].sort();
}

/** What jams.load would refuse in a .jams or .jamz file: an empty list when it loads. */
export function jamsLoadErrors(path: string): string[] {
  const bytes = readFileSync(path);
  const text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
  let document: unknown;
  try {
    document = pythonNumbers(parseJsonText(text, path, { nonFinite: true }));
  } catch (error) {
    return [`not JSON: ${(error as Error).message}`];
  }
  return jamsDocumentErrors(document);
}

/**
 * jams reads a file with Python's json, which takes NaN, Infinity and -Infinity; jsonschema then
 * sees numbers. ajv takes no such number: ±Infinity is checked as the largest double of its sign,
 * and NaN (which passes every bound in Python, and fails none a JAMS namespace puts where a NaN
 * stands: confidences, beat values) as 0.
 */
function pythonNumbers(value: unknown): unknown {
  const token = nonFiniteToken(value);
  if (token !== null) return token === 'NaN' ? 0 : token === 'Infinity' ? Number.MAX_VALUE : -Number.MAX_VALUE;
  if (Array.isArray(value)) return value.map(pythonNumbers);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, pythonNumbers(item)]));
  return value;
}

/** jamsLoadErrors for a parsed document. */
export function jamsDocumentErrors(document: unknown): string[] {
  if (!isObject(document)) return ['the file is not a JSON object'];
  const errors = Object.keys(document).filter((key) => !TOP_LEVEL.has(key)).map((key) => `$.${key}: JAMS() takes no field ${JSON.stringify(key)}`);
  const { file, namespaces } = schemata();
  if (!file(document)) errors.push(...messages(file.errors, '$'));
  const annotations = Array.isArray(document.annotations) ? document.annotations : [];
  annotations.forEach((annotation, index) => {
    const at = `$.annotations[${index}]`;
    if (!isObject(annotation)) return;
    for (const key of Object.keys(annotation)) if (!ANNOTATION_FIELDS.has(key)) errors.push(`${at}: Annotation() takes no field ${JSON.stringify(key)}`);
    const validate = typeof annotation.namespace === 'string' ? namespaces.get(annotation.namespace) : undefined;
    if (validate === undefined) {
      errors.push(`${at}.namespace: NamespaceError: Unknown namespace: ${String(annotation.namespace)}`);
      return;
    }
    const observations = observationList(annotation.data);
    observations.forEach((observation, i) => {
      if (isObject(observation)) for (const key of Object.keys(observation)) if (!OBSERVATION_FIELDS.has(key)) errors.push(`${at}.data[${i}]: an observation takes no field ${JSON.stringify(key)}`);
    });
    if (!validate(observations)) errors.push(...messages(validate.errors, `${at}.data`));
  });
  return errors;
}

/** Observations as a list: a list as it is, dense columns one observation per time (as jams reads them). */
function observationList(data: unknown): unknown[] {
  if (Array.isArray(data)) return data;
  if (!isObject(data)) return [];
  const column = (key: string): unknown[] => (Array.isArray(data[key]) ? (data[key] as unknown[]) : []);
  return column('time').map((time, i) => ({ time, duration: column('duration')[i], value: column('value')[i] ?? null, confidence: column('confidence')[i] ?? null }));
}

function schemata(): Schemata {
  if (loaded !== null) return loaded;
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  const jams = draft4(JSON.parse(readFileSync(join(SCHEMATA, 'jams_schema.json'), 'utf8')) as Json) as { [key: string]: Json };
  const file = ajv.compile(jams);
  const sparse = (jams.definitions as { [key: string]: Json }).SparseObservation as { [key: string]: Json };
  const namespaces = new Map<string, ValidateFunction>();
  for (const path of namespaceFiles(join(SCHEMATA, 'namespaces'))) {
    const declared = draft4(JSON.parse(readFileSync(path, 'utf8')) as Json) as { [name: string]: { [key: string]: Json } };
    for (const [name, namespace] of Object.entries(declared)) {
      const properties: { [key: string]: Json } = { ...(sparse.properties as { [key: string]: Json }) };
      for (const key of ['value', 'confidence']) if (namespace[key] !== undefined) properties[key] = namespace[key];
      namespaces.set(name, ajv.compile({ type: 'array', items: { ...sparse, properties } }));
    }
  }
  loaded = { file, namespaces };
  return loaded;
}

function namespaceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return namespaceFiles(path);
    return entry.name.endsWith('.json') ? [path] : [];
  });
}

/** A draft-04 schema in the spelling ajv reads (see the module comment). */
function draft4(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(draft4);
  if (!isObject(schema)) return schema;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(schema as { [key: string]: Json })) {
    if (key === '$schema' || (key === 'id' && typeof value === 'string')) continue;
    out[key] = key === 'properties' || key === 'definitions' ? Object.fromEntries(Object.entries(value as { [key: string]: Json }).map(([name, sub]) => [name, draft4(sub)])) : draft4(value);
  }
  for (const [bound, exclusive] of [['minimum', 'exclusiveMinimum'], ['maximum', 'exclusiveMaximum']] as const) {
    if (out[exclusive] === true && typeof out[bound] === 'number') {
      out[exclusive] = out[bound];
      delete out[bound];
    } else if (out[exclusive] === false) delete out[exclusive];
  }
  return out;
}

function messages(errors: readonly ErrorObject[] | null | undefined, root: string): string[] {
  return (errors ?? []).map((error) => `${root}${error.instancePath.replaceAll('/', '.')}: ${error.message ?? error.keyword}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

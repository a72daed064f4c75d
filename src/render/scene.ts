import { closestName } from '../text/nearest-name.js';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type * as Yaml from 'yaml';
import type { Document, LineCounter, Node as YamlNode } from 'yaml';
import { SceneFileError, type SceneProblem } from './errors.js';
import { packageFile } from './package-file.js';

/*
 * The scene records of the product description, with the defaults of schemas/scene.json. Field
 * names stay snake_case: they are the file format and the wire form.
 */

export interface Voice {
  name: string;
  voice_id: string;
  reference_audio_url: string;
  model_id: string;
  style_notes: string;
}

export interface Character {
  name: string;
  description: string;
  reference_image_url: string;
  voice: Voice | null;
  style_notes: string;
}

export interface Environment {
  name: string;
  description: string;
  reference_image_url: string;
  time_of_day: string;
  lighting: string;
}

export interface Shot {
  id: string;
  description: string;
  framing: string;
  environment: string;
  characters: string[];
  camera: string;
  notes: string;
}

export interface Beat {
  id: string;
  speaker: string;
  line: string;
  action: string;
  emotion: string;
  shot_id: string;
  duration_s: number | null;
  notes: string;
}

export interface Scene {
  title: string;
  style: string;
  notes: string;
  characters: Character[];
  environments: Environment[];
  shots: Shot[];
  beats: Beat[];
}

/** What library callers may pass: identity fields required, the rest defaulted. */
export type VoiceInput = Partial<Voice>;
export type CharacterInput = Partial<Omit<Character, 'voice'>> & { name: string; voice?: VoiceInput | null };
export type EnvironmentInput = Partial<Environment> & { name: string };
export type ShotInput = Partial<Shot> & { id: string };
export type BeatInput = Partial<Beat> & { id: string };
export type SceneInput = Partial<Omit<Scene, 'characters' | 'environments' | 'shots' | 'beats'>> & {
  title: string;
  characters?: CharacterInput[];
  environments?: EnvironmentInput[];
  shots?: ShotInput[];
  beats?: BeatInput[];
};

export function toVoice(v: VoiceInput): Voice {
  return { name: v.name ?? '', voice_id: v.voice_id ?? '', reference_audio_url: v.reference_audio_url ?? '', model_id: v.model_id ?? '', style_notes: v.style_notes ?? '' };
}

export function toCharacter(c: CharacterInput): Character {
  return {
    name: c.name,
    description: c.description ?? '',
    reference_image_url: c.reference_image_url ?? '',
    voice: c.voice ? toVoice(c.voice) : null,
    style_notes: c.style_notes ?? '',
  };
}

export function toEnvironment(e: EnvironmentInput): Environment {
  return { name: e.name, description: e.description ?? '', reference_image_url: e.reference_image_url ?? '', time_of_day: e.time_of_day ?? '', lighting: e.lighting ?? '' };
}

export function toShot(s: ShotInput): Shot {
  return {
    id: s.id,
    description: s.description ?? '',
    framing: s.framing ?? 'medium',
    environment: s.environment ?? '',
    characters: [...(s.characters ?? [])],
    camera: s.camera ?? '',
    notes: s.notes ?? '',
  };
}

export function toBeat(b: BeatInput): Beat {
  return {
    id: b.id,
    speaker: b.speaker ?? '',
    line: b.line ?? '',
    action: b.action ?? '',
    emotion: b.emotion ?? '',
    shot_id: b.shot_id ?? '',
    duration_s: b.duration_s ?? null,
    notes: b.notes ?? '',
  };
}

/** Fills every default of a scene given in code (no validation: the types already hold). */
export function toScene(s: SceneInput): Scene {
  return {
    title: s.title,
    style: s.style ?? '',
    notes: s.notes ?? '',
    characters: (s.characters ?? []).map(toCharacter),
    environments: (s.environments ?? []).map(toEnvironment),
    shots: (s.shots ?? []).map(toShot),
    beats: (s.beats ?? []).map(toBeat),
  };
}

// ---------------------------------------------------------------------------------------------
// Loading and validation

let validator: ValidateFunction | undefined;

/**
 * The scene schema's validator. The build compiles it once into standalone code
 * (scripts/build-validators.js → generated/scene-validator.cjs beside this module), which loads
 * without the ajv compiler; running from the sources (tests), it is compiled here with the same
 * options.
 */
function sceneValidator(): ValidateFunction {
  if (!validator) {
    const require = createRequire(import.meta.url);
    try {
      validator = require('./generated/scene-validator.cjs') as ValidateFunction;
    } catch {
      const { Ajv } = require('ajv') as typeof import('ajv');
      const schema = JSON.parse(readFileSync(packageFile('schemas/scene.json'), 'utf8'));
      validator = new Ajv({ allErrors: true, useDefaults: true, verbose: true, strict: false }).compile(schema);
    }
  }
  return validator!;
}

/** Maps a field path to a line of the source text; attached to scenes loaded from text. */
type LineLocator = (path: Array<string | number>) => number | undefined;

const locators = new WeakMap<Scene, LineLocator>();

/** Reads a scene file: `.json` as JSON, anything else as YAML. */
export async function loadSceneFile(path: string): Promise<Scene> {
  const text = await readFile(path, 'utf8');
  return parseSceneText(text, path);
}

/** Parses scene text. `file` names the source in error messages and decides JSON vs YAML. */
export function parseSceneText(text: string, file = '<scene>'): Scene {
  const isJson = /\.json$/i.test(file);
  let value: unknown;
  let locate: LineLocator;
  if (isJson) {
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new SceneFileError(file, [{ field: '', line: jsonErrorLine(error, text), message: `not valid JSON (${(error as Error).message})` }]);
    }
    let doc: { document: Document; counter: LineCounter } | undefined;
    locate = (path) => {
      doc ??= yamlDocument(text);
      return lineOf(doc.document, doc.counter, path);
    };
  } else {
    const { document, counter } = yamlDocument(text);
    if (document.errors.length > 0) {
      const problems = document.errors.map((e) => ({ field: '', line: e.linePos?.[0]?.line, message: `not valid YAML: ${e.message.split('\n')[0]}` }));
      throw new SceneFileError(file, problems);
    }
    value = document.toJS();
    locate = (path) => lineOf(document, counter, path);
  }
  const scene = sceneFromValue(value, file, locate);
  locators.set(scene, locate);
  return scene;
}

/** Validates an already-parsed value (from JSON, YAML or code) and fills the defaults. */
export function sceneFromValue(value: unknown, file = '<scene>', locate?: LineLocator): Scene {
  const data = structuredClone(value);
  const validate = sceneValidator();
  if (!validate(data)) {
    const problems = (validate.errors ?? []).map((e) => problemOf(e, locate));
    throw new SceneFileError(file, dedupe(problems));
  }
  return data as Scene;
}

let yamlModule: typeof Yaml | undefined;

/** The yaml package, loaded for the first YAML scene only (a JSON scene does not need it). */
function yaml(): typeof Yaml {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yamlModule;
}

function yamlDocument(text: string): { document: Document; counter: LineCounter } {
  const { LineCounter, parseDocument } = yaml();
  const counter = new LineCounter();
  const document = parseDocument(text, { lineCounter: counter, prettyErrors: true, uniqueKeys: true });
  return { document, counter };
}

function jsonErrorLine(error: unknown, text: string): number | undefined {
  const m = /position (\d+)/.exec((error as Error).message);
  if (!m) return undefined;
  return text.slice(0, Number(m[1])).split('\n').length;
}

function problemOf(error: ErrorObject, locate?: LineLocator): SceneProblem {
  const path = pointerSegments(error.instancePath);
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(error.params.additionalProperty);
      const allowed = Object.keys((error.parentSchema as { properties?: object })?.properties ?? {}).filter((k) => k !== '$schema');
      const near = closestName(key, allowed);
      const hint = near ? `did you mean "${near}"?` : `allowed keys: ${allowed.join(', ')}`;
      return { field: fieldName([...path, key]), line: locate?.([...path, key]), message: `unknown key; ${hint}` };
    }
    case 'required': {
      const key = String(error.params.missingProperty);
      return { field: fieldName([...path, key]), line: locate?.(path), message: 'required field is missing' };
    }
    case 'type': {
      const types = String(error.params.type).split(',');
      return { field: fieldName(path), line: locate?.(path), message: `expected ${types.join(' or ')}` };
    }
    case 'minLength':
      return { field: fieldName(path), line: locate?.(path), message: 'expected a non-empty string' };
    default:
      return { field: fieldName(path), line: locate?.(path), message: error.message ?? 'invalid value' };
  }
}

function dedupe(problems: SceneProblem[]): SceneProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.field}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function pointerSegments(pointer: string): Array<string | number> {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s));
}

/** `['beats', 3, 'speaker']` → `beats[3].speaker`. */
export function fieldName(path: Array<string | number>): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** The line of the deepest node along `path` that exists (the key's line for a map entry). */
function lineOf(document: Document, counter: LineCounter, path: Array<string | number>): number | undefined {
  const { isMap, isScalar } = yaml();
  let node: unknown = document.contents;
  let offset = (node as YamlNode | null)?.range?.[0];
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) break;
      offset = (pair.key as YamlNode).range?.[0] ?? offset;
      node = pair.value;
    } else if (node && typeof node === 'object' && 'items' in node && typeof seg === 'number') {
      const item = (node as { items: unknown[] }).items[seg];
      if (!item) break;
      offset = (item as YamlNode).range?.[0] ?? offset;
      node = item;
    } else {
      break;
    }
  }
  return offset === undefined ? undefined : counter.linePos(offset).line;
}

// ---------------------------------------------------------------------------------------------
// Warnings: things that load but that rendering treats specially

export interface SceneWarning {
  field: string;
  line?: number;
  message: string;
}

/**
 * What `annot validate` warns about: beats whose speaker matches no character (rendered as the
 * skipped result `no character`), shots naming characters or environments the scene lacks
 * (left out of the prompt), and duplicate ids (results are identified by id).
 */
export function sceneWarnings(scene: Scene): SceneWarning[] {
  const locate = locators.get(scene);
  const out: SceneWarning[] = [];
  const warn = (path: Array<string | number>, message: string) => out.push({ field: fieldName(path), line: locate?.(path), message });
  const characters = new Set(scene.characters.map((c) => c.name));
  const environments = new Set(scene.environments.map((e) => e.name));
  const shotIds = new Set<string>();
  scene.shots.forEach((shot, i) => {
    if (shotIds.has(shot.id)) warn(['shots', i, 'id'], `duplicate shot id "${shot.id}"; results are identified by shot_id`);
    shotIds.add(shot.id);
    if (shot.environment && !environments.has(shot.environment)) {
      warn(['shots', i, 'environment'], `no environment named "${shot.environment}"; the shot renders without a location`);
    }
    shot.characters.forEach((name, j) => {
      if (!characters.has(name)) warn(['shots', i, 'characters', j], `no character named "${name}"; it is left out of the shot prompt`);
    });
  });
  const beatIds = new Set<string>();
  scene.beats.forEach((beat, i) => {
    if (beatIds.has(beat.id)) warn(['beats', i, 'id'], `duplicate beat id "${beat.id}"; results are identified by beat_id`);
    beatIds.add(beat.id);
    if (!characters.has(beat.speaker)) {
      const who = beat.speaker ? `no character named "${beat.speaker}"` : 'the beat has no speaker';
      warn(['beats', i, 'speaker'], `${who}; the beat is skipped ("no character")`);
    }
  });
  return out;
}

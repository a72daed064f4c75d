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

/** A character's voice, as a scene file gives it (`voice:`). */
export interface Voice {
  /** A name for the voice; not sent to any model. */
  name: string;
  /** Named voice, sent as the speech argument `voice`. */
  voice_id: string;
  /** Sample audio; switches speech to the voice_clone category. */
  reference_audio_url: string;
  /** Speech model for this character (an id or alias of the catalog), before the quality tier's. */
  model_id: string;
  /** Free notes on the voice; not sent to any model. */
  style_notes: string;
}

/** A character of a scene: who speaks the beats and appears in the shots. */
export interface Character {
  /** The name beats (`speaker`) and shots (`characters`) refer to it by. */
  name: string;
  /** How the character looks; added to the prompt of each shot it appears in. */
  description: string;
  /** The face; enables the talking video of a beat. */
  reference_image_url: string;
  /** Voice settings; null for no voice. */
  voice: Voice | null;
  /** Free notes on the character; not sent to any model. */
  style_notes: string;
}

/** A place shots are set in. */
export interface Environment {
  /** The name shots (`environment`) refer to it by. */
  name: string;
  /** What the place looks like; added to the prompt of each shot set there. */
  description: string;
  /** A picture of the place, when there is one. */
  reference_image_url: string;
  /** The time of day, added to the prompt as `time: ...` when given. */
  time_of_day: string;
  /** The lighting of the place. */
  lighting: string;
}

/** One shot of a scene: a still, or a clip made from the still (`shotsAsVideo`). */
export interface Shot {
  /** The shot's id, unique in the scene; results carry it as `shot_id`. */
  id: string;
  /** What the shot shows; the start of its prompt. */
  description: string;
  /** The framing (`wide`, `medium`, `close-up`...); default `medium`. */
  framing: string;
  /** The name of the environment the shot is set in; empty for none. */
  environment: string;
  /** The names of the characters in the shot, in order; names no character has are left out. */
  characters: string[];
  /** How the camera moves, for a clip (`slow pan`, `static`). */
  camera: string;
  /** Free notes on the shot; not sent to any model. */
  notes: string;
}

/** One beat of a scene: a line a character speaks, or an action. */
export interface Beat {
  /** The beat's id, unique in the scene; results carry it as `beat_id`. */
  id: string;
  /** The name of the character who speaks; a beat whose speaker is no character is skipped. */
  speaker: string;
  /** What the speaker says; empty for an action without a line. */
  line: string;
  /** What happens, when there is no line (held on screen in the timelines and the animatic). */
  action: string;
  /** How the line is said; passed to the speech model. */
  emotion: string;
  /** The id of the shot the beat plays over, in the derived files; empty for none. */
  shot_id: string;
  /** How long the beat lasts, in seconds, when it has no line to time it; null to leave it to the media. */
  duration_s: number | null;
  /** Free notes on the beat; not sent to any model. */
  notes: string;
}

/** A scene with every default filled in: what loadSceneFile, parseSceneText and toScene give. */
export interface Scene {
  /** Copied to the manifest; names the manifest file. */
  title: string;
  /** Appended to every shot prompt as `style: ...`. */
  style: string;
  /** Free notes on the scene; not sent to any model. */
  notes: string;
  /** The characters, looked up by name. */
  characters: Character[];
  /** The environments, looked up by name. */
  environments: Environment[];
  /** The shots, rendered in this order. */
  shots: Shot[];
  /** The beats, rendered in this order. */
  beats: Beat[];
}

/** A voice given in code: every field optional, the rest defaulted (toVoice). */
export type VoiceInput = Partial<Voice>;
/** A character given in code: `name` required, the rest defaulted (toCharacter). */
export type CharacterInput = Partial<Omit<Character, 'voice'>> & {
  /** The character's name. */
  name: string;
  /** Voice settings; null or absent for no voice. */
  voice?: VoiceInput | null;
};
/** An environment given in code: `name` required, the rest defaulted (toEnvironment). */
export type EnvironmentInput = Partial<Environment> & {
  /** The environment's name. */
  name: string;
};
/** A shot given in code: `id` required, the rest defaulted (toShot). */
export type ShotInput = Partial<Shot> & {
  /** The shot's id. */
  id: string;
};
/** A beat given in code: `id` required, the rest defaulted (toBeat). */
export type BeatInput = Partial<Beat> & {
  /** The beat's id. */
  id: string;
};
/**
 * A scene given in code, as renderScene and iterRenderScene take it beside a Scene: `title`
 * required, the rest defaulted (toScene).
 */
export type SceneInput = Partial<Omit<Scene, 'characters' | 'environments' | 'shots' | 'beats'>> & {
  /** Copied to the manifest; names the manifest file. */
  title: string;
  /** The characters, each defaulted by toCharacter. */
  characters?: CharacterInput[];
  /** The environments, each defaulted by toEnvironment. */
  environments?: EnvironmentInput[];
  /** The shots, each defaulted by toShot. */
  shots?: ShotInput[];
  /** The beats, each defaulted by toBeat. */
  beats?: BeatInput[];
};

/** A voice with its defaults filled in: empty texts. */
export function toVoice(v: VoiceInput): Voice {
  return { name: v.name ?? '', voice_id: v.voice_id ?? '', reference_audio_url: v.reference_audio_url ?? '', model_id: v.model_id ?? '', style_notes: v.style_notes ?? '' };
}

/** A character with its defaults filled in (no validation: the types already hold). */
export function toCharacter(c: CharacterInput): Character {
  return {
    name: c.name,
    description: c.description ?? '',
    reference_image_url: c.reference_image_url ?? '',
    voice: c.voice ? toVoice(c.voice) : null,
    style_notes: c.style_notes ?? '',
  };
}

/** An environment with its defaults filled in (no validation: the types already hold). */
export function toEnvironment(e: EnvironmentInput): Environment {
  return { name: e.name, description: e.description ?? '', reference_image_url: e.reference_image_url ?? '', time_of_day: e.time_of_day ?? '', lighting: e.lighting ?? '' };
}

/** A shot with its defaults filled in: framing `medium`, the rest empty. */
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

/** A beat with its defaults filled in: empty texts, no duration. */
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
export type LineLocator = (path: Array<string | number>) => number | undefined;

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

/** Something in a scene that loads but that rendering treats specially (see sceneWarnings). */
export interface SceneWarning {
  /** The field it concerns, as a path (`beats[2].speaker`). */
  field: string;
  /** The line in the scene file, when the scene came from one. */
  line?: number;
  /** What rendering will do about it. */
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

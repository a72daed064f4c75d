import { readFileSync } from 'node:fs';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import type { Finding } from '../adapters/finding.js';
import { SceneFileError } from './errors.js';
import { fieldName, parseSceneText, type Scene } from './scene.js';

export interface SceneValidationSummary {
  /** No error findings. */
  readonly valid: boolean;
  readonly title: string | null;
  readonly characters: number;
  readonly environments: number;
  readonly shots: number;
  readonly beats: number;
  /**
   * Errors: the schema's problems and references to a shot, character or environment the scene
   * lacks (`missing_reference`). Warnings: what rendering skips (a beat whose speaker is no
   * character is rendered as skipped, by the product rules) and duplicate ids.
   */
  readonly findings: Finding[];
}

/**
 * Validates a scene file with the checks rendering applies (schema, with file, line and field),
 * then checks that every reference resolves. `sourceName` is the name findings carry (the path
 * as typed, or `<stdin>`); `path` is where the text is read from.
 */
export async function validateScene(path: string, sourceName = path): Promise<SceneValidationSummary> {
  const text = readFileSync(path, 'utf8');
  const json = /\.json$/i.test(sourceName) || (sourceName === '<stdin>' && /^\s*\{/.test(text));
  let scene: Scene;
  try {
    scene = parseSceneText(text, json ? `${sourceName}.json` : sourceName);
  } catch (error) {
    if (!(error instanceof SceneFileError)) throw error;
    const findings = error.problems.map((problem): Finding => ({
      code: 'scene_invalid',
      severity: 'error',
      file: sourceName,
      location: problem.line !== undefined ? { line: problem.line } : {},
      message: problem.field ? `${problem.field}: ${problem.message}` : problem.message,
    }));
    return { valid: false, title: null, characters: 0, environments: 0, shots: 0, beats: 0, findings };
  }
  const findings = sceneFindings(scene, text, sourceName);
  return {
    valid: !findings.some((finding) => finding.severity === 'error'),
    title: scene.title,
    characters: scene.characters.length,
    environments: scene.environments.length,
    shots: scene.shots.length,
    beats: scene.beats.length,
    findings,
  };
}

type Locator = (path: Array<string | number>) => { line?: number; column?: number };

/**
 * What `annot validate` reports about a scene that loaded: references to a shot, character or
 * environment the scene lacks (errors), beats nobody can speak and duplicate ids (warnings), each
 * with the line and column of its field in `text`, the scene file's text.
 */
export function sceneFindings(scene: Scene, text: string, file: string): Finding[] {
  const locate = sourceLocator(text);
  const findings: Finding[] = [];
  const add = (severity: Finding['severity'], code: string, path: Array<string | number>, message: string) =>
    findings.push({ code, severity, file, location: locate(path), message: `${fieldName(path)}: ${message}` });
  const characters = new Set(scene.characters.map((c) => c.name));
  const environments = new Set(scene.environments.map((e) => e.name));
  const shotIds = new Set<string>();
  const known = (names: Iterable<string>) => {
    const list = [...names];
    return list.length === 0 ? 'the scene has none' : `known: ${list.map((n) => `"${n}"`).join(', ')}`;
  };

  scene.shots.forEach((shot, i) => {
    if (shotIds.has(shot.id)) add('warning', 'duplicate_id', ['shots', i, 'id'], `duplicate shot id "${shot.id}"; results are identified by shot_id`);
    shotIds.add(shot.id);
    if (shot.environment && !environments.has(shot.environment)) {
      add('error', 'missing_reference', ['shots', i, 'environment'], `no environment named "${shot.environment}" (${known(environments)})`);
    }
    shot.characters.forEach((name, j) => {
      if (!characters.has(name)) add('error', 'missing_reference', ['shots', i, 'characters', j], `no character named "${name}" (${known(characters)})`);
    });
  });
  const beatIds = new Set<string>();
  scene.beats.forEach((beat, i) => {
    if (beatIds.has(beat.id)) add('warning', 'duplicate_id', ['beats', i, 'id'], `duplicate beat id "${beat.id}"; results are identified by beat_id`);
    beatIds.add(beat.id);
    if (beat.shot_id && !shotIds.has(beat.shot_id)) {
      add('error', 'missing_reference', ['beats', i, 'shot_id'], `no shot with id "${beat.shot_id}" (${known(shotIds)})`);
    }
    if (!characters.has(beat.speaker)) {
      const who = beat.speaker ? `no character named "${beat.speaker}"` : 'the beat has no speaker';
      add('warning', 'unknown_speaker', ['beats', i, 'speaker'], `${who}; the beat is skipped ("no character")`);
    }
  });
  return findings;
}

/**
 * Line and column of a field, from the YAML parser's source ranges (JSON is YAML, so one parser
 * serves both): the value's position, or the nearest enclosing node that exists.
 */
function sourceLocator(text: string): Locator {
  const counter = new LineCounter();
  const document = parseDocument(text, { lineCounter: counter });
  return (path) => {
    let node: unknown = document.contents;
    let offset = (node as YamlNode | null)?.range?.[0];
    for (const segment of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
        if (!pair) break;
        node = pair.value;
        offset = (pair.value as YamlNode | null)?.range?.[0] ?? (pair.key as YamlNode).range?.[0] ?? offset;
      } else if (isSeq(node) && typeof segment === 'number') {
        const item = node.items[segment];
        if (!item) break;
        node = item;
        offset = (item as YamlNode).range?.[0] ?? offset;
      } else {
        break;
      }
    }
    if (offset === undefined) return {};
    const { line, col } = counter.linePos(offset);
    return { line, column: col };
  };
}

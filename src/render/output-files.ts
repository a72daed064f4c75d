import { createHash } from 'node:crypto';
import { constants, copyFileSync, existsSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { writeAtomically } from '../io/atomic-file.js';
import { removeTemporary, temporarySiblingOf, trackTemporary } from '../io/temporary-files.js';
import { writeFailure } from '../io/write-failure.js';
import { withoutCredentials } from './credentials.js';
import { ManifestOfOtherSceneError } from './errors.js';
import type { SceneManifest } from './manifest.js';

/**
 * Files a scene render writes for Makefiles: each is replaced atomically (temporary sibling and
 * rename) and only when its content changed, so an unchanged output keeps its mtime and `make`
 * does not rebuild what depends on it.
 */

/** Writes `content` to `path` unless the file already holds exactly it; true when written. */
export async function writeIfChanged(path: string, content: string | Uint8Array): Promise<boolean> {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
  if (existsSync(path) && readFileSync(path).equals(bytes)) return false;
  makeFolderFor(path);
  await writeAtomically(path, async (temp) => writeFileSync(temp, bytes));
  return true;
}

/**
 * Produces a file through `write(tempPath)` (a format writer that insists on a path) and moves
 * it into place only when the bytes differ from the current file. True when replaced.
 */
export async function produceIfChanged(
  path: string,
  write: (temporaryPath: string) => Promise<void>,
  /** For formats whose bytes vary with the same content (SQLite pages): whether two files hold the same. */
  sameContent?: (existingPath: string, newPath: string) => Promise<boolean>,
): Promise<boolean> {
  makeFolderFor(path);
  let changed = false;
  // Named like writeAtomically's own temporaries: removed if the run is interrupted, or by the next run if it was killed.
  const temp = temporarySiblingOf(path);
  trackTemporary(temp);
  try {
    await write(temp);
    changed = !existsSync(path) || !readFileSync(path).equals(readFileSync(temp));
    if (changed && existsSync(path) && sameContent) changed = !(await sameContent(path, temp).catch(() => false));
    if (changed) await writeAtomically(path, async (atomicTemp) => copyFileSync(temp, atomicTemp));
  } catch (error) {
    throw writeFailure(error, path, { writing: [temp, path] }) ?? error;
  } finally {
    removeTemporary(temp);
  }
  return changed;
}

/**
 * The manifest file's text. `cache_hit`/`cache_hits` say how this run went, not what the scene
 * is, so a manifest that differs only in them is not rewritten (see writeManifest).
 */
export function manifestText(manifest: SceneManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** The scene file a manifest describes, as the manifest records it. */
export interface ManifestScene {
  /** The scene file's path relative to the manifest's directory (absolute when on another root). */
  scene_file: string;
  /** sha256 of the scene file's bytes. */
  scene_sha256: string;
}

/** What a manifest written at `manifestPath` records about `sceneFile`. */
export function manifestSceneOf(manifestPath: string, sceneFile: string): ManifestScene {
  const fromDir = relative(dirname(resolve(manifestPath)), resolve(sceneFile));
  return {
    scene_file: isAbsolute(fromDir) ? fromDir : fromDir.split('\\').join('/'),
    scene_sha256: createHash('sha256').update(readFileSync(sceneFile)).digest('hex'),
  };
}

/**
 * Refuses, before anything is rendered, to write a scene's manifest over the manifest of a
 * different scene file (ManifestOfOtherSceneError naming both). A manifest without a recorded
 * scene file, or an unreadable one, may be replaced.
 */
export function checkManifestScene(manifestPath: string, sceneFile: string): void {
  if (!existsSync(manifestPath)) return;
  let recorded: unknown;
  try {
    recorded = JSON.parse(readFileSync(manifestPath, 'utf8')).scene_file;
  } catch {
    return;
  }
  if (typeof recorded !== 'string') return;
  const recordedPath = resolve(dirname(resolve(manifestPath)), recorded);
  if (recordedPath !== resolve(sceneFile)) throw new ManifestOfOtherSceneError(manifestPath, recordedPath, resolve(sceneFile));
}

/**
 * Writes the manifest atomically, unless the file on disk describes the same media: same
 * results apart from cache_hit and cache_hits. True when written. With `scene`, the manifest
 * records the scene file it describes (path and hash).
 */
export async function writeManifest(path: string, manifest: SceneManifest, scene?: ManifestScene): Promise<boolean> {
  // The last guard before the file: no credential leaves in it, whatever a provider answered.
  const text = withoutCredentials(manifestText(scene ? { ...manifest, ...scene } : manifest));
  if (existsSync(path)) {
    try {
      const current = JSON.parse(readFileSync(path, 'utf8'));
      if (JSON.stringify(substance(current)) === JSON.stringify(substance(JSON.parse(text)))) return false;
    } catch {
      // unreadable: replace it
    }
  }
  return writeIfChanged(path, text);
}

/**
 * Brings an unchanged output up to date for make: when `path` exists and one of `inputs` is
 * newer, its mtime is set to now (or later, to pass that input) without rewriting it. Otherwise a `make` rule whose input was
 * touched (content unchanged) would run again on every `make`. True when touched.
 */
export function touchIfOlder(path: string, inputs: string[]): boolean {
  if (!existsSync(path)) return false;
  const mtime = statSync(path).mtimeMs;
  const newest = Math.max(...inputs.map((input) => (existsSync(input) ? statSync(input).mtimeMs : 0)));
  if (newest <= mtime) return false;
  // Now, or the newest input's time when that lies in the future (clock skew, a touch -d).
  const when = new Date(Math.max(Date.now(), Math.ceil(newest)));
  utimesSync(path, when, when);
  return true;
}

function substance(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(substance);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) if (key !== 'cache_hit' && key !== 'cache_hits') out[key] = substance(v);
    return out;
  }
  return value;
}

/** The folder name of a scene's outputs: the title as manifestPathFor spells it. */
export function sceneFolderName(title: string): string {
  return title ? title.replace(/[ /]/g, '_') : 'scene';
}

/**
 * Places the scene's final assets under `<dir>/<title>/` with readable names — `shot-<id>.png`
 * (or `.mp4` for a clip), `beat-<id>.mp4` (or the audio's extension when there is no video).
 * Each is a copy of the durable asset, a reflink where the file system supports it (no extra
 * space), never a hard link: editing an output must not edit the cache. A placed file that
 * already holds the same bytes is left alone (its mtime too). Returns the paths placed.
 */
export async function placeAssets(manifest: SceneManifest, dir: string): Promise<string[]> {
  const folder = join(dir, sceneFolderName(manifest.title));
  const placed: string[] = [];
  const place = async (source: unknown, name: string) => {
    if (typeof source !== 'string' || source === '' || !existsSync(source)) return;
    makeFolderFor(join(folder, `${name}${extname(source)}`));
    const target = join(folder, `${name}${extname(source)}`);
    // The rename replaces an old hard link to the cache rather than writing through it.
    if (!sameBytes(target, source)) await writeAtomically(target, async (temp) => copyFileSync(source, temp, constants.COPYFILE_FICLONE));
    placed.push(target);
  };
  for (const shot of manifest.shots) await place((shot as { path?: string }).path, `shot-${safeId(shot.shot_id)}`);
  for (const beat of manifest.beats) {
    if ('beat_id' in beat && !('skipped' in beat)) await place((beat as { path?: string }).path, `beat-${safeId(beat.beat_id)}`);
  }
  return placed;
}

/** Creates the folder an output goes in; a folder that cannot be made is one typed line naming the output. */
function makeFolderFor(path: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    throw writeFailure(error, path) ?? error;
  }
}

/** Whether `target` is a separate file (not a hard link to `source`) with the same bytes. */
function sameBytes(target: string, source: string): boolean {
  if (!existsSync(target)) return false;
  const [a, b] = [statSync(target), statSync(source)];
  if (a.ino === b.ino && a.dev === b.dev) return false;
  return a.size === b.size && readFileSync(target).equals(readFileSync(source));
}

function safeId(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_');
}

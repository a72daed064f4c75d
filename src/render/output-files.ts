import { copyFileSync, existsSync, linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { writeAtomically } from '../io/atomic-file.js';
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
  mkdirSync(dirname(path), { recursive: true });
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
  mkdirSync(dirname(path), { recursive: true });
  let changed = false;
  const temp = join(dirname(path), `.${Date.now()}-${process.pid}-${Math.random().toString(36).slice(2)}${extname(path)}`);
  try {
    await write(temp);
    changed = !existsSync(path) || !readFileSync(path).equals(readFileSync(temp));
    if (changed && existsSync(path) && sameContent) changed = !(await sameContent(path, temp).catch(() => false));
    if (changed) await writeAtomically(path, async (atomicTemp) => copyFileSync(temp, atomicTemp));
  } finally {
    rmSync(temp, { force: true });
    rmSync(`${temp}-wal`, { force: true });
    rmSync(`${temp}-shm`, { force: true });
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

/**
 * Writes the manifest atomically, unless the file on disk describes the same media: same
 * results apart from cache_hit and cache_hits. True when written.
 */
export async function writeManifest(path: string, manifest: SceneManifest): Promise<boolean> {
  if (existsSync(path)) {
    try {
      const current = JSON.parse(readFileSync(path, 'utf8'));
      if (JSON.stringify(substance(current)) === JSON.stringify(substance(manifest))) return false;
    } catch {
      // unreadable: replace it
    }
  }
  return writeIfChanged(path, manifestText(manifest));
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
 * (or `.mp4` for a clip), `beat-<id>.mp4` (or the audio's extension when there is no video) —
 * by hard link to the durable copy, or by copy across file systems. Returns the paths placed.
 */
export function placeAssets(manifest: SceneManifest, dir: string): string[] {
  const folder = join(dir, sceneFolderName(manifest.title));
  const placed: string[] = [];
  const place = (source: unknown, name: string) => {
    if (typeof source !== 'string' || source === '' || !existsSync(source)) return;
    mkdirSync(folder, { recursive: true });
    const target = join(folder, `${name}${extname(source)}`);
    if (existsSync(target)) {
      const [a, b] = [statSync(target), statSync(source)];
      if (a.ino === b.ino && a.dev === b.dev) {
        placed.push(target);
        return;
      }
      rmSync(target, { force: true });
    }
    try {
      linkSync(source, target);
    } catch {
      copyFileSync(source, target);
    }
    placed.push(target);
  };
  for (const shot of manifest.shots) place((shot as { path?: string }).path, `shot-${safeId(shot.shot_id)}`);
  for (const beat of manifest.beats) if ('beat_id' in beat) place((beat as { path?: string }).path, `beat-${safeId(beat.beat_id)}`);
  return placed;
}

function safeId(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_');
}

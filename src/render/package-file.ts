import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The absolute path of a file shipped at the package root (e.g. `schemas/scene.json`). The
 * sources run from src/render/ under jest and from dist/src/render/ when built, so the depth
 * differs; we walk up from this module until the file is found.
 */
export function packageFile(relative: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, relative);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`annot is installed without ${relative}; reinstall the package.`);
    dir = parent;
  }
}

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The package's own `schemas/` folder. The sources run from `src/schemas/` (ts-jest) and the
 * build from `dist/src/schemas/`, so the folder is two or three levels up; we take the first
 * that holds `index.json` rather than trust one layout.
 */
let cachedDir: string | undefined;

export function packageSchemasDir(): string {
  if (cachedDir !== undefined) return cachedDir;
  for (const relative of ['../../schemas/', '../../../schemas/']) {
    const dir = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(`${dir}index.json`)) {
      cachedDir = dir;
      return dir;
    }
  }
  throw new Error(`annot's schemas/ folder was not found next to ${fileURLToPath(import.meta.url)}; the package is incomplete, reinstall it`);
}

/** Reads one JSON file of the package's schemas/ folder (synchronously: it is small and read once). */
export function readPackageSchema(relativePath: string): unknown {
  return JSON.parse(readFileSync(`${packageSchemasDir()}${relativePath}`, 'utf8'));
}

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultBodySchemaRegistry, type BodySchemaRegistry, type SchemaIndexEntry } from './registry.js';
import { parseBodySchemaUri } from './schema-uri.js';

/**
 * Writes every registered body schema to `<dir>/<name>/v<N>.json` (2-space JSON, trailing newline)
 * and `<dir>/index.json` mapping each URI to `{name, version, path}`: the same layout as the
 * package's own schemas/ folder, so an export of the built-ins reproduces it byte for byte.
 * Returns the written paths, index last.
 */
export async function exportJsonSchemas(dir: string, registry: BodySchemaRegistry = defaultBodySchemaRegistry()): Promise<string[]> {
  const written: string[] = [];
  const index: Record<string, SchemaIndexEntry> = {};
  for (const uri of registry.list()) {
    const { name, version } = parseBodySchemaUri(uri);
    const relative = `${name}/v${version}.json`;
    await mkdir(join(dir, name), { recursive: true });
    const path = join(dir, relative);
    await writeFile(path, `${JSON.stringify(registry.get(uri), null, 2)}\n`);
    written.push(path);
    index[uri] = { name, version, path: relative };
  }
  await mkdir(dir, { recursive: true });
  const indexPath = join(dir, 'index.json');
  await writeFile(indexPath, `${JSON.stringify(index, null, 2)}\n`);
  written.push(indexPath);
  return written;
}

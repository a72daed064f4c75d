import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJsonSchemas } from '../../src/schemas/export.js';
import { packageSchemasDir } from '../../src/schemas/package-schemas.js';
import { BodySchemaRegistry, defaultBodySchemaRegistry } from '../../src/schemas/registry.js';

describe('exportJsonSchemas', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'annot-schemas-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reproduces the package schemas/ folder byte for byte from the built-ins', async () => {
    const registry = new BodySchemaRegistry();
    const builtins = JSON.parse(await readFile(join(packageSchemasDir(), 'index.json'), 'utf8')) as Record<string, { path: string }>;
    for (const [uri, entry] of Object.entries(builtins)) {
      registry.register(uri, JSON.parse(await readFile(join(packageSchemasDir(), entry.path), 'utf8')) as object);
    }
    const written = await exportJsonSchemas(dir, registry);
    expect(written[written.length - 1]).toBe(join(dir, 'index.json'));
    for (const relative of ['index.json', ...Object.values(builtins).map((e) => e.path)]) {
      expect(await readFile(join(dir, relative), 'utf8')).toBe(await readFile(join(packageSchemasDir(), relative), 'utf8'));
    }
  });

  it('writes <name>/v<N>.json for every registered schema and an index of URIs to paths', async () => {
    const registry = new BodySchemaRegistry();
    registry.register('annot://schema/chord/v1', { type: 'object' });
    registry.register('annot://schema/chord/v2', { type: 'object', required: ['root'] });
    await exportJsonSchemas(dir, registry);
    expect((await readdir(join(dir, 'chord'))).sort()).toEqual(['v1.json', 'v2.json']);
    expect(JSON.parse(await readFile(join(dir, 'index.json'), 'utf8'))).toEqual({
      'annot://schema/chord/v1': { name: 'chord', version: 1, path: 'chord/v1.json' },
      'annot://schema/chord/v2': { name: 'chord', version: 2, path: 'chord/v2.json' },
    });
    expect(JSON.parse(await readFile(join(dir, 'chord/v2.json'), 'utf8'))).toEqual({ type: 'object', required: ['root'] });
  });

  it('exports the default registry when none is given', async () => {
    await exportJsonSchemas(dir);
    const index = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8')) as object;
    expect(Object.keys(index)).toEqual(defaultBodySchemaRegistry().list());
  });
});

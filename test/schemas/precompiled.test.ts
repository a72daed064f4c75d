import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { canonicalJson } from '../../src/json/canonical-json.js';
import { createAjv, issuesFromAjv } from '../../src/schemas/ajv.js';

// The build compiles every built-in schema into standalone code (scripts/build-validators.js);
// `npm test` builds first. Each compiled validator must judge bodies exactly as ajv compiling the
// schema at run time does: same verdict, same issues (paths and messages).

const GENERATED = fileURLToPath(new URL('../../dist/src/schemas/generated/validators.cjs', import.meta.url));
const SCHEMAS = fileURLToPath(new URL('../../schemas/', import.meta.url));

const read = (path: string): Record<string, unknown> => JSON.parse(readFileSync(SCHEMAS + path, 'utf8')) as Record<string, unknown>;
const index = read('index.json') as Record<string, { path: string }>;
const sources: Array<[string, Record<string, unknown>]> = [
  ['annotation.json', read('annotation.json')],
  ['tier.json', read('tier.json')],
  ...Object.entries(index).map(([uri, entry]): [string, Record<string, unknown>] => [uri, read(entry.path)]),
];

/** Bodies that exercise required fields, types, extra properties, formats and nesting. */
const BODIES: unknown[] = [
  {}, [], null, 'text', 7,
  { text: 'hello' }, { text: 5 }, { text: 'a', extra: true }, { text: '' },
  { label: 'verse', title: 'x', energy: 0.5, mood: 'calm', more: [1, 2] }, { label: 3 },
  { name: 'chorus' }, { value: 'A:7(b9)' }, { value: { a: 1 } }, { start: 'x', end: null },
  { id: 'x', tier: 'words', reference: { kind: 'media', asset_id: 'a', interval: { start: { v: 1, r: 1000 }, end: { v: 2, r: 1000, s: '0.002' } } }, body: {}, body_schema_uri: 'annot://schema/label/v1', provenance: { was_generated_by: 'x', was_attributed_to: 'y', was_derived_from: [], generated_at_time: { v: 1, r: 1 } }, confidence: null },
  { name: 'words', stereotype: 'None', parent: null, metadata: {} },
  { name: 'words', stereotype: 'Bogus' },
  { decision: 'approve', target_id: '00000000-0000-4000-8000-000000000001' },
  { entity: 'Mara', type: 'PER', extra: [{}] },
];

describe('validators compiled by the build', () => {
  // Missing validators fail every case here rather than skipping them: a build that stopped
  // writing them would otherwise pass unseen.
  let compiled: Record<string, unknown> & { canonical: Record<string, string> };
  beforeAll(() => {
    if (!existsSync(GENERATED)) throw new Error(`${GENERATED} is missing: the build writes it (npm run build; npm test builds first)`);
    compiled = createRequire(import.meta.url)(GENERATED) as typeof compiled;
  });

  it('cover every built-in schema, each with the canonical JSON it was compiled from', () => {
    expect(Object.keys(compiled.canonical).sort()).toEqual(sources.map(([key]) => key).sort());
    for (const [key, schema] of sources) {
      expect(typeof compiled[key]).toBe('function');
      expect(compiled.canonical[key]).toBe(canonicalJson(schema, 'schema'));
    }
  });

  it.each(sources.map(([key, schema]) => [key, schema] as const))('%s judges every body as the run-time compile does', (key, schema) => {
    const runtime = createAjv().compile(schema);
    const built = compiled[key] as ValidateFunction;
    for (const body of BODIES) {
      const expected = runtime(body);
      expect(built(body)).toBe(expected);
      expect(issuesFromAjv(built.errors, 'body')).toEqual(issuesFromAjv(runtime.errors, 'body'));
    }
  });
});

import { buildApp } from '../../src/server/app.js';
import { AnnotationService } from '../../src/service/annotation-service.js';
import { MemoryStore } from '../../src/store/memory.js';
import { startTestServer, type TestServer } from './http-client.js';

type Doc = { openapi: string; paths: Record<string, Record<string, unknown>>; components: Record<string, Record<string, unknown>> };

describe('/openapi.json', () => {
  let t: TestServer;
  let doc: Doc;
  beforeAll(async () => {
    t = await startTestServer();
    doc = (await t.call('GET', '/openapi.json')).json;
  });
  afterAll(() => t.close());

  it('is an OpenAPI 3.1 document', () => {
    expect(doc.openapi).toBe('3.1.0');
  });

  it('lists exactly the routes the server serves', async () => {
    const app = await buildApp({ service: new AnnotationService(new MemoryStore()), log: () => {} });
    try {
      const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.keys(item).filter((key) => key !== 'parameters').map((method) => ({ method: method.toUpperCase(), url: path.replace('{uri}', '*').replace(/\{(\w+)\}/g, ':$1') })),
      );
      for (const route of documented) expect([route, app.hasRoute(route)]).toEqual([route, true]);
      // Every method fastify serves (HEAD is its automatic twin of GET) is a documented one; the /docs
      // page's own routes (registered last) are not part of the API.
      const api = withoutDocsSubtree(app.printRoutes({ commonPrefix: false }));
      const served = [...api.matchAll(/\(([A-Z, ]+)\)/g)].flatMap((m) => m[1].split(', ')).filter((m) => m !== 'HEAD');
      expect(served).toHaveLength(documented.length);
      expect(documented).toHaveLength(27);
    } finally {
      await app.close();
    }
  });

  it('takes the annotation and tier schemas from schemas/ itself, with every $ref resolvable', () => {
    const schemas = doc.components.schemas as Record<string, Record<string, unknown>>;
    expect(schemas.Annotation.title).toBe('Annotation (wire form)');
    expect(schemas.Annotation.additionalProperties).toBe(false);
    expect(schemas.AnnotationInput.required).toEqual(['tier', 'reference', 'body', 'body_schema_uri']);
    expect(schemas.Tier.required).toEqual(['name', 'stereotype']);
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) {
      const pointer = ref.slice(8, -1);
      expect(pointer.startsWith('#/')).toBe(true);
      let node: unknown = doc;
      for (const part of pointer.slice(2).split('/')) node = (node as Record<string, unknown>)?.[part];
      expect([pointer, node === undefined]).toEqual([pointer, false]);
    }
  });

  it('describes the error shape every failure answers with', () => {
    const error = (doc.components.schemas as Record<string, { properties: Record<string, { required: string[] }> }>).Error;
    expect(error.properties.error.required).toEqual(['code', 'message']);
  });
});

/** printRoutes' tree without the `docs` node and the nodes indented under it. */
function withoutDocsSubtree(tree: string): string {
  const lines = tree.split('\n');
  const depth = (line: string) => line.search(/[^│ ├└─]/);
  const start = lines.findIndex((line) => /[├└]── docs \(/.test(line));
  expect(start).toBeGreaterThan(0);
  let end = start + 1;
  while (end < lines.length && depth(lines[end]) > depth(lines[start])) end++;
  expect(end - start).toBeGreaterThan(3);
  return [...lines.slice(0, start), ...lines.slice(end)].join('\n');
}

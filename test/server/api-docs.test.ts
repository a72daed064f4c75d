import { startTestServer, type TestServer } from './http-client.js';

/** The /docs page: Swagger UI over the OpenAPI document, every file served by the server itself. */
describe('/docs', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('is an HTML page whose scripts, styles and icons all come from the server, with no network', async () => {
    for (const page of ['/docs', '/docs/']) {
      const response = await fetch(`${t.url}${page}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await response.text();
      const links = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
      expect(links.length).toBeGreaterThanOrEqual(5);
      for (const link of links) {
        const url = new URL(link, `${t.url}${page}`);
        expect([link, url.origin]).toEqual([link, t.url]);
        const asset = await fetch(url);
        expect([link, asset.status]).toEqual([link, 200]);
        expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(0);
      }
    }
  });

  it('loads the document from the server and tells the browser to fetch nothing elsewhere', async () => {
    const response = await fetch(`${t.url}/docs/static/swagger-initializer.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'self'.*script-src 'self'/);
    const script = await response.text();
    expect(script).toContain("url: resolveUrl('./json')");
    expect(script).toMatch(/validatorUrl":\s*null/);
    const [document, openapi] = await Promise.all([t.call('GET', '/docs/json'), t.call('GET', '/openapi.json')]);
    expect(document.status).toBe(200);
    expect(document.json).toEqual(openapi.json);
  });
});

import { startTestServer, wordInput, WORDS_TIER, type TestServer } from './http-client.js';

describe('HTTP bearer token', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ token: 's3cret' });
  });
  afterAll(() => t.close());

  it('leaves /health open', async () => {
    expect((await t.call('GET', '/health')).status).toBe(200);
  });

  it('answers 401 with WWW-Authenticate on every other route without the token, before reading the body', async () => {
    for (const [method, path] of [['GET', '/tiers'], ['GET', '/openapi.json'], ['POST', '/annotations'], ['GET', '/nowhere'], ['POST', '/import']]) {
      const answer = await t.call(method, path, method === 'POST' ? { json: {} } : {});
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="annot"');
      expect(answer.json.error.code).toBe('ANNOT_UNAUTHORIZED');
    }
  });

  it('answers 401 with error="invalid_token" for a wrong token or another scheme', async () => {
    for (const authorization of ['Bearer nope', 'Bearer s3cret2', 'Basic czNjcmV0', 's3cret']) {
      const answer = await t.call('GET', '/tiers', { headers: { authorization } });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="annot", error="invalid_token"');
    }
  });

  it('serves every route with the right token', async () => {
    const authorization = 'Bearer s3cret';
    expect((await t.call('POST', '/tiers', { json: WORDS_TIER, headers: { authorization } })).status).toBe(201);
    expect((await t.call('GET', '/tiers', { headers: { authorization } })).json).toHaveLength(1);
  });
});

describe('HTTP body limits', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ maxBodyBytes: 2048 });
    await t.call('POST', '/tiers', { json: WORDS_TIER });
  });
  afterAll(() => t.close());

  it('answers 413 in the error shape for a JSON body over --max-body, and changes nothing', async () => {
    const answer = await t.call('POST', '/annotations', { json: wordInput('x'.repeat(4000), 0, 1) });
    expect(answer.status).toBe(413);
    expect(answer.json.error).toMatchObject({ code: 'ANNOT_BODY_TOO_LARGE', details: { limit_bytes: 2048 } });
    expect((await t.call('GET', '/oplog/latest-clock')).json.clock).toBe(1);
  });

  it('takes a body just under the limit', async () => {
    expect((await t.call('POST', '/annotations', { json: wordInput('x'.repeat(1500), 0, 1) })).status).toBe(201);
  });

  it('never answers with a stack trace, even for a prototype-poisoning body', async () => {
    const answer = await t.call('POST', '/annotations', { body: '{"__proto__": {"x": 1}}', headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(400);
    expect(answer.text).not.toMatch(/\bat .*\.(js|ts):\d+/);
  });
});

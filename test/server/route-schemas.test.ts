import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { mountMcpOverHttp } from '../../src/mcp/http.js';
import { LIMITS } from '../../src/model/limits.js';
import { isDocsRoute } from '../../src/server/api-docs.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { tempDir } from '../support/sample-annot.js';
import { toneSamples, wavBytes } from '../support/wav.js';
import { WORDS_TIER, wordInput } from './http-client.js';

/**
 * Every route the app registers against the OpenAPI document @fastify/swagger generates from the
 * routes' schemas: each is documented with its method; real requests over loopback HTTP (on a
 * store filled by importing fixtures/talk.vtt) answer with a documented status, media type and a
 * body that validates against the documented schema; the documented request schemas accept the
 * requests that work; and requests that violate them are refused with a 4xx.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Request {
  readonly method: string;
  /** Path and query string. */
  readonly path: string;
  readonly json?: unknown;
  readonly body?: RequestInit['body'];
  readonly headers?: Record<string, string>;
}

interface State {
  /** An annotation that stays, and its current ETag. */
  id: string;
  etag: string;
  /** An annotation the DELETE case removes. */
  doomedId: string;
  doomedEtag: string;
}

interface Case {
  /** The route as fastify knows it: `METHOD /path/:param`. */
  readonly route: string;
  readonly status: number;
  readonly request: (state: State) => Request;
  /** Remembers what later cases need. */
  readonly then?: (state: State, answer: Answer) => void;
}

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

const MEDIA = 'fixtures/talk.vtt';
const VTT = readFileSync(MEDIA);
/** The media the server plays and draws the waveform of: a second of tone, in a folder of the test's own with its cache folder. */
const scratch = tempDir();
const AUDIO = join(scratch.dir, 'tone.wav');
writeFileSync(AUDIO, wavBytes(toneSamples(1, 8000), 8000));
const LIVE = { media: AUDIO, cacheDir: join(scratch.dir, 'cache') };
const MCP_ACCEPT = { accept: 'application/json, text/event-stream' };
const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'route-schemas-test', version: '1.0.0' } } };
const get = (path: string, headers?: Record<string, string>): Request => ({ method: 'GET', path, headers });
const post = (path: string, json: unknown, headers?: Record<string, string>): Request => ({ method: 'POST', path, json, headers });
const timed = (start: unknown, end: unknown, extra: Json = {}): Json => {
  const input = wordInput('w', 0, 1, extra);
  return { ...input, reference: { kind: 'media', asset_id: 'talk.wav', interval: { start, end } } };
};
function multipart(field: string): FormData {
  const form = new FormData();
  form.append(field, new Blob([VTT], { type: 'text/vtt' }), 'talk.vtt');
  return form;
}

/** Requests in order (later ones use what earlier ones created); every route has at least one 2xx. */
const CASES: Case[] = [
  { route: 'GET /health', status: 200, request: () => get('/health') },
  { route: 'GET /openapi.json', status: 200, request: () => get('/openapi.json') },
  { route: 'POST /import', status: 201, request: () => ({ method: 'POST', path: '/import', body: VTT, headers: { 'content-type': 'text/vtt' } }) },
  { route: 'POST /import', status: 201, request: () => ({ method: 'POST', path: '/import?format=webvtt&tier=cues2&rate=1000', body: multipart('file') }) },
  { route: 'POST /import', status: 400, request: () => ({ method: 'POST', path: '/import', body: multipart('upload') }) },
  { route: 'POST /import', status: 400, request: () => ({ method: 'POST', path: '/import?format=nope', body: VTT }) },
  { route: 'GET /tiers', status: 200, request: () => get('/tiers') },
  { route: 'POST /tiers', status: 201, request: () => post('/tiers', WORDS_TIER, { 'x-actor': 'tester' }) },
  { route: 'POST /tiers', status: 200, request: () => post('/tiers', WORDS_TIER) },
  { route: 'POST /tiers', status: 422, request: () => post('/tiers', { name: 'x', stereotype: 'NOPE' }) },
  { route: 'POST /tiers', status: 422, request: () => post('/tiers', { name: 'x'.repeat(LIMITS.nameChars + 1), stereotype: 'NONE' }) },
  { route: 'GET /tiers/:name', status: 200, request: () => get('/tiers/words') },
  { route: 'GET /tiers/:name', status: 404, request: () => get('/tiers/nope') },
  // A name at the length limit fits in a path (fastify's default of 100 characters answered 414).
  { route: 'GET /tiers/:name', status: 404, request: () => get(`/tiers/${encodeURIComponent('\u00e9'.repeat(LIMITS.nameChars))}`) },
  ...[
    ['seconds', '1.5', 2],
    ['timecode', '00:00:02.250', '00:00:03,5'],
    ['{v, r, s}', { v: 4, r: 1, s: '4' }, { v: 9, r: 2 }],
    ['a ratio and an exponent', '9/2', ' 5e0 '],
  ].map(([, start, end]): Case => ({
    route: 'POST /annotations',
    status: 201,
    request: () => post('/annotations', timed(start, end)),
    then: (state, answer) => {
      state.doomedId = state.id;
      state.doomedEtag = state.etag;
      state.id = JSON.parse(answer.text).id;
      state.etag = answer.headers.get('etag')!;
    },
  })),
  { route: 'POST /annotations', status: 201, request: () => post('/annotations?fps=25&rate=25', timed('00:00:05:10', '00:00:06:00')) },
  { route: 'POST /annotations', status: 409, request: (s) => post('/annotations', { ...wordInput('dup', 0, 1), id: s.id }) },
  { route: 'POST /annotations', status: 422, request: () => post('/annotations', wordInput('x', 0, 1, { confidence: 2 })) },
  { route: 'POST /annotations', status: 422, request: () => post('/annotations', wordInput('x', 0, 1, { tier: 't'.repeat(LIMITS.nameChars + 1) })) },
  { route: 'POST /annotations', status: 400, request: () => ({ method: 'POST', path: '/annotations', body: '{"tier":', headers: { 'content-type': 'application/json' } }) },
  { route: 'POST /annotations', status: 415, request: () => ({ method: 'POST', path: '/annotations', body: 'hello', headers: { 'content-type': 'text/plain' } }) },
  { route: 'POST /annotations', status: 413, request: () => post('/annotations', wordInput('x'.repeat(2 * 1024 * 1024), 0, 1)) },
  { route: 'GET /annotations', status: 200, request: () => get('/annotations') },
  { route: 'GET /annotations', status: 200, request: () => get('/annotations?tier=words&start=1&end=00:00:04.000&relation=overlaps&limit=1') },
  { route: 'GET /annotations', status: 200, request: () => get('/annotations?start=0&end=10&relation=DI') },
  { route: 'GET /annotations', status: 400, request: () => get('/annotations?start=0&end=10&relation=nope') },
  { route: 'GET /annotations', status: 400, request: () => get('/annotations?limit=0') },
  { route: 'GET /annotations', status: 400, request: () => get('/annotations?after=nonsense') },
  { route: 'GET /annotations', status: 404, request: () => get('/annotations?tier=nowhere') },
  { route: 'GET /annotations/:id', status: 200, request: (s) => get(`/annotations/${s.id}`) },
  { route: 'GET /annotations/:id', status: 304, request: (s) => get(`/annotations/${s.id}`, { 'if-none-match': s.etag }) },
  { route: 'GET /annotations/:id', status: 404, request: () => get('/annotations/00000000-0000-4000-8000-000000000000') },
  {
    route: 'PATCH /annotations/:id',
    status: 200,
    request: (s) => ({ method: 'PATCH', path: `/annotations/${s.id}`, json: { body: { text: 'patched' }, confidence: 0.5 }, headers: { 'if-match': s.etag } }),
    then: (state, answer) => {
      state.etag = answer.headers.get('etag')!;
    },
  },
  { route: 'PATCH /annotations/:id', status: 200, request: (s) => ({ method: 'PATCH', path: `/annotations/${s.id}?rate=1000`, json: { reference: { kind: 'media', asset_id: 'talk.wav', interval: { start: '0.5', end: '00:01.5' } } }, headers: { 'if-match': s.etag } }), then: (state, answer) => { state.etag = answer.headers.get('etag')!; } },
  { route: 'PATCH /annotations/:id', status: 412, request: (s) => ({ method: 'PATCH', path: `/annotations/${s.id}`, json: { confidence: 0.1 }, headers: { 'if-match': '"stale"' } }) },
  { route: 'PATCH /annotations/:id', status: 428, request: (s) => ({ method: 'PATCH', path: `/annotations/${s.id}`, json: { confidence: 0.1 } }) },
  { route: 'PATCH /annotations/:id', status: 422, request: (s) => ({ method: 'PATCH', path: `/annotations/${s.id}`, json: { id: s.id }, headers: { 'if-match': s.etag } }) },
  {
    route: 'PATCH /annotations',
    status: 200,
    request: (s) => ({ method: 'PATCH', path: '/annotations?rate=1000', json: { updates: [{ id: s.id, if_match: s.etag, patch: { confidence: 0.7, reference: { kind: 'media', asset_id: 'talk.wav', interval: { start: '0.5', end: '1.75' } } } }] } }),
    then: (state, answer) => {
      state.etag = JSON.parse(answer.text).updated[0].etag;
    },
  },
  { route: 'PATCH /annotations', status: 200, request: () => ({ method: 'PATCH', path: '/annotations', json: { creates: [timed('7', '8')] } }) },
  { route: 'PATCH /annotations', status: 412, request: (s) => ({ method: 'PATCH', path: '/annotations', json: { updates: [{ id: s.id, if_match: '"stale"', patch: { confidence: 0.1 } }] } }) },
  { route: 'PATCH /annotations', status: 428, request: (s) => ({ method: 'PATCH', path: '/annotations', json: { updates: [{ id: s.id, patch: { confidence: 0.1 } }] } }) },
  { route: 'PATCH /annotations', status: 400, request: () => ({ method: 'PATCH', path: '/annotations', json: { updates: [] } }) },
  { route: 'PATCH /annotations', status: 404, request: (s) => ({ method: 'PATCH', path: '/annotations', json: { updates: [{ id: '00000000-0000-4000-8000-000000000000', if_match: s.etag, patch: { confidence: 0.1 } }] } }) },
  { route: 'DELETE /annotations/:id', status: 428, request: (s) => ({ method: 'DELETE', path: `/annotations/${s.doomedId}` }) },
  { route: 'DELETE /annotations/:id', status: 412, request: (s) => ({ method: 'DELETE', path: `/annotations/${s.doomedId}`, headers: { 'if-match': '"stale"' } }) },
  { route: 'DELETE /annotations/:id', status: 204, request: (s) => ({ method: 'DELETE', path: `/annotations/${s.doomedId}`, headers: { 'if-match': s.doomedEtag } }) },
  { route: 'DELETE /annotations/:id', status: 404, request: (s) => ({ method: 'DELETE', path: `/annotations/${s.doomedId}`, headers: { 'if-match': s.doomedEtag } }) },
  { route: 'GET /export', status: 200, request: () => get('/export?format=webvtt') },
  { route: 'GET /export', status: 200, request: () => get('/export?format=web_annotation') },
  { route: 'GET /export', status: 400, request: () => get('/export') },
  { route: 'GET /formats', status: 200, request: () => get('/formats') },
  { route: 'GET /schemas', status: 200, request: () => get('/schemas') },
  { route: 'GET /schemas/*', status: 200, request: () => get('/schemas/annot://schema/word/v1') },
  { route: 'GET /schemas/*', status: 200, request: () => get(`/schemas/${encodeURIComponent('annot://schema/word/v1')}`) },
  { route: 'GET /schemas/*', status: 404, request: () => get('/schemas/annot://schema/nope/v1') },
  { route: 'PUT /meta/:key', status: 200, request: () => ({ method: 'PUT', path: '/meta/project', json: { value: 'harbour' } }) },
  { route: 'PUT /meta/:key', status: 422, request: () => ({ method: 'PUT', path: '/meta/project', json: { value: 1 } }) },
  { route: 'PUT /meta/:key', status: 400, request: () => ({ method: 'PUT', path: `/meta/${'k'.repeat(LIMITS.nameChars + 1)}`, json: { value: 'v' } }) },
  { route: 'GET /meta', status: 200, request: () => get('/meta') },
  { route: 'GET /oplog', status: 200, request: () => get('/oplog?from_clock=1&limit=5') },
  { route: 'GET /oplog/latest-clock', status: 200, request: () => get('/oplog/latest-clock') },
  { route: 'GET /state-at', status: 200, request: () => get('/state-at?clock=3') },
  { route: 'GET /state-at', status: 400, request: () => get('/state-at') },
  { route: 'GET /oplog/stream', status: 200, request: () => get('/oplog/stream?from_clock=1', { accept: 'text/event-stream' }) },
  { route: 'GET /oplog/stream', status: 400, request: () => get('/oplog/stream', { 'last-event-id': 'x' }) },
  { route: 'GET /media', status: 200, request: () => get('/media') },
  { route: 'GET /media', status: 206, request: () => get('/media', { range: 'bytes=0-9' }) },
  { route: 'GET /media', status: 416, request: () => get('/media', { range: 'bytes=999999-' }) },
  { route: 'GET /media/peaks', status: 200, request: () => get('/media/peaks?pixels_per_second=100') },
  { route: 'GET /media/peaks', status: 200, request: () => get('/media/peaks?samples_per_pixel=64&bits=16&format=dat') },
  { route: 'GET /media/peaks', status: 400, request: () => get('/media/peaks?bits=3') },
  { route: 'POST /retime', status: 200, request: () => ({ method: 'POST', path: '/retime', json: { shift: '0.5', tier: 'words', strict: true } }) },
  { route: 'POST /retime', status: 200, request: () => ({ method: 'POST', path: '/retime', json: { fps_from: '24000/1001', fps_to: 25, within: ['0', { v: 3600, r: 1 }] } }) },
  { route: 'POST /retime', status: 200, request: () => ({ method: 'POST', path: '/retime', json: {} }) },
  { route: 'POST /retime', status: 400, request: () => ({ method: 'POST', path: '/retime', json: { fps_from: 'fast', fps_to: 25 } }) },
  { route: 'POST /retime', status: 400, request: () => ({ method: 'POST', path: '/retime', json: { shift: true } }) },
  { route: 'POST /retime', status: 404, request: () => ({ method: 'POST', path: '/retime', json: { shift: 1, tier: 'nowhere' } }) },
  { route: 'POST /retime', status: 422, request: () => ({ method: 'POST', path: '/retime', json: { shift: '-100000', strict: true } }) },
  { route: 'GET /', status: 200, request: () => get('/') },
  { route: 'GET /page/:file', status: 200, request: () => get('/page/app.js') },
  { route: 'GET /page/:file', status: 404, request: () => get('/page/nope.js') },
  { route: 'POST /mcp', status: 200, request: () => post('/mcp', INITIALIZE, MCP_ACCEPT) },
  { route: 'GET /mcp', status: 405, request: () => get('/mcp') },
  { route: 'DELETE /mcp', status: 405, request: () => ({ method: 'DELETE', path: '/mcp' }) },
];

describe('every route against its documented schema', () => {
  let server: RunningServer;
  let doc: Json;
  let ajv: Ajv2020;
  const state: State = { id: '', etag: '', doomedId: '', doomedEtag: '' };

  beforeAll(async () => {
    server = await startServer({ store: await SqliteStore.open(':memory:'), log: () => {}, live: LIVE, mountMcp: mountMcpOverHttp });
    doc = JSON.parse((await send({ method: 'GET', path: '/openapi.json' })).text);
    // The document as one schema: each check refers into it, and its $refs resolve inside it.
    ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema(doc, 'openapi.json');
  });
  afterAll(async () => {
    await server.close();
    scratch.cleanup();
  });

  async function send(request: Request): Promise<Answer> {
    const init: RequestInit = { method: request.method, headers: { ...request.headers } };
    if (request.json !== undefined) {
      init.body = JSON.stringify(request.json);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    } else if (request.body !== undefined) {
      init.body = request.body;
    }
    const abort = new AbortController();
    const response = await fetch(server.url + request.path, { ...init, signal: abort.signal });
    // An event stream never ends: its status and headers are what there is to check.
    if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      const first = await response.body!.getReader().read();
      abort.abort();
      return { status: response.status, headers: response.headers, text: new TextDecoder().decode(first.value) };
    }
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  /** A schema with its $ref (`#/components/schemas/...`) followed, once. */
  function resolved(schema: Json | undefined): Json | undefined {
    if (schema?.$ref === undefined || !String(schema.$ref).startsWith('#/')) return schema;
    return String(schema.$ref).slice(2).split('/').reduce((node: Json, key: string) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc) as Json;
  }

  it('states the limits on names and texts in the document, as the model holds them (LIMITS)', () => {
    const tier = resolved(operationOf('POST /tiers').operation.requestBody.content['application/json'].schema)!;
    expect(tier.properties.name.maxLength).toBe(LIMITS.nameChars);
    expect(tier.properties.parent.maxLength).toBe(LIMITS.nameChars);
    const meta = operationOf('PUT /meta/:key').operation;
    expect(meta.parameters.find((p: Json) => p.name === 'key').schema.maxLength).toBe(LIMITS.nameChars);
    expect(resolved(meta.requestBody.content['application/json'].schema)!.properties.value.maxLength).toBe(LIMITS.metaValueChars);
    const annotation = JSON.stringify(doc.components.schemas);
    expect(annotation).toContain(`"maxLength":${LIMITS.idChars}`);
    expect(annotation).toContain('a JSON object of at most 1 MiB (1,048,576 characters) as JSON text');
  });

  /** The document's operation for a fastify route (`GET /annotations/:id`). */
  function operationOf(route: string): { pointer: string; operation: Json } {
    const [method, url] = route.split(' ');
    const path = url.replace('/schemas/*', '/schemas/{uri}').replace(/:(\w+)/g, '{$1}');
    const operation = doc.paths[path]?.[method.toLowerCase()];
    return { pointer: `openapi.json#/paths/${pointerSegment(path)}/${method.toLowerCase()}`, operation };
  }

  function valid(pointer: string, value: unknown): string[] {
    const validate = ajv.getSchema(pointer) ?? ajv.compile({ $ref: pointer });
    return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
  }

  it('documents every route the app registers, with its method, and nothing else', () => {
    const registered = registeredRoutes(server.app.printRoutes({ commonPrefix: false })).filter((route) => !isDocsRoute(route.split(' ')[1]));
    expect(registered.length).toBe(30);
    for (const route of registered) expect([route, operationOf(route).operation !== undefined]).toEqual([route, true]);
    const documented = Object.values(doc.paths as Json).reduce((count: number, item: Json) => count + Object.keys(item).length, 0);
    expect(documented).toBe(registered.length);
    // Every registered route has a request below, so a new route cannot go unchecked.
    const covered = new Set(CASES.map((c) => c.route));
    for (const route of registered) expect([route, covered.has(route)]).toEqual([route, true]);
  });

  it('answers real requests with a documented status, media type and body, and the requests fit their documented schemas', async () => {
    for (const testCase of CASES) {
      const request = testCase.request(state);
      const answer = await send(request);
      const label = `${testCase.route} ${request.path} → ${answer.status}`;
      expect([label, answer.status]).toEqual([label, testCase.status]);
      testCase.then?.(state, answer);

      const { pointer, operation } = operationOf(testCase.route);
      const response = operation.responses[String(answer.status)];
      expect([label, response !== undefined]).toEqual([label, true]);
      const contentType = (answer.headers.get('content-type') ?? '').split(';')[0].trim();
      if (response.content === undefined) {
        expect([label, answer.text]).toEqual([label, '']);
        continue;
      }
      const documentedType = contentType in response.content ? contentType : '*/*';
      expect([label, contentType, documentedType in response.content]).toEqual([label, contentType, true]);
      const schemaPointer = `${pointer}/responses/${answer.status}/content/${pointerSegment(documentedType)}/schema`;
      if (contentType === 'application/json') expect([label, valid(schemaPointer, JSON.parse(answer.text))]).toEqual([label, []]);
      for (const [name, header] of Object.entries((response.headers ?? {}) as Json)) {
        const value = answer.headers.get(name);
        if (value !== null) expect([label, name, valid(`${schemaPointer.split('/content/')[0]}/headers/${pointerSegment(name)}/schema`, headerValue(value, header.schema))]).toEqual([label, name, []]);
      }

      // What works fits the documented request: body and query parameters.
      if (testCase.status < 300) {
        const mediaType = request.json !== undefined ? 'application/json' : undefined;
        if (mediaType) expect([label, valid(`${pointer}/requestBody/content/${pointerSegment(mediaType)}/schema`, request.json)]).toEqual([label, []]);
        const query = new URL(request.path, server.url).searchParams;
        const parameters = (operation.parameters ?? []) as Json[];
        for (const [name, value] of query) {
          const index = parameters.findIndex((parameter) => parameter.in === 'query' && parameter.name === name);
          expect([label, name, index >= 0]).toEqual([label, name, true]);
          expect([label, name, valid(`${pointer}/parameters/${index}/schema`, headerValue(value, parameters[index].schema))]).toEqual([label, name, []]);
        }
      }
    }
  });

  it('needs the bearer token exactly where the document says so (security), answering 401 as documented', async () => {
    const guarded = await startServer({ store: await SqliteStore.open(':memory:'), log: () => {}, live: LIVE, mountMcp: mountMcpOverHttp, token: 's3cret' });
    try {
      for (const route of new Set(CASES.map((c) => c.route))) {
        const request = baseCase(route).request(state);
        const response = await fetch(guarded.url + request.path, { method: request.method, headers: request.headers, body: request.json !== undefined ? JSON.stringify(request.json) : request.body });
        const text = await response.text();
        const { pointer, operation } = operationOf(route);
        const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
        expect([route, response.status === 401]).toEqual([route, !isPublic]);
        if (response.status === 401) expect([route, valid(`${pointer}/responses/401/content/application~1json/schema`, JSON.parse(text))]).toEqual([route, []]);
      }
    } finally {
      await guarded.close();
    }
  });

  it('refuses with a 4xx every request that breaks its documented schema', async () => {
    const violations: Array<{ label: string; request: Request }> = [];
    for (const route of new Set(CASES.map((c) => c.route))) {
      const base = baseCase(route);
      const { operation } = operationOf(route);
      const parameters = (operation.parameters ?? []) as Json[];
      const request = (): Request => base.request(state);
      const withQuery = (name: string, value: string | undefined): Request => {
        const original = request();
        const url = new URL(original.path, server.url);
        if (value === undefined) url.searchParams.delete(name);
        else url.searchParams.set(name, value);
        return { ...original, path: `${url.pathname}${url.search}` };
      };
      const query = parameters.filter((parameter) => parameter.in === 'query');
      if (query.length > 0) {
        violations.push({ label: `${route} with an unknown query parameter`, request: withQuery('no_such_parameter', '1') });
        for (const parameter of query) {
          if (parameter.schema.type === 'integer') violations.push({ label: `${route} ?${parameter.name}=x`, request: withQuery(parameter.name, 'x') });
          if (parameter.schema.type === 'integer' && parameter.schema.minimum > 0) violations.push({ label: `${route} ?${parameter.name} below its minimum`, request: withQuery(parameter.name, String(parameter.schema.minimum - 1)) });
          if (parameter.schema.enum) violations.push({ label: `${route} ?${parameter.name} outside its enum`, request: withQuery(parameter.name, 'nope') });
          if (parameter.required) violations.push({ label: `${route} without ?${parameter.name}`, request: withQuery(parameter.name, undefined) });
        }
      }
      for (const parameter of parameters.filter((p) => p.in === 'path' && (p.schema.pattern !== undefined || p.schema.$ref !== undefined))) {
        const original = request();
        const segments = original.path.split('?')[0].split('/');
        segments[route.split(' ')[1].split('/').indexOf(`:${parameter.name}`)] = 'Not%20Valid';
        violations.push({ label: `${route} with a path parameter ${parameter.name} outside its schema`, request: { ...original, path: segments.join('/') } });
      }
      for (const parameter of parameters.filter((p) => p.in === 'header' && p.required)) {
        const original = request();
        const headers = Object.fromEntries(Object.entries(original.headers ?? {}).filter(([name]) => name.toLowerCase() !== parameter.name.toLowerCase()));
        violations.push({ label: `${route} without the ${parameter.name} header`, request: { ...original, headers } });
      }
      for (const parameter of parameters.filter((p) => p.in === 'header' && p.schema.maxLength !== undefined)) {
        const original = request();
        violations.push({ label: `${route} with a too long ${parameter.name} header`, request: { ...original, headers: { ...original.headers, [parameter.name]: 'x'.repeat(parameter.schema.maxLength + 1) } } });
      }
      for (const parameter of parameters.filter((p) => p.in === 'path' && p.schema.maxLength !== undefined)) {
        const original = request();
        const segments = original.path.split('?')[0].split('/');
        segments[route.split(' ')[1].split('/').indexOf(`:${parameter.name}`)] = 'x'.repeat(parameter.schema.maxLength + 1);
        violations.push({ label: `${route} with a too long path parameter ${parameter.name}`, request: { ...original, path: segments.join('/') } });
      }
      const content = operation.requestBody?.content ?? {};
      if ('application/json' in content) violations.push({ label: `${route} with a JSON body that is not an object`, request: { ...request(), json: ['not', 'an', 'object'] } });
      const bodyProperties = (resolved(content['application/json']?.schema)?.properties ?? {}) as Json;
      for (const [name, property] of Object.entries(bodyProperties)) {
        const { maxLength } = resolved(property) ?? {};
        const original = request();
        if (maxLength === undefined || typeof (original.json as Json | undefined)?.[name] !== 'string') continue;
        violations.push({ label: `${route} with a too long body field ${name}`, request: { ...original, json: { ...(original.json as Json), [name]: 'x'.repeat(maxLength + 1) } } });
      }
      if ('multipart/form-data' in content) violations.push({ label: `${route} multipart without its required field`, request: { ...request(), body: multipart('other') } });
    }
    expect(violations.length).toBeGreaterThan(30);
    for (const { label, request } of violations) {
      const answer = await send(request);
      expect([label, answer.status >= 400 && answer.status < 500]).toEqual([label, true]);
    }
  });
});

/** A request that works on the route: its first 2xx case (or its first, for a route that only refuses). */
function baseCase(route: string): Case {
  return CASES.find((c) => c.route === route && c.status < 300) ?? CASES.find((c) => c.route === route)!;
}

/** `METHOD /path` of every route in printRoutes' tree (HEAD, fastify's automatic twin of GET, left out). */
function registeredRoutes(tree: string): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ├└─]*)(\S.*) \(([A-Z, ]+)\)$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    stack.length = depth;
    stack.push(match[2]);
    // A wildcard child is printed without the slash before it (`schemas` → `*`).
    const path = stack.join('').replace(/([^/])\*$/, '$1/*');
    for (const method of match[3].split(', ')) if (method !== 'HEAD') routes.push(`${method} ${path}`);
  }
  return routes;
}

/** A path, media type or header name as one segment of a JSON pointer inside a URI fragment. */
function pointerSegment(segment: string): string {
  return encodeURIComponent(segment.replaceAll('~', '~0').replaceAll('/', '~1'));
}

/** A header or query value as its schema types it (both are strings on the wire). */
function headerValue(value: string, schema: Json | undefined): unknown {
  return schema?.type === 'integer' && /^-?[0-9]+$/.test(value) ? Number(value) : value;
}

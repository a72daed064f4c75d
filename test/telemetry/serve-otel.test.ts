import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ANNOT_BIN } from '../support/run-cli.js';

interface Export {
  path: string;
  contentType: string;
  body: Buffer;
}

/** A stand-in OTLP/HTTP collector on 127.0.0.1 that keeps every POST it receives. */
async function startCollector(): Promise<{ server: Server; endpoint: string; received: Export[] }> {
  const received: Export[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'POST') received.push({ path: request.url ?? '', contentType: request.headers['content-type'] ?? '', body: Buffer.concat(chunks) });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

/** Runs the built `annot serve --otel`, makes one request, stops it with SIGTERM and waits for it to exit. */
async function serveOneRequest(env: NodeJS.ProcessEnv): Promise<{ code: number | null; status: number; stderr: string }> {
  const child = spawn(process.execPath, [ANNOT_BIN, 'serve', '--otel'], { env: { ...process.env, ANNOT_TOKEN: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const killer = setTimeout(() => child.kill('SIGKILL'), 20000);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^annot serve: listening on (http:\/\/\S+)\n/.exec(out);
      if (match) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`annot serve exited with ${code} before listening: ${stderr}`)));
  });
  const answer = await fetch(`${url}/tiers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'words', stereotype: 'NONE' }) });
  child.kill('SIGTERM');
  const code = await exited;
  clearTimeout(killer);
  return { code, status: answer.status, stderr };
}

describe('annot serve --otel (the built CLI)', () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  beforeEach(async () => {
    collector = await startCollector();
  });
  afterEach(() => new Promise<void>((resolve) => collector.server.close(() => resolve())));

  it('exports the request\'s spans as OTLP/JSON to OTEL_EXPORTER_OTLP_ENDPOINT when stopped with SIGTERM', async () => {
    const run = await serveOneRequest({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' });
    expect(run).toMatchObject({ code: 0, status: 201 });
    const traces = collector.received.filter((post) => post.path === '/v1/traces');
    expect(traces.length).toBeGreaterThan(0);
    expect(traces[0].contentType).toContain('application/json');
    const spans = traces.flatMap((post) => {
      const body = JSON.parse(post.body.toString('utf8')) as { resourceSpans: Array<{ resource: { attributes: unknown[] }; scopeSpans: Array<{ scope: { name: string }; spans: Array<{ name: string; parentSpanId?: string; spanId: string }> }> }> };
      return body.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => ({ ...span, scope: scope.scope.name, resource: resource.resource }))));
    });
    const request = spans.find((span) => span.name === 'POST /tiers');
    const apply = spans.find((span) => span.name === 'store.apply');
    expect(request?.scope).toBe('annot');
    expect(apply?.parentSpanId).toBe(request?.spanId);
    expect(request?.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'annot' } });
    // Traces only: annot records no metrics or logs, so nothing else is posted.
    expect(collector.received.map((post) => post.path)).toEqual(traces.map(() => '/v1/traces'));
  });

  it('exports as OTLP/protobuf by default, the standard protocol', async () => {
    const run = await serveOneRequest({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: '', OTEL_EXPORTER_OTLP_PROTOCOL: '' });
    expect(run).toMatchObject({ code: 0, status: 201 });
    const [first] = collector.received;
    expect(first.path).toBe('/v1/traces');
    expect(first.contentType).toBe('application/x-protobuf');
    // Span names travel as plain strings inside the protobuf.
    expect(first.body.includes(Buffer.from('POST /tiers'))).toBe(true);
  });
});

describe('where the OpenTelemetry SDK is loaded from', () => {
  it('imports @opentelemetry/sdk-* only in src/telemetry/sdk.ts, and only dynamically, so annot --help never loads it', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const importers: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts') && /@opentelemetry\/(sdk|exporter)-/.test(readFileSync(path, 'utf8'))) importers.push(path.slice(root.length));
      }
    };
    walk(join(root, 'src'));
    walk(join(root, 'commands'));
    expect(importers).toEqual(['src/telemetry/sdk.ts']);
    const sdk = readFileSync(join(root, 'src/telemetry/sdk.ts'), 'utf8');
    expect(sdk).not.toMatch(/^import[^;]*@opentelemetry\/sdk/m);
    expect(readFileSync(join(root, 'commands/serve.ts'), 'utf8')).not.toMatch(/^import[^;]*telemetry\/sdk/m);
  });
});

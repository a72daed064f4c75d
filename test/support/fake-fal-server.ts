import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local stand-in for fal.ai's queue API, speaking the protocol as fal documents it over real
 * HTTP on 127.0.0.1: submit (POST /{model}), status with queue positions and logs
 * (GET /{model}/requests/{id}/status), result (GET /{model}/requests/{id}), cancel
 * (PUT /{model}/requests/{id}/cancel), and the generated files (GET /files/...), a fresh URL for
 * every result as fal's CDN does. It records every request with its headers and can inject
 * latency, 429s, 5xx, hangs, connection resets and malformed bodies.
 *
 * It is test support only; the benchmarks have their own smaller stand-in (bench/lib/fake-fal.js)
 * because they run plain JavaScript against dist/, which does not include test/.
 */

export type FakePhase = 'submit' | 'status' | 'stream' | 'result' | 'cancel' | 'asset';

export interface RecordedRequest {
  method: string;
  path: string;
  phase: FakePhase | 'unknown';
  model_id?: string;
  request_id?: string;
  headers: IncomingHttpHeaders;
  body?: unknown;
  at: number;
}

/** A canned answer for the next `times` requests of a phase (and model, when given). */
export interface Injection {
  phase: FakePhase;
  model?: string;
  times?: number;
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Never answer (until the server closes or the client gives up). */
  hang?: boolean;
  /** Answer 200 with a body that is not JSON. */
  malformed?: boolean;
  /** Destroy the socket without answering (a connection reset). */
  reset?: boolean;
  /** Answer as usual, but only once this settles (a slow submission the client may give up on meanwhile). */
  hold?: Promise<void>;
}

/** What a model "produces": its output JSON, or an error fal reports for the request. */
export type FakeModelOutcome = { output: Record<string, unknown> } | { error: { status: number; detail: unknown; error_type?: string } };

export interface FakeFalOptions {
  /** Time from submission to completion (half in queue, half in progress). Default 0. */
  latencyMs?: number | ((modelId: string, args: Record<string, unknown>) => number);
  /** The share of the latency a request spends queued before it runs. Default 0.5. */
  queueShare?: number;
  /** Only these keys are accepted (`Authorization: Key <key>`); default any non-empty key. */
  acceptKeys?: string[];
  /** Override what a model returns; return undefined for the default output. */
  outcome?: (modelId: string, args: Record<string, unknown>) => FakeModelOutcome | undefined;
}

interface FakeRequest {
  id: string;
  model: string;
  args: Record<string, unknown>;
  key: string;
  submittedAt: number;
  latencyMs: number;
  cancelled: boolean;
  settled: boolean;
  outcome?: FakeModelOutcome;
}

export interface FakeSubmission {
  request_id: string;
  model_id: string;
  args: Record<string, unknown>;
  authorization: string;
}

export class FakeFalServer {
  readonly requests: RecordedRequest[] = [];
  /** Model requests submitted and not yet collected or cancelled, now and at most. */
  inFlight = 0;
  maxInFlight = 0;
  private readonly queue = new Map<string, FakeRequest>();
  private readonly files = new Map<string, Buffer>();
  private readonly injections: Injection[] = [];
  private readonly hanging = new Set<ServerResponse>();
  private fileCounter = 0;
  private server!: Server;
  url = '';

  constructor(private options: FakeFalOptions = {}) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error) => {
        res.statusCode = 500;
        res.end(JSON.stringify({ detail: String(error) }));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  inject(injection: Injection): void {
    this.injections.push({ times: 1, ...injection });
  }

  setLatency(latencyMs: FakeFalOptions['latencyMs']): void {
    this.options = { ...this.options, latencyMs };
  }

  setOutcome(outcome: FakeFalOptions['outcome']): void {
    this.options = { ...this.options, outcome };
  }

  setQueueShare(queueShare: number): void {
    this.options = { ...this.options, queueShare };
  }

  /** Lets every request still running complete now, whatever latency it was submitted with. */
  completeRunning(): void {
    for (const r of this.queue.values()) if (!r.settled && !r.cancelled) r.latencyMs = 0;
  }

  /** Forgets a request, as fal does once it expires: its status and result answer 404. */
  expire(requestId: string): void {
    const r = this.queue.get(requestId);
    if (r && !r.settled) this.inFlight--;
    this.queue.delete(requestId);
  }

  /** Every accepted submission, in order. */
  submissions(model?: string): FakeSubmission[] {
    return this.requests
      .filter((r) => r.phase === 'submit' && r.request_id && (!model || r.model_id === model))
      .map((r) => ({ request_id: r.request_id!, model_id: r.model_id!, args: r.body as Record<string, unknown>, authorization: String(r.headers.authorization ?? '') }));
  }

  cancelled(): string[] {
    return [...this.queue.values()].filter((r) => r.cancelled).map((r) => r.id);
  }

  /** The bytes served at a file URL this server handed out. */
  fileBytes(url: string): Buffer | undefined {
    return this.files.get(new URL(url).pathname);
  }

  reset(): void {
    this.requests.length = 0;
    this.injections.length = 0;
    this.maxInFlight = this.inFlight;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const raw = await readBody(req);
    const record: RecordedRequest = { method: req.method ?? 'GET', path: url.pathname, phase: 'unknown', headers: req.headers, at: Date.now() };
    this.requests.push(record);
    const route = this.route(record.method, url.pathname);
    record.phase = route.phase;
    record.model_id = route.model;
    record.request_id = route.id;
    if (raw.length > 0) record.body = safeJson(raw.toString('utf8'));

    const injection = this.takeInjection(route.phase, route.model);
    if (injection?.hold) await injection.hold;
    else if (injection) return this.answerInjected(injection, res);

    if (route.phase === 'asset') return this.serveFile(url.pathname, res);
    if (route.phase === 'unknown') return send(res, 404, { detail: `no route for ${record.method} ${url.pathname}` });

    const auth = String(req.headers.authorization ?? '');
    const key = auth.startsWith('Key ') ? auth.slice(4) : '';
    if (!key || (this.options.acceptKeys && !this.options.acceptKeys.includes(key))) {
      return send(res, 401, { detail: 'Invalid or missing API key. Pass it as "Authorization: Key <key>".' });
    }

    switch (route.phase) {
      case 'submit':
        return this.submit(route.model!, record, key, res);
      case 'status':
        return this.status(route.id!, res);
      case 'stream':
        return this.stream(route.id!, res);
      case 'result':
        return this.result(route.id!, res);
      case 'cancel':
        return this.cancel(route.id!, res);
    }
  }

  private route(method: string, path: string): { phase: FakePhase | 'unknown'; model?: string; id?: string } {
    if (method === 'GET' && path.startsWith('/files/')) return { phase: 'asset' };
    const m = /^\/(.+)\/requests\/([^/]+)(\/status\/stream|\/status|\/cancel)?$/.exec(path);
    if (m) {
      const [, model, id, tail] = m;
      if (tail === '/status' && method === 'GET') return { phase: 'status', model, id };
      if (tail === '/status/stream' && method === 'GET') return { phase: 'stream', model, id };
      if (tail === '/cancel' && method === 'PUT') return { phase: 'cancel', model, id };
      if (!tail && method === 'GET') return { phase: 'result', model, id };
      return { phase: 'unknown' };
    }
    if (method === 'POST' && path.length > 1) return { phase: 'submit', model: path.slice(1) };
    return { phase: 'unknown' };
  }

  private takeInjection(phase: FakePhase | 'unknown', model?: string): Injection | undefined {
    const index = this.injections.findIndex((i) => i.phase === phase && (!i.model || i.model === model));
    if (index < 0) return undefined;
    const injection = this.injections[index];
    injection.times = (injection.times ?? 1) - 1;
    if (injection.times <= 0) this.injections.splice(index, 1);
    return injection;
  }

  private answerInjected(injection: Injection, res: ServerResponse): void {
    if (injection.reset) {
      res.socket?.destroy();
      return;
    }
    if (injection.hang) {
      this.hanging.add(res);
      res.on('close', () => this.hanging.delete(res));
      return;
    }
    if (injection.malformed) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status": "COMPL');
      return;
    }
    send(res, injection.status ?? 500, injection.body ?? { detail: 'injected failure' }, injection.headers);
  }

  private submit(model: string, record: RecordedRequest, key: string, res: ServerResponse): void {
    const args = (record.body ?? {}) as Record<string, unknown>;
    const latency = typeof this.options.latencyMs === 'function' ? this.options.latencyMs(model, args) : (this.options.latencyMs ?? 0);
    const request: FakeRequest = { id: randomUUID(), model, args, key, submittedAt: Date.now(), latencyMs: latency, cancelled: false, settled: false };
    record.request_id = request.id;
    const ahead = [...this.queue.values()].filter((r) => !r.settled && !this.isDone(r)).length;
    this.queue.set(request.id, request);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    const base = `${this.url}/${model}/requests/${request.id}`;
    send(res, 200, { request_id: request.id, response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel`, queue_position: ahead });
  }

  private queueShare(): number {
    return this.options.queueShare ?? 0.5;
  }

  private isDone(r: FakeRequest): boolean {
    return r.cancelled || Date.now() - r.submittedAt >= r.latencyMs;
  }

  private status(id: string, res: ServerResponse): void {
    const body = this.statusBody(id);
    if (!body) return send(res, 404, { detail: `request ${id} not found` });
    send(res, 200, body);
  }

  /** Server-sent events: the status now and at each change, closing after COMPLETED. */
  private stream(id: string, res: ServerResponse): void {
    const r = this.queue.get(id);
    if (!r) return send(res, 404, { detail: `request ${id} not found` });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let last = '';
    const tick = () => {
      const body = this.statusBody(id)!;
      const text = JSON.stringify(body);
      if (text !== last) res.write(`data: ${text}\n\n`);
      last = text;
      if (body.status === 'COMPLETED') return res.end();
      const elapsed = Date.now() - r.submittedAt;
      const queued = r.latencyMs * this.queueShare();
      const next = elapsed < queued ? queued - elapsed : r.latencyMs - elapsed;
      const timer = setTimeout(tick, Math.max(1, next));
      res.once('close', () => clearTimeout(timer));
    };
    tick();
  }

  private statusBody(id: string): Record<string, unknown> | undefined {
    const r = this.queue.get(id);
    if (!r) return undefined;
    const elapsed = Date.now() - r.submittedAt;
    const response_url = `${this.url}/${r.model}/requests/${id}`;
    const logs = [{ message: `loading ${r.model}`, timestamp: new Date(r.submittedAt).toISOString() }];
    if (r.cancelled) {
      return { status: 'COMPLETED', request_id: id, response_url, logs, error: 'Request was cancelled', error_type: 'client_cancelled' };
    }
    if (elapsed < r.latencyMs * this.queueShare()) {
      const ahead = [...this.queue.values()].filter((o) => o.submittedAt < r.submittedAt && !o.settled && !this.isDone(o)).length;
      return { status: 'IN_QUEUE', request_id: id, queue_position: ahead, response_url };
    }
    if (elapsed < r.latencyMs) return { status: 'IN_PROGRESS', request_id: id, response_url, logs };
    const outcome = this.outcomeOf(r);
    const body: Record<string, unknown> = {
      status: 'COMPLETED',
      request_id: id,
      response_url,
      logs: [...logs, { message: 'generation finished', timestamp: new Date(r.submittedAt + r.latencyMs).toISOString() }],
      metrics: { inference_time: r.latencyMs / 1000 },
    };
    if ('error' in outcome) {
      body.error = typeof outcome.error.detail === 'string' ? outcome.error.detail : 'the model rejected the input';
      body.error_type = outcome.error.error_type ?? 'bad_request';
    }
    return body;
  }

  private result(id: string, res: ServerResponse): void {
    const r = this.queue.get(id);
    if (!r) return send(res, 404, { detail: `request ${id} not found` });
    if (r.cancelled) return send(res, 400, { detail: 'Request was cancelled', error_type: 'client_cancelled' });
    if (!this.isDone(r)) return send(res, 400, { detail: 'Request is still in progress' });
    if (!r.settled) {
      r.settled = true;
      this.inFlight--;
    }
    const outcome = this.outcomeOf(r);
    if ('error' in outcome) return send(res, outcome.error.status, { detail: outcome.error.detail });
    send(res, 200, outcome.output);
  }

  private cancel(id: string, res: ServerResponse): void {
    const r = this.queue.get(id);
    if (!r) return send(res, 404, { status: 'NOT_FOUND' });
    if (this.isDone(r) && !r.cancelled) return send(res, 400, { status: 'ALREADY_COMPLETED' });
    r.cancelled = true;
    if (!r.settled) {
      r.settled = true;
      this.inFlight--;
    }
    send(res, 202, { status: 'CANCELLATION_REQUESTED' });
  }

  /** Computed once per request, so the files it names exist exactly once, at fresh URLs. */
  private outcomeOf(r: FakeRequest): FakeModelOutcome {
    if (!r.outcome) r.outcome = this.options.outcome?.(r.model, r.args) ?? this.defaultOutcome(r);
    return r.outcome;
  }

  /**
   * Speech for `text`, a talking video for `audio_url`, a clip for `image_url`, else a still.
   * The bytes depend on the arguments only (with upstream files by their content), not on the
   * model or the URL, so identical work yields identical bytes at a new URL.
   */
  private defaultOutcome(r: FakeRequest): FakeModelOutcome {
    const contentArgs: Record<string, unknown> = {};
    for (const k of Object.keys(r.args).sort()) {
      const v = r.args[k];
      const local = typeof v === 'string' ? this.files.get(safePath(v)) : undefined;
      contentArgs[k] = local ? `sha256:${createHash('sha256').update(local).digest('hex')}` : v;
    }
    const bytes = Buffer.from(`fake-fal ${JSON.stringify(contentArgs)}`);
    if (typeof r.args.text === 'string') return { output: { audio: { url: this.addFile(bytes, 'speech.mp3'), content_type: 'audio/mpeg' } } };
    if (r.args.audio_url !== undefined || r.args.image_url !== undefined) {
      return { output: { video: { url: this.addFile(bytes, 'video.mp4'), content_type: 'video/mp4' } } };
    }
    return { output: { images: [{ url: this.addFile(bytes, 'image.jpeg'), width: 1024, height: 576, content_type: 'image/jpeg' }], seed: 42 } };
  }

  /** Stores bytes at a new URL and returns it (usable from custom outcomes). */
  addFile(bytes: Buffer, name: string): string {
    const path = `/files/${++this.fileCounter}-${randomUUID().slice(0, 8)}/${name}`;
    this.files.set(path, bytes);
    return `${this.url}${path}`;
  }

  private serveFile(path: string, res: ServerResponse): void {
    const bytes = this.files.get(path);
    if (!bytes) return send(res, 404, { detail: 'file not found (expired?)' });
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) });
    res.end(bytes);
  }
}

/** Starts a fake fal server on 127.0.0.1 with a free port. */
export function startFakeFalServer(options: FakeFalOptions = {}): Promise<FakeFalServer> {
  return new FakeFalServer(options).start();
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function safePath(value: string): string {
  try {
    return new URL(value).pathname;
  } catch {
    return '';
  }
}

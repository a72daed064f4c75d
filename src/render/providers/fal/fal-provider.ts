import type * as Undici from 'undici';
import { currentFalKey } from '../../credentials.js';
import { RenderAbortedError } from '../../errors.js';
import { emitSafely, type RenderEvent } from '../../events.js';
import { assetsOf, type Asset, type Provider, type ProviderRunOptions, type RequestTicket } from '../provider.js';
import { answerText } from './answers.js';
import { describeDetail, FalBadRequest, FalError, FalRateLimited, FalServerError, FalTimeout, FalUnauthorized } from './errors.js';
import { QueueOrigin, TICKET_URLS } from './queue-origin.js';

/** fal's queue API, used when neither FalProviderOptions.baseUrl nor FAL_QUEUE_URL names another. */
export const DEFAULT_FAL_QUEUE_URL = 'https://queue.fal.run';

let undici: Promise<typeof Undici> | undefined;

/**
 * undici's request, loaded on the first HTTP exchange: a fully cached render constructs this
 * provider but calls nothing, and should not pay for loading the HTTP client.
 */
const request = (async (...args: Parameters<typeof Undici.request>) => {
  undici ??= import('undici');
  return (await undici).request(...args);
}) as typeof Undici.request;

/** Options of FalProvider. */
export interface FalProviderOptions {
  /** Queue API base; default the FAL_QUEUE_URL environment variable, else https://queue.fal.run. */
  baseUrl?: string;
  /**
   * Whole-call limit (submit, queue, run, result); the request is cancelled when it passes. A
   * submission under way then is let finish first, so the request it queued is cancelled, not
   * left to run unpaid-for. Default 15 min.
   */
  timeoutMs?: number;
  /** Status polling interval. Default 500 ms (fal's JS client uses the same). */
  pollIntervalMs?: number;
  /** Retries of one HTTP exchange on 429, 502/503/504 and connection resets. Default 5. */
  maxRetries?: number;
  /** First backoff delay; doubled per retry, capped at retryMaxMs, with jitter. Default 500 ms. */
  retryBaseMs?: number;
  /** The longest backoff delay. Default 30 s. */
  retryMaxMs?: number;
  /**
   * Follow the status as server-sent events (`{status_url}/stream`) instead of polling, so a
   * finished request is noticed at once; polling takes over if the stream ends early. Default false.
   */
  statusStream?: boolean;
}

interface HttpReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

interface CallState {
  modelId: string;
  /** Absent for asset downloads: the key goes to the queue's origin only. */
  key: string | undefined;
  /** Where the key may go (fixed at the call's start). */
  queue: QueueOrigin;
  signal: AbortSignal;
  onEvent?: (event: RenderEvent) => void;
  started: number;
}

const TRANSIENT_STATUS = new Set([429, 502, 503, 504]);
const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** A malformed reply to an idempotent GET: retried like a 502. */
class MalformedReply extends Error {}

/**
 * A request that will never produce a result although fal answered: it does not know it (404,
 * e.g. expired) or reports a status other than queued, in progress or completed.
 */
class RequestEnded extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** Failures of the status endpoint itself (429, 5xx after retries): the request's status is unknown. */
const statusUnknown = new WeakSet<Error>();

function gone(ticket: RequestTicket): RequestEnded {
  return new RequestEnded(404, `fal no longer knows the request ${ticket.request_id}`);
}

/*
 * Why this is written by hand rather than with fal's own @fal-ai/client: the client is not a
 * dependency of annot (not installed), and the project adds none without a benefit measured
 * over the network, which nobody has measured for it. What this file must keep, and what the
 * client would have to be checked and configured for one by one: the key resolved per call from
 * the calling context (withCredentials) and sent to the queue's origin only (queue-origin.ts),
 * never to asset URLs nor to a URL a reply names elsewhere; fal's answers redacted as they
 * arrive (answers.ts);
 * a ticket recorded right after submission so an interrupted render resumes instead of paying
 * twice, and dropped when fal reports the request failed or gone; retries of 429 (Retry-After),
 * 502/503/504 and connection resets; Ctrl-C cancelling only requests still queued; typed errors
 * with stable codes; and a base URL the tests point at the fake fal server over real HTTP.
 * Revisit if fal's protocol grows beyond submit/status/result/cancel.
 */

/**
 * fal.ai through its queue API: submit (`POST {base}/{model}`), poll the status URL with logs,
 * fetch the result from the response URL, cancel through the cancel URL. The key comes from the
 * calling context (withCredentials) or FAL_KEY, read at each call, and is sent only to the queue's
 * origin: a status, response or cancel URL on another origin is refused (FalForeignUrlError), and
 * asset URLs get no key. Every answer passes through answerText, which takes the key out.
 */
export class FalProvider implements Provider {
  /** Always `fal`: part of every unit hash. */
  readonly name = 'fal';
  private readonly options: Required<Omit<FalProviderOptions, 'baseUrl'>> & { baseUrl?: string };

  constructor(options: FalProviderOptions = {}) {
    this.options = {
      baseUrl: options.baseUrl,
      timeoutMs: options.timeoutMs ?? 15 * 60_000,
      pollIntervalMs: options.pollIntervalMs ?? 500,
      maxRetries: options.maxRetries ?? 5,
      retryBaseMs: options.retryBaseMs ?? 500,
      retryMaxMs: options.retryMaxMs ?? 30_000,
      statusStream: options.statusStream ?? false,
    };
  }

  /** The queue's base URL: what the shared cache keys name, so a fake or staging queue never fills it for a real one. */
  get origin(): string {
    return this.baseUrl;
  }

  /** The queue API base in use. */
  get baseUrl(): string {
    return (this.options.baseUrl || process.env.FAL_QUEUE_URL || DEFAULT_FAL_QUEUE_URL).replace(/\/+$/, '');
  }

  /** Submits a call to fal's queue, waits for it (resuming a recorded request), and gives back its assets. */
  async run(modelId: string, args: Record<string, unknown>, options: ProviderRunOptions = {}): Promise<Asset[]> {
    const key = currentFalKey();
    if (!key) throw new FalUnauthorized(modelId, undefined, 'no API key is set');
    const controller = new AbortController();
    const userSignal = options.signal;
    if (userSignal?.aborted) throw new RenderAbortedError(`the call to ${modelId}`);
    const onUserAbort = () => controller.abort();
    userSignal?.addEventListener('abort', onUserAbort, { once: true });
    let timedOut = false;
    // A submission under way when the time runs out is let finish: fal may already have queued it,
    // and only its ticket lets us cancel it rather than pay for a request nobody collects.
    let submitting = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (!submitting) controller.abort();
    }, this.options.timeoutMs);
    const state: CallState = { modelId, key, queue: new QueueOrigin(this.baseUrl), signal: controller.signal, onEvent: options.onEvent, started: Date.now() };
    let ticket: RequestTicket | undefined;
    try {
      if (options.resume) {
        ticket = options.resume;
        try {
          // A ticket recorded before annot checked origins may name another: it is dropped, never called.
          state.queue.checkTicket(ticket, modelId);
          return this.finished(state, ticket, await this.waitForResult(state, ticket));
        } catch (error) {
          // A recorded request is resumed only while fal reports it queued, in progress or
          // completed. One that failed, that fal no longer knows (404) or that ended any other
          // way (expired, cancelled) will never produce a result: forget it and submit afresh.
          // A connection failure says nothing about the request: it stays recorded.
          if (controller.signal.aborted || statusUnknown.has(error as Error) || !(error instanceof FalError || error instanceof RequestEnded)) throw error;
          options.onDropped?.();
          emitSafely(state.onEvent, { type: 'notice', model_id: modelId, request_id: ticket.request_id, message: `${modelId}: the earlier request ${ticket.request_id} cannot be collected (${(error as Error).message}); submitting it again` });
          ticket = undefined;
        }
      }
      submitting = true;
      try {
        ticket = await this.submit(state, args);
      } finally {
        submitting = false;
      }
      if (timedOut) controller.abort();
      await options.onSubmitted?.(ticket);
      return this.finished(state, ticket, await this.waitForResult(state, ticket));
    } catch (error) {
      let thrown = error;
      if (controller.signal.aborted) {
        if (ticket && (await this.stop(state, ticket, timedOut))) options.onDropped?.();
        thrown = timedOut ? new FalTimeout(modelId, Date.now() - state.started) : new RenderAbortedError(`the call to ${modelId}`);
      } else if (error instanceof RequestEnded) {
        options.onDropped?.();
        thrown = new FalServerError(modelId, error.status, error.message);
      } else if (error instanceof FalError) {
        // Every typed failure of the request ends it for us: a re-run must submit afresh, not
        // resume it. Only when fal's status service failed is its status unknown: kept.
        if (!statusUnknown.has(error)) options.onDropped?.();
      } else {
        // The status is unknown (the connection failed): the ticket stays recorded for this call.
        thrown = new FalServerError(modelId, undefined, `the connection failed (${(error as Error).message})`, { cause: error });
      }
      emitSafely(state.onEvent, { type: 'error', model_id: modelId, request_id: ticket?.request_id, message: (thrown as Error).message, elapsed_ms: Date.now() - state.started });
      throw thrown;
    } finally {
      clearTimeout(timer);
      userSignal?.removeEventListener('abort', onUserAbort);
    }
  }

  private finished(state: CallState, ticket: RequestTicket, output: Record<string, unknown>): Asset[] {
    emitSafely(state.onEvent, { type: 'done', model_id: state.modelId, request_id: ticket.request_id, elapsed_ms: Date.now() - state.started });
    return assetsOf(output);
  }

  /**
   * After an abort: a timed-out request is cancelled. On Ctrl-C, a request fal has not started
   * (still queued) is cancelled, since nothing is spent on it yet; one already running (or whose
   * status cannot be read) is left to finish, so the next run collects it instead of paying for
   * it again. True when the request was cancelled and its ticket must be forgotten.
   */
  private async stop(state: CallState, ticket: RequestTicket, timedOut: boolean): Promise<boolean> {
    if (!timedOut) {
      const status = await this.statusNow(state, ticket);
      if (status === 'IN_PROGRESS' || status === 'COMPLETED' || status === undefined) return false;
      if (status === 'GONE') return true;
    }
    return this.cancel(state, ticket);
  }

  /** One status read with its own short deadline (the call's signal is aborted): the status word, GONE on 404, undefined when unknown. */
  private async statusNow(state: CallState, ticket: RequestTicket): Promise<string | undefined> {
    try {
      const { statusCode, body } = await request(ticket.status_url, {
        method: 'GET',
        headers: { ...state.queue.authorization(ticket.status_url, state.key!, state.modelId, 'status_url'), accept: 'application/json' },
        signal: AbortSignal.timeout(5000),
      });
      const text = answerText(await body.text(), state.key);
      if (statusCode === 404) return 'GONE';
      const status = statusCode === 200 ? parseJson(text)?.status : undefined;
      return typeof status === 'string' ? status : undefined;
    } catch {
      return undefined;
    }
  }

  /** Downloads an asset fal made (no key is sent with it). */
  async fetchAsset(url: string, options: { signal?: AbortSignal } = {}): Promise<Uint8Array> {
    const signal = options.signal ?? new AbortController().signal;
    const state: CallState = { modelId: url, key: undefined, queue: new QueueOrigin(this.baseUrl), signal, started: Date.now() };
    const reply = await this.exchange('asset', state, 'GET', url, undefined, { raw: true });
    if (reply.status < 200 || reply.status >= 300) {
      throw new FalServerError(url, reply.status, 'could not download the asset');
    }
    return reply.bytes!;
  }

  private async submit(state: CallState, args: Record<string, unknown>): Promise<RequestTicket> {
    const url = `${this.baseUrl}/${state.modelId}`;
    const reply = await this.exchange('submit', state, 'POST', url, JSON.stringify(args));
    if (reply.status < 200 || reply.status >= 300) throw httpError(state.modelId, reply);
    const body = parseJson(reply.text);
    if (!body || typeof body.request_id !== 'string') {
      throw new FalServerError(state.modelId, reply.status, 'the submission was answered with a malformed response (no request_id)');
    }
    const ticket = this.ticketOf(state, body.request_id, body);
    try {
      state.queue.checkTicket(ticket, state.modelId);
    } catch (error) {
      // The request is queued and would be paid for: cancelled where fal's own client would, on the queue's origin.
      await this.cancel(state, this.ticketOf(state, body.request_id, {}));
      throw error;
    }
    emitSafely(state.onEvent, {
      type: 'queued',
      model_id: state.modelId,
      request_id: ticket.request_id,
      queue_position: typeof body.queue_position === 'number' ? body.queue_position : undefined,
    });
    return ticket;
  }

  /**
   * Where a submitted request is found: the URLs the reply names, else those fal's own client
   * builds from the request id on the queue's base URL.
   */
  private ticketOf(state: CallState, requestId: string, reply: Record<string, unknown>): RequestTicket {
    const base = `${this.baseUrl}/${state.modelId}/requests/${requestId}`;
    const built = { status_url: `${base}/status`, response_url: base, cancel_url: `${base}/cancel` };
    const ticket: RequestTicket = { model_id: state.modelId, request_id: requestId };
    for (const field of TICKET_URLS) ticket[field] = typeof reply[field] === 'string' ? (reply[field] as string) : built[field];
    return ticket;
  }

  private async waitForResult(state: CallState, ticket: RequestTicket): Promise<Record<string, unknown>> {
    const seen = { logs: 0 };
    let completed = false;
    if (this.options.statusStream) completed = await this.followStream(state, ticket, seen);
    const statusUrl = withQuery(ticket.status_url, 'logs', '1');
    while (!completed) {
      const reply = await this.exchange('status', state, 'GET', statusUrl, undefined, { retryMalformed: true });
      if (reply.status === 404) throw gone(ticket);
      if (reply.status < 200 || reply.status >= 300) {
        const error = httpError(state.modelId, reply);
        // fal's status service failing (429, 5xx) says nothing about the request itself.
        if (reply.status === 429 || reply.status >= 500) statusUnknown.add(error);
        throw error;
      }
      completed = this.onStatus(state, ticket, reply.json!, seen);
      if (!completed) await sleep(this.options.pollIntervalMs, state.signal);
    }
    const reply = await this.exchange('result', state, 'GET', ticket.response_url, undefined, { retryMalformed: true });
    if (reply.status === 404) throw gone(ticket);
    if (reply.status < 200 || reply.status >= 300) throw httpError(state.modelId, reply);
    return reply.json!;
  }

  /** Emits the events of one status body; true when the request is COMPLETED. */
  private onStatus(state: CallState, ticket: RequestTicket, body: Record<string, unknown>, seen: { logs: number }): boolean {
    const logs = Array.isArray(body.logs) ? body.logs : [];
    for (const entry of logs.slice(seen.logs)) {
      const message = entry && typeof entry === 'object' && typeof entry.message === 'string' ? entry.message : String(entry);
      emitSafely(state.onEvent, { type: 'log', model_id: state.modelId, request_id: ticket.request_id, message });
    }
    seen.logs = Math.max(seen.logs, logs.length);
    if (body.status === 'COMPLETED') return true;
    if (body.status !== 'IN_QUEUE' && body.status !== 'IN_PROGRESS') {
      throw new RequestEnded(200, `fal reports the request ${ticket.request_id} as ${JSON.stringify(body.status ?? null)}`);
    }
    emitSafely(state.onEvent, {
      type: 'progress',
      model_id: state.modelId,
      request_id: ticket.request_id,
      queue_position: typeof body.queue_position === 'number' ? body.queue_position : undefined,
      message: typeof body.status === 'string' ? body.status : undefined,
    });
    return false;
  }

  /** Reads the status event stream until COMPLETED (true) or until it ends or fails (false). */
  private async followStream(state: CallState, ticket: RequestTicket, seen: { logs: number }): Promise<boolean> {
    const url = withQuery(`${ticket.status_url.replace(/\?.*$/, '')}/stream`, 'logs', '1');
    try {
      const headers = { ...state.queue.authorization(url, state.key!, state.modelId, 'status_url'), accept: 'text/event-stream' };
      const res = await request(url, { method: 'GET', headers, signal: state.signal });
      if (res.statusCode !== 200) {
        await res.body.dump();
        return false;
      }
      let buffer = '';
      for await (const chunk of res.body) {
        buffer += chunk.toString();
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = event.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
          const body = data ? parseJson(answerText(data, state.key)) : undefined;
          if (body && this.onStatus(state, ticket, body, seen)) {
            res.body.destroy();
            return true;
          }
        }
      }
      return false;
    } catch (error) {
      if (state.signal.aborted) throw error;
      return false;
    }
  }

  /** Cancels a request; true when fal accepted the cancellation (or no longer knows it). */
  private async cancel(state: CallState, ticket: RequestTicket): Promise<boolean> {
    // Our own short deadline: the call's signal is already aborted, and a cancel that hangs
    // must not keep Ctrl-C from returning.
    try {
      const { statusCode, body } = await request(ticket.cancel_url, {
        method: 'PUT',
        headers: { ...state.queue.authorization(ticket.cancel_url, state.key!, state.modelId, 'cancel_url'), accept: 'application/json' },
        signal: AbortSignal.timeout(5000),
      });
      await body.dump();
      return (statusCode >= 200 && statusCode < 300) || statusCode === 404;
    } catch {
      // best effort: fal unreachable; the status stays unknown and the ticket recorded
      return false;
    }
  }

  /**
   * One HTTP exchange with retries: 429 (after Retry-After), 502/503/504, connection resets and,
   * for idempotent GETs, malformed bodies are retried with capped exponential backoff and jitter.
   */
  private async exchange(
    phase: string,
    state: CallState,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    body: string | undefined,
    how: { retryMalformed?: boolean; raw?: boolean } = {},
  ): Promise<HttpReply & { json?: Record<string, unknown>; bytes?: Uint8Array }> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (state.key) Object.assign(headers, state.queue.authorization(url, state.key, state.modelId, `${phase} URL`));
    if (body !== undefined) headers['content-type'] = 'application/json';
    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < this.options.maxRetries;
      let reply: HttpReply & { json?: Record<string, unknown>; bytes?: Uint8Array };
      try {
        const res = await request(url, { method, headers, body, signal: state.signal });
        if (how.raw && res.statusCode >= 200 && res.statusCode < 300) {
          const bytes = new Uint8Array(await res.body.arrayBuffer());
          return { status: res.statusCode, headers: res.headers, text: '', bytes };
        }
        reply = { status: res.statusCode, headers: res.headers, text: answerText(await res.body.text(), state.key) };
      } catch (error) {
        if (state.signal.aborted) throw error;
        const code = (error as { code?: string }).code;
        if (canRetry && code && TRANSIENT_CODES.has(code)) {
          await sleep(this.backoff(attempt), state.signal);
          continue;
        }
        throw error;
      }
      if (TRANSIENT_STATUS.has(reply.status) && canRetry) {
        const retryAfter = reply.status === 429 ? retryAfterMs(reply.headers['retry-after']) : undefined;
        await sleep(retryAfter !== undefined ? Math.min(retryAfter, this.options.retryMaxMs) : this.backoff(attempt), state.signal);
        continue;
      }
      if (!how.raw && reply.status >= 200 && reply.status < 300 && how.retryMalformed) {
        const json = parseJson(reply.text);
        if (!json) {
          if (canRetry) {
            await sleep(this.backoff(attempt), state.signal);
            continue;
          }
          throw new FalServerError(state.modelId, reply.status, `the ${phase} request was answered with a malformed response`, { cause: new MalformedReply(reply.text.slice(0, 200)) });
        }
        reply.json = json;
      }
      return reply;
    }
  }

  private backoff(attempt: number): number {
    const ceiling = Math.min(this.options.retryMaxMs, this.options.retryBaseMs * 2 ** attempt);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }
}

function httpError(modelId: string, reply: HttpReply): FalError {
  const body = parseJson(reply.text);
  const detail = body ? (body.detail ?? body.message ?? body.error ?? reply.text) : reply.text || `HTTP ${reply.status}`;
  const s = reply.status;
  if (s === 401 || s === 403) return new FalUnauthorized(modelId, s, describeDetail(detail));
  if (s === 429) return new FalRateLimited(modelId, secondsOrNull(retryAfterMs(reply.headers['retry-after'])), describeDetail(detail));
  if (s >= 400 && s < 500) return new FalBadRequest(modelId, s, detail);
  return new FalServerError(modelId, s, describeDetail(detail));
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function secondsOrNull(ms: number | undefined): number | null {
  return ms === undefined ? null : ms / 1000;
}

function withQuery(url: string, name: string, value: string): string {
  const u = new URL(url);
  u.searchParams.set(name, value);
  return u.toString();
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

import { withCredentials } from '../../src/render/credentials.js';
import { RenderAbortedError } from '../../src/render/errors.js';
import { FalBadRequest, FalRateLimited, FalServerError, FalTimeout, FalUnauthorized } from '../../src/render/providers/fal/errors.js';
import type { RenderEvent } from '../../src/render/events.js';
import { FalProvider } from '../../src/render/providers/fal/fal-provider.js';
import { assetsOf } from '../../src/render/providers/provider.js';
import { rejection } from '../support/rejection.js';
import { renderEnv, withEnvKey, type RenderEnv } from '../support/render-env.js';
import { eventually } from '../support/serve-cli.js';

const KEY = 'test-key-123:secret';
const HOUR = 3_600_000;
let env: RenderEnv;

beforeEach(async () => {
  env = await renderEnv();
});
afterEach(() => env.close());

const run = (provider: FalProvider, args: Record<string, unknown> = { prompt: 'a tiger' }, opts = {}) =>
  withCredentials({ falKey: KEY }, () => provider.run('fal-ai/flux/dev', args, opts));

describe('the fal provider', () => {
  it('submits, polls the status URL with logs, fetches the result and returns its assets', async () => {
    // The request moves on when the test has seen it polled in each state, not after a latency.
    env.fal.setLatency(HOUR);
    const events: RenderEvent[] = [];
    const pending = run(env.provider, { prompt: 'a tiger', image_size: 'landscape_16_9' }, { onEvent: (e: RenderEvent) => events.push(e) });
    void pending.catch(() => undefined);
    const statuses = () => env.fal.requests.filter((r) => r.phase === 'status').length;
    await eventually(() => statuses() >= 1, 'a status poll while the request is queued');
    env.fal.setQueueShare(0); // running now
    const polled = statuses();
    await eventually(() => statuses() > polled, 'a status poll while the request runs');
    env.fal.completeRunning();
    const assets = await pending;
    expect(assets).toHaveLength(1);
    expect(assets[0]).toMatchObject({ kind: 'image', content_type: 'image/jpeg', width: 1024, height: 576 });
    expect(assets[0].url).toMatch(new RegExp(`^${env.fal.url}/files/`));
    const phases = env.fal.requests.map((r) => r.phase);
    expect(phases[0]).toBe('submit');
    expect(phases.at(-1)).toBe('result');
    expect(phases.filter((p) => p === 'status').length).toBeGreaterThan(1);
    const submit = env.fal.requests[0];
    expect(submit.method).toBe('POST');
    expect(submit.path).toBe('/fal-ai/flux/dev');
    expect(submit.body).toEqual({ prompt: 'a tiger', image_size: 'landscape_16_9' });
    expect(submit.headers['content-type']).toBe('application/json');
    const status = env.fal.requests.find((r) => r.phase === 'status')!;
    expect(status.path).toMatch(/^\/fal-ai\/flux\/dev\/requests\/[^/]+\/status$/);
    expect(env.fal.requests.every((r) => r.phase === 'asset' || r.headers.authorization === `Key ${KEY}`)).toBe(true);
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('queued');
    expect(types).toContain('progress');
    expect(types).toContain('log');
    expect(types.at(-1)).toBe('done');
    expect(events.find((e) => e.type === 'log')!.message).toBe('loading fal-ai/flux/dev');
  });

  it('can follow the status as an event stream instead of polling', async () => {
    env.fal.setLatency(80);
    // A poll interval far beyond the test's timeout: a provider that waited one interval anywhere
    // (rather than following the stream) fails by never finishing, however fast the machine is.
    const provider = new FalProvider({ baseUrl: env.fal.url, pollIntervalMs: 3_600_000, statusStream: true });
    const events: RenderEvent[] = [];
    expect(await run(provider, { prompt: 'x' }, { onEvent: (e: RenderEvent) => events.push(e) })).toHaveLength(1);
    expect(env.fal.requests.map((r) => r.phase)).toEqual(['submit', 'stream', 'result']);
    expect(env.fal.requests[1].path).toMatch(/\/status\/stream$/);
    // How many intermediate states the stream shows depends on scheduling; its shape does not.
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('queued');
    expect(types.slice(-2)).toEqual(['log', 'done']);
  });

  it('falls back to polling when the status stream is not available', async () => {
    env.fal.inject({ phase: 'stream', status: 404 });
    const provider = new FalProvider({ baseUrl: env.fal.url, pollIntervalMs: 2, statusStream: true });
    expect(await run(provider)).toHaveLength(1);
    expect(env.fal.requests.map((r) => r.phase)).toContain('status');
  });

  it('uses FAL_KEY when no credentials are bound, and the bound key inside a scope', async () => {
    await withEnvKey('operator-key', async () => {
      await env.provider.run('fal-ai/flux/dev', { prompt: 'x' });
      await withCredentials({ falKey: 'user-key' }, () => env.provider.run('fal-ai/flux/dev', { prompt: 'y' }));
    });
    expect(env.fal.submissions().map((s) => s.authorization)).toEqual(['Key operator-key', 'Key user-key']);
  });

  it('fails without a key before calling anything, saying how to set one', async () => {
    const error = await withEnvKey(undefined, () => rejection(env.provider.run('fal-ai/flux/dev', { prompt: 'x' })));
    expect(error).toBeInstanceOf(FalUnauthorized);
    expect(error.message).toMatch(/Set the FAL_KEY environment variable/);
    expect(env.fal.requests).toHaveLength(0);
  });

  it('maps a 401 to FalUnauthorized without putting the key in the message', async () => {
    await env.close();
    env = await renderEnv({ acceptKeys: ['the-right-key'] });
    const error = await rejection(run(env.provider));
    expect(error).toBeInstanceOf(FalUnauthorized);
    expect((error as FalUnauthorized).status).toBe(401);
    expect(error.message).not.toContain(KEY);
    expect(error.message).not.toContain('secret');
  });

  it('retries 429 after Retry-After and 502/503/504 with backoff, then succeeds', async () => {
    env.fal.inject({ phase: 'submit', status: 429, headers: { 'retry-after': '0' }, body: { detail: 'slow down' } });
    env.fal.inject({ phase: 'submit', status: 503 });
    env.fal.inject({ phase: 'status', status: 502 });
    env.fal.inject({ phase: 'result', status: 504 });
    const assets = await run(env.provider);
    expect(assets).toHaveLength(1);
    expect(env.fal.requests.filter((r) => r.phase === 'submit')).toHaveLength(3);
    expect(env.fal.submissions()).toHaveLength(1);
  });

  it('retries connection resets', async () => {
    env.fal.inject({ phase: 'status', reset: true });
    env.fal.inject({ phase: 'result', reset: true });
    expect(await run(env.provider)).toHaveLength(1);
  });

  it('retries malformed status and result bodies', async () => {
    env.fal.inject({ phase: 'status', malformed: true, times: 2 });
    env.fal.inject({ phase: 'result', malformed: true });
    expect(await run(env.provider)).toHaveLength(1);
  });

  it('gives up on a malformed submission rather than submitting twice', async () => {
    env.fal.inject({ phase: 'submit', malformed: true });
    const error = await rejection(run(env.provider));
    expect(error).toBeInstanceOf(FalServerError);
    expect(error.message).toMatch(/malformed/);
    expect(env.fal.requests.filter((r) => r.phase === 'submit')).toHaveLength(1);
  });

  it('raises FalRateLimited when the 429s outlast the retries', async () => {
    const provider = new FalProvider({ baseUrl: env.fal.url, pollIntervalMs: 2, retryBaseMs: 1, retryMaxMs: 2, maxRetries: 2 });
    env.fal.inject({ phase: 'submit', status: 429, headers: { 'retry-after': '0' }, body: { detail: 'too many requests' }, times: 3 });
    const error = await rejection(run(provider));
    expect(error).toBeInstanceOf(FalRateLimited);
    expect((error as FalRateLimited).retryAfterS).toBe(0);
    expect(error.message).toMatch(/Lower --concurrency/);
  });

  it('raises FalServerError when 5xx outlast the retries', async () => {
    const provider = new FalProvider({ baseUrl: env.fal.url, pollIntervalMs: 2, retryBaseMs: 1, retryMaxMs: 2, maxRetries: 1 });
    env.fal.inject({ phase: 'submit', status: 503, body: { detail: 'runner unavailable', error_type: 'runner_scheduling_failure' }, times: 2 });
    const error = await rejection(run(provider));
    expect(error).toBeInstanceOf(FalServerError);
    expect(error.message).toContain('(HTTP 503): runner unavailable');
  });

  it('raises FalBadRequest carrying fal\'s detail for a model validation error', async () => {
    const detail = [{ loc: ['body', 'prompt'], msg: 'Prompt is too long', type: 'string_too_long' }];
    env.fal.setOutcome(() => ({ error: { status: 422, detail } }));
    const error = await rejection(run(env.provider));
    expect(error).toBeInstanceOf(FalBadRequest);
    expect((error as FalBadRequest).detail).toEqual(detail);
    expect((error as FalBadRequest).status).toBe(422);
    expect(error.message).toContain('prompt: Prompt is too long [string_too_long]');
    expect(error.message).toContain('retrying the same input will fail again');
  });

  it('times out a hung call, cancels it through the cancel URL and raises FalTimeout', async () => {
    const provider = new FalProvider({ baseUrl: env.fal.url, pollIntervalMs: 2, timeoutMs: 150 });
    env.fal.setLatency(60_000);
    const error = await rejection(run(provider));
    expect(error).toBeInstanceOf(FalTimeout);
    expect(error.message).toMatch(/did not finish within 0\.\d s and was cancelled/);
    const cancels = env.fal.requests.filter((r) => r.phase === 'cancel');
    expect(cancels).toHaveLength(1);
    expect(cancels[0].method).toBe('PUT');
    expect(cancels[0].headers.authorization).toBe(`Key ${KEY}`);
    expect(env.fal.cancelled()).toEqual([env.fal.submissions()[0].request_id]);
  });

  it('lets a submission under way when the time runs out finish, then cancels the request it queued (none is left running unpaid-for)', async () => {
    const provider = new FalProvider({ baseUrl: env.fal.url, pollIntervalMs: 2, timeoutMs: 50 });
    env.fal.setLatency(60_000);
    let release = (): void => undefined;
    env.fal.inject({ phase: 'submit', hold: new Promise<void>((resolve) => (release = resolve)) });
    const pending = rejection(run(provider));
    // Released well after the 50 ms ran out; should the machine be slower still, the call times out waiting instead: the same outcome.
    setTimeout(() => release(), 300);
    expect(await pending).toBeInstanceOf(FalTimeout);
    expect(env.fal.submissions()).toHaveLength(1);
    expect(env.fal.cancelled()).toEqual([env.fal.submissions()[0].request_id]);
  });

  it('times out a status request that never answers', async () => {
    const provider = new FalProvider({ baseUrl: env.fal.url, pollIntervalMs: 2, timeoutMs: 150 });
    env.fal.inject({ phase: 'status', hang: true });
    expect(await rejection(run(provider))).toBeInstanceOf(FalTimeout);
  });

  it('cancels the queued request when the caller aborts', async () => {
    env.fal.setLatency(60_000);
    const controller = new AbortController();
    const pending = run(env.provider, { prompt: 'x' }, {
      signal: controller.signal,
      onEvent: (e: RenderEvent) => {
        if (e.type === 'queued') setTimeout(() => controller.abort(), 10);
      },
    });
    const error = await rejection(pending);
    expect(error).toBeInstanceOf(RenderAbortedError);
    expect(env.fal.cancelled()).toHaveLength(1);
  });

  it('resumes a submitted request by its ticket instead of submitting again', async () => {
    env.fal.setLatency(40);
    const tickets: Record<string, string>[] = [];
    const first = run(env.provider, { prompt: 'x' }, { onSubmitted: (t: Record<string, string>) => tickets.push(t) });
    await first;
    env.fal.reset();
    const again = await run(env.provider, { prompt: 'x' }, { resume: tickets[0] });
    expect(again).toHaveLength(1);
    expect(env.fal.requests.some((r) => r.phase === 'submit')).toBe(false);
  });

  it('submits anew when a resumed request is unknown to fal', async () => {
    const ticket = { request_id: 'gone', status_url: `${env.fal.url}/fal-ai/flux/dev/requests/gone/status`, response_url: `${env.fal.url}/fal-ai/flux/dev/requests/gone`, cancel_url: `${env.fal.url}/fal-ai/flux/dev/requests/gone/cancel` };
    expect(await run(env.provider, { prompt: 'x' }, { resume: ticket })).toHaveLength(1);
    expect(env.fal.submissions()).toHaveLength(1);
  });

  it('submits anew when the resumed request failed or fal reports it ended, and says the ticket is dropped', async () => {
    const tickets: Record<string, string>[] = [];
    await run(env.provider, { prompt: 'x' }, { onSubmitted: (t: Record<string, string>) => tickets.push(t) });
    for (const injection of [
      { phase: 'result' as const, status: 500, body: { detail: 'runner crashed' } },
      { phase: 'result' as const, status: 422, body: { detail: 'bad input' } },
      { phase: 'status' as const, status: 200, body: { status: 'EXPIRED' } },
    ]) {
      env.fal.reset();
      env.fal.inject(injection);
      let dropped = 0;
      const again = await run(env.provider, { prompt: 'x' }, { resume: tickets[0], onDropped: () => dropped++ });
      expect(again).toHaveLength(1);
      expect(dropped).toBe(1);
      expect(env.fal.submissions()).toHaveLength(1);
    }
  });

  it('drops the ticket of a fresh request that fails, and keeps it when the connection fails', async () => {
    env.fal.setOutcome(() => ({ error: { status: 500, detail: 'runner crashed' } }));
    let dropped = 0;
    expect(await rejection(run(env.provider, { prompt: 'y' }, { onDropped: () => dropped++ }))).toBeInstanceOf(FalServerError);
    expect(dropped).toBe(1);
    env.fal.setOutcome(undefined);
    env.fal.inject({ phase: 'status', reset: true, times: 100 });
    dropped = 0;
    const provider = new FalProvider({ baseUrl: env.fal.url, pollIntervalMs: 2, retryBaseMs: 1, retryMaxMs: 2, maxRetries: 2 });
    expect(await rejection(run(provider, { prompt: 'z' }, { onDropped: () => dropped++ }))).toBeInstanceOf(FalServerError);
    expect(dropped).toBe(0);
  });

  it('downloads asset bytes without sending the key', async () => {
    const [asset] = await run(env.provider);
    const bytes = await env.provider.fetchAsset(asset.url);
    expect(Buffer.from(bytes).equals(env.fal.fileBytes(asset.url)!)).toBe(true);
    const download = env.fal.requests.find((r) => r.phase === 'asset')!;
    expect(download.headers.authorization).toBeUndefined();
  });

  it('reads the queue URL from FAL_QUEUE_URL when no base URL is given', async () => {
    const before = process.env.FAL_QUEUE_URL;
    process.env.FAL_QUEUE_URL = env.fal.url;
    try {
      expect(new FalProvider().baseUrl).toBe(env.fal.url);
    } finally {
      if (before === undefined) delete process.env.FAL_QUEUE_URL;
      else process.env.FAL_QUEUE_URL = before;
    }
    expect(new FalProvider().baseUrl).toBe(before ?? 'https://queue.fal.run');
  });
});

describe('assets of a model response', () => {
  it('scans images, image, videos, video, audios, audio and audio_url in that order', () => {
    expect(assetsOf({ audio_url: 'a', video: { url: 'v' }, images: [{ url: 'i1' }, 'i2'] }).map((a) => [a.kind, a.url])).toEqual([
      ['image', 'i1'], ['image', 'i2'], ['video', 'v'], ['audio', 'a'],
    ]);
  });

  it('treats items without a URL as no asset', () => {
    expect(assetsOf({ audio: { content_type: 'audio/mpeg' }, images: [] })).toEqual([]);
    expect(assetsOf(null)).toEqual([]);
  });
});

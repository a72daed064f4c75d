import { withCredentials } from '../../src/render/credentials.js';
import type { RenderEvent } from '../../src/render/events.js';
import { FalBadRequest, FalForeignUrlError, FalUnauthorized } from '../../src/render/providers/fal/errors.js';
import { FalProvider } from '../../src/render/providers/fal/fal-provider.js';
import { redactSecrets } from '../../src/text/secret-redaction.js';
import { RecordingServer } from '../support/recording-server.js';
import { rejection } from '../support/rejection.js';
import { renderEnv, type RenderEnv } from '../support/render-env.js';

// A key shaped like fal's: `<key id>:<key secret>`.
const KEY_ID = '3f1c2b9a-7d4e-4b8a-9c1d-2e5f6a7b8c9d';
const KEY_SECRET = '0123456789abcdef0123456789abcdef';
const KEY = `${KEY_ID}:${KEY_SECRET}`;

/** Every form of the key a leak could take: whole, URL-encoded, base64, and each of its two parts. */
const KEY_FORMS = [KEY, encodeURIComponent(KEY), Buffer.from(KEY).toString('base64'), KEY_ID, KEY_SECRET];

function leaked(text: string): string[] {
  return KEY_FORMS.filter((form) => text.includes(form));
}

let env: RenderEnv;
let events: RenderEvent[];
beforeEach(async () => {
  env = await renderEnv();
  events = [];
});
afterEach(() => env.close());

const run = (provider: FalProvider = env.provider, options = {}) =>
  withCredentials({ falKey: KEY }, () => provider.run('fal-ai/flux/dev', { prompt: 'a lighthouse' }, { onEvent: (e: RenderEvent) => events.push(e), ...options }));

describe('redactSecrets', () => {
  it('takes out a key as it is, URL-encoded, in base64 and in parts, and anything that looks like an Authorization value', () => {
    const text = [
      `Invalid key: ${KEY}`,
      `?fal_key=${encodeURIComponent(KEY)}`,
      `basic ${Buffer.from(KEY).toString('base64')}`,
      `key id ${KEY_ID} with secret ${KEY_SECRET}`,
      'Authorization: Key someone-elses-key-1234',
      '{"authorization": "Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc123"}',
      'token ghp_0123456789abcdefABCDEF',
    ].join('\n');
    const redacted = redactSecrets(text, [KEY]);
    expect(leaked(redacted)).toEqual([]);
    expect(redacted).not.toMatch(/someone-elses|eyJhbGci|ghp_/);
    expect(redacted).toContain('Authorization: ***');
    expect(redacted).toContain('"authorization": "***"');
  });

  it('leaves ordinary words and short secrets alone', () => {
    expect(redactSecrets('the key to the prompt: a lighthouse at dusk', ['k'])).toBe('the key to the prompt: a lighthouse at dusk');
    expect(redactSecrets('Key fal-ai/flux/dev', [])).toBe('Key fal-ai/flux/dev');
  });
});

describe('the fal provider keeps the key out of what it reports', () => {
  it('a 401 whose detail echoes the key: the error and its event carry no form of it', async () => {
    env.fal.inject({ phase: 'submit', status: 401, body: { detail: `Invalid key: ${KEY} (id ${KEY_ID}, url-encoded ${encodeURIComponent(KEY)}); send Authorization: Key ${KEY}` } });
    const error = await rejection(run());
    expect(error).toBeInstanceOf(FalUnauthorized);
    expect(error.message).toContain('fal refused the credentials for fal-ai/flux/dev (HTTP 401): Invalid key: ***');
    expect(leaked(error.message)).toEqual([]);
    const failed = events.find((e) => e.type === 'error')!;
    expect(leaked(failed.message!)).toEqual([]);
  });

  it('a 422 whose detail list quotes the key: neither the message nor the detail kept on the error has it', async () => {
    env.fal.setOutcome(() => ({ error: { status: 422, detail: [{ loc: ['header', 'authorization'], msg: `unexpected value Key ${KEY}`, type: 'value_error', input: KEY }] } }));
    const error = await rejection(run());
    expect(error).toBeInstanceOf(FalBadRequest);
    expect(leaked(error.message)).toEqual([]);
    expect(leaked(JSON.stringify((error as FalBadRequest).detail))).toEqual([]);
    expect(leaked(JSON.stringify(events))).toEqual([]);
  });

  it('status logs that echo the key, polled or streamed: the log events carry none of it', async () => {
    const logs = { status: 'IN_PROGRESS', logs: [{ message: `authenticated with Key ${KEY}` }, { message: `secret part ${KEY_SECRET}` }] };
    env.fal.inject({ phase: 'status', status: 200, body: logs });
    expect(await run()).toHaveLength(1);
    const logLines = events.filter((e) => e.type === 'log').map((e) => e.message!);
    expect(logLines).toEqual(expect.arrayContaining(['authenticated with Key ***', 'secret part ***']));
    expect(leaked(JSON.stringify(events))).toEqual([]);

    events = [];
    env.fal.inject({ phase: 'stream', status: 200, body: `data: ${JSON.stringify(logs)}\n\n` });
    const streaming = new FalProvider({ baseUrl: env.fal.url, pollIntervalMs: 2, statusStream: true });
    expect(await run(streaming)).toHaveLength(1);
    expect(events.filter((e) => e.type === 'log').map((e) => e.message)).toContain('authenticated with Key ***');
    expect(leaked(JSON.stringify(events))).toEqual([]);
  });
});

describe('the fal provider sends the key to the queue origin only', () => {
  let other: RecordingServer;
  beforeEach(async () => {
    other = await new RecordingServer().start();
  });
  afterEach(() => other.close());

  const foreignReply = (id: string) => ({
    request_id: id,
    status_url: `${other.url}/fal-ai/flux/dev/requests/${id}/status`,
    response_url: `${other.url}/fal-ai/flux/dev/requests/${id}`,
    cancel_url: `${other.url}/fal-ai/flux/dev/requests/${id}/cancel`,
  });

  it('refuses a submit reply that names another origin, sends that origin nothing, and cancels the request on the queue', async () => {
    env.fal.inject({ phase: 'submit', status: 200, body: foreignReply('r-1') });
    const error = await rejection(run());
    expect(error).toBeInstanceOf(FalForeignUrlError);
    expect((error as FalForeignUrlError).code).toBe('ANNOT_FAL_FOREIGN_URL');
    expect(error.message).toContain(`status_url on ${other.url}, not on the queue's origin ${env.fal.url}`);
    expect(other.requests).toEqual([]);
    // The cancellation went where fal's own client sends it: the queue's origin, built from the request id.
    const cancel = env.fal.requests.find((r) => r.phase === 'cancel')!;
    expect(cancel.path).toBe('/fal-ai/flux/dev/requests/r-1/cancel');
    expect(cancel.headers.authorization).toBe(`Key ${KEY}`);
  });

  it('refuses each URL of the reply alone, whichever is foreign', async () => {
    for (const field of ['response_url', 'cancel_url'] as const) {
      const own = `${env.fal.url}/fal-ai/flux/dev/requests/r-2`;
      env.fal.inject({ phase: 'submit', status: 200, body: { request_id: 'r-2', status_url: `${own}/status`, response_url: own, cancel_url: `${own}/cancel`, [field]: foreignReply('r-2')[field] } });
      const error = await rejection(run());
      expect([field, error]).toEqual([field, expect.any(FalForeignUrlError)]);
    }
    expect(other.requests).toEqual([]);
  });

  it('never calls a recorded ticket on another origin: it is dropped and the call submitted afresh', async () => {
    let dropped = 0;
    const assets = await run(env.provider, { resume: { model_id: 'fal-ai/flux/dev', ...foreignReply('old') }, onDropped: () => dropped++ });
    expect(assets).toHaveLength(1);
    expect(dropped).toBe(1);
    expect(other.requests).toEqual([]);
    expect(env.fal.submissions()).toHaveLength(1);
    expect(events.some((e) => e.type === 'notice' && e.message!.includes('cannot be collected'))).toBe(true);
  });

  it('accepts URLs on the queue origin under any path, as fal names them', async () => {
    const assets = await run();
    expect(assets).toHaveLength(1);
    expect(env.fal.requests.filter((r) => r.phase !== 'asset').every((r) => r.headers.authorization === `Key ${KEY}`)).toBe(true);
  });
});

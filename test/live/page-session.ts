import { chromium, type Browser, type Page } from 'playwright-core';
import { serveCli, type ServedCli } from '../support/serve-cli.js';

// The page's globals as the callbacks given to page.evaluate see them (this file has no DOM types).
declare const window: { annotTimeline?: { ready: boolean } };

/** What the browser tests read of an annotation over HTTP. */
export interface Wire {
  id: string;
  tier: string;
  reference: { kind: string; asset_id?: string; target_id?: string; interval: { start: { v: number; r: number; s?: string }; end: { v: number; r: number; s?: string } } };
  body: Record<string, unknown>;
  body_schema_uri: string;
  provenance: { was_generated_by: string; was_attributed_to: string; was_derived_from: string[]; generated_at_time: { v: number; r: number } };
}

export interface Answer {
  status: number;
  etag: string | null;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A served file and a chromium page on it, with a small HTTP client beside the page (what another user, or curl, does). */
export interface PageSession {
  served: ServedCli;
  browser: Browser;
  page: Page;
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
  /** Every annotation, read over HTTP. */
  all(): Promise<Wire[]>;
  byText(text: string): Promise<Wire | undefined>;
  close(): Promise<void>;
}

/**
 * `annot serve ARGS` in a child process (its peaks kept in `cacheDir`), and chromium on its page,
 * waited for until the page has loaded the store. Requests the page makes are in `requests`.
 */
export async function openPageSession(executablePath: string, args: string[], cacheDir: string): Promise<PageSession> {
  const served = await serveCli(args, { killAfterMs: 600_000, env: { ANNOT_CACHE_DIR: cacheDir } });
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(`${served.url}/`);
  await page.waitForFunction(() => window.annotTimeline?.ready === true, null, { timeout: 30_000 });
  const api: PageSession['api'] = async (method, path, body, headers = {}) => {
    const response = await fetch(served.url + path, { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, etag: response.headers.get('etag'), json: text === '' ? undefined : JSON.parse(text) };
  };
  const all = async () => (await api('GET', '/annotations?limit=100000')).json as Wire[];
  return {
    served,
    browser,
    page,
    api,
    all,
    byText: async (text) => (await all()).find((annotation) => annotation.body.text === text),
    close: async () => {
      await browser.close();
      await served.stop();
    },
  };
}

/** Seconds of an exact time. */
export const seconds = (t: { v: number; r: number }): number => t.v / t.r;

import type { OpLoggedStore } from '../../src/oplog/op-logged-store.js';
import { startServer, type RunningServer, type ServeOptions } from '../../src/server/serve.js';
import { MemoryStore } from '../../src/store/memory.js';
import { SqliteStore } from '../../src/store/sqlite.js';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (undefined for an empty body). */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface TestServer {
  url: string;
  server: RunningServer;
  store: OpLoggedStore;
  call(method: string, path: string, options?: { json?: unknown; body?: RequestInit['body']; headers?: Record<string, string> }): Promise<Answer>;
  close(): Promise<void>;
}

/** The stores the HTTP tests run against. */
export const STORE_KINDS: Array<'memory' | 'sqlite'> = ['memory', 'sqlite'];

async function openStore(kind: 'memory' | 'sqlite'): Promise<OpLoggedStore> {
  if (kind === 'memory') return new MemoryStore();
  return SqliteStore.open(':memory:');
}

/** A real server on 127.0.0.1 with a free port, over a fresh store (memory by default). */
export async function startTestServer(options: Partial<Omit<ServeOptions, 'store'>> & { storeKind?: 'memory' | 'sqlite' } = {}): Promise<TestServer> {
  const { storeKind = 'memory', ...serveOptions } = options;
  const store = await openStore(storeKind);
  const server = await startServer({ store, log: () => {}, ...serveOptions });
  const call: TestServer['call'] = async (method, path, { json, body, headers = {} } = {}) => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (json !== undefined) {
      init.body = JSON.stringify(json);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    } else if (body !== undefined) {
      init.body = body;
    }
    const response = await fetch(server.url + path, init);
    const text = await response.text();
    let parsed: unknown;
    if (text !== '' && (response.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, text, json: parsed };
  };
  return { url: server.url, server, store, call, close: () => server.close() };
}

export const WORDS_TIER = { name: 'words', stereotype: 'NONE' };

/** A word annotation in wire form, between two times in milliseconds; no id, no provenance (the server adds them). */
export function wordInput(text: string, startMs: number, endMs: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    tier: 'words',
    reference: { kind: 'media', asset_id: 'talk.wav', interval: { start: { v: startMs, r: 1000 }, end: { v: endMs, r: 1000 } } },
    body: { text },
    body_schema_uri: 'annot://schema/word/v1',
    ...extra,
  };
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeRenderCaches } from '../../src/render/cache.js';
import { FalProvider, type FalProviderOptions } from '../../src/render/providers/fal/fal-provider.js';
import { startFakeFalServer, type FakeFalOptions, type FakeFalServer } from './fake-fal-server.js';

/** A fake fal server, a fal provider pointed at it with test-speed timings, and a fresh cache dir. */
export interface RenderEnv {
  fal: FakeFalServer;
  provider: FalProvider;
  cacheDir: string;
  /** Options for the render operations: this provider and this cache. */
  opts: { provider: FalProvider; cacheDir: string };
  close(): Promise<void>;
}

export async function renderEnv(options: FakeFalOptions = {}, providerOptions: FalProviderOptions = {}): Promise<RenderEnv> {
  const fal = await startFakeFalServer(options);
  const provider = new FalProvider({ baseUrl: fal.url, pollIntervalMs: 2, retryBaseMs: 1, retryMaxMs: 5, ...providerOptions });
  const cacheDir = mkdtempSync(join(tmpdir(), 'annot-render-'));
  return {
    fal,
    provider,
    cacheDir,
    opts: { provider, cacheDir },
    async close() {
      closeRenderCaches();
      await fal.close();
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}

/** Runs fn with FAL_KEY set, restoring the previous value. */
export async function withEnvKey<T>(key: string | undefined, fn: () => Promise<T>): Promise<T> {
  const before = process.env.FAL_KEY;
  if (key === undefined) delete process.env.FAL_KEY;
  else process.env.FAL_KEY = key;
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env.FAL_KEY;
    else process.env.FAL_KEY = before;
  }
}

import { listAdapters } from '../../src/adapters/registry.js';

/**
 * Loads every built-in codec, one after the other. A conversion loads its two codecs at once
 * (Promise.all of two dynamic imports), and jest's ESM loader, asked for one module by both before
 * either finished linking it, fails with "request for '…' is not in cache"; node never does. Tests
 * that convert in-process call this first.
 */
export async function loadEveryCodec(): Promise<void> {
  for (const adapter of listAdapters()) await adapter.codec();
}

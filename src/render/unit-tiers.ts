import type { UnitContext } from './model-call.js';
import { unitAddress } from './remote/unit-entry.js';

/**
 * A unit's result kept in both tiers after a fresh render: this machine's cache, then the shared
 * one. When another machine wrote the shared entry first, its result is adopted (with its media)
 * and kept here too, so every machine's manifest names the same media. Returns the result to use.
 */
export async function keepUnit(ctx: UnitContext, namespace: string, key: string, result: Record<string, unknown>, note: string): Promise<Record<string, unknown>> {
  ctx.cache.putUnit(namespace, key, { ...result }, note);
  if (!ctx.remote || !ctx.assets) return result;
  const shared = await ctx.remote.publish(unitAddress(ctx.provider, namespace, key), result, { assets: ctx.assets, emit: ctx.emit, signal: ctx.signal }, { force: ctx.force });
  if (shared.result === result) return result;
  ctx.emit({ type: 'notice', message: `${note}: another machine shared this unit first; its media are used, so every manifest names the same` });
  const adopted = { ...shared.result, cache_hit: result.cache_hit };
  ctx.cache.putUnit(namespace, key, { ...adopted }, note);
  return adopted;
}

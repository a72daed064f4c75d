import { closestName } from '../text/nearest-name.js';
import { TierNotFoundError } from '../store/errors.js';
import type { AnnotationStore } from '../store/store.js';

/**
 * `--tier nope` on a store without that tier: an error that lists the tiers there are and, when
 * one is a likely typo of the name given, suggests it. A silent empty result would look like
 * "no annotations" in a CI log.
 */
export async function requireTier(store: AnnotationStore, name: string, where: string): Promise<void> {
  if ((await store.getTier(name)) !== null) return;
  const tiers = (await store.listTiers()).map((tier) => tier.name);
  throw new TierNotFoundError(unknownTierMessage(name, tiers, where));
}

export function unknownTierMessage(name: string, tiers: readonly string[], where: string): string {
  const near = closestName(name, tiers);
  const hint = near !== undefined ? `; did you mean "${near}"?` : '';
  const list = tiers.length > 0 ? ` (tiers: ${tiers.join(', ')})` : ' (it has no tiers)';
  return `${where} has no tier "${name}"${hint}${list}`;
}

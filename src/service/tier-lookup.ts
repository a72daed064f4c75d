import { TierNotFoundError } from '../store/errors.js';
import type { AnnotationStore } from '../store/store.js';

/**
 * `--tier nope` on a store without that tier: an error that lists the tiers there are and, when
 * one is a likely typo of the name given, suggests it. A silent empty result would look like
 * "no annotations" in a CI log.
 */
export async function requireTier(store: AnnotationStore, name: string, where: string): Promise<void> {
  const tiers = (await store.listTiers()).map((tier) => tier.name);
  if (tiers.includes(name)) return;
  throw new TierNotFoundError(unknownTierMessage(name, tiers, where));
}

export function unknownTierMessage(name: string, tiers: readonly string[], where: string): string {
  const near = closestName(name, tiers);
  const hint = near !== undefined ? `; did you mean "${near}"?` : '';
  const list = tiers.length > 0 ? ` (tiers: ${tiers.join(', ')})` : ' (it has no tiers)';
  return `${where} has no tier "${name}"${hint}${list}`;
}

/** The candidate nearest to `name` by edit distance, when it is close enough to be a typo. */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = levenshtein(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= Math.max(1, Math.floor(name.length / 3)) ? best : undefined;
}

export function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length];
}

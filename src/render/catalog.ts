import { editDistance } from '../text/nearest-name.js';
import { InvalidInputError } from '../errors/annot-error.js';
import { UnknownModelCategoryError, UnknownModelError, UnknownModelOverrideError } from './errors.js';
import { MODEL_RECORDS, TIERS, type ModelRecord, type Tier } from './models.js';

export { TIERS, type ModelPrice, type ModelRecord, type Tier } from './models.js';

/** A tier name that is not one of fast, balanced, high, ultra. */
export class UnknownQualityTierError extends InvalidInputError {
  /** The stable code of this error (see docs/errors.md). */
  override readonly code = 'ANNOT_UNKNOWN_QUALITY_TIER';

  constructor(
    /** The quality tier that was asked for. */
    readonly tier: string,
  ) {
    super(`unknown quality "${tier}"; expected one of ${TIERS.join(', ')}.`);
  }
}

/** Every record, in catalog order; optional filters match exactly. */
export function listModels(filter: { category?: string; tier?: string } = {}): ModelRecord[] {
  return MODEL_RECORDS.filter((r) => (filter.category === undefined || r.category === filter.category) && (filter.tier === undefined || r.tier === filter.tier));
}

/** Every model category of the catalog, sorted. */
export function modelCategories(): string[] {
  return [...new Set(MODEL_RECORDS.map((r) => r.category))].sort();
}

/**
 * The default model for a category at a quality tier. When the category has no model at that
 * tier, the nearest tier that has one is used, the lower (cheaper) one first at equal distance:
 * for `high`, try `balanced`, then `ultra`, then `fast`.
 */
export function pickModel(category: string, tier: string = 'balanced'): ModelRecord {
  const candidates = MODEL_RECORDS.filter((r) => r.category === category);
  if (candidates.length === 0) throw new UnknownModelCategoryError(category, modelCategories());
  for (const t of tierSearchOrder(tier)) {
    const found = candidates.find((r) => r.tier === t);
    if (found) return found;
  }
  /* c8 ignore next: a non-empty category always has some tier */
  return candidates[0];
}

/**
 * The order in which pickModel tries tiers: the tier itself, then by distance, the lower tier
 * first at equal distance. `high` → high, balanced, ultra, fast.
 */
export function tierSearchOrder(tier: string): Tier[] {
  const index = TIERS.indexOf(tier as Tier);
  if (index < 0) throw new UnknownQualityTierError(tier);
  const order: Tier[] = [TIERS[index]];
  for (let offset = 1; offset < TIERS.length; offset++) {
    if (index - offset >= 0) order.push(TIERS[index - offset]);
    if (index + offset < TIERS.length) order.push(TIERS[index + offset]);
  }
  return order;
}

/** A record by exact id, else by alias. */
export function resolveModel(idOrAlias: string): ModelRecord {
  const found = MODEL_RECORDS.find((r) => r.id === idOrAlias) ?? MODEL_RECORDS.find((r) => r.aliases.includes(idOrAlias));
  if (!found) throw new UnknownModelError(idOrAlias);
  return found;
}

/**
 * The model id to call for an override: a catalog alias becomes its id, anything else is taken
 * as a fal endpoint id as given (the catalog does not list every model fal serves).
 */
export function modelIdFor(override: string): string {
  return MODEL_RECORDS.find((r) => r.aliases.includes(override))?.id ?? override;
}

/** A fal endpoint id spelled in full: owner/model, optionally with more path parts. */
const ENDPOINT_ID = /^[A-Za-z0-9][\w.-]*\/[\w.-]+(\/[\w.-]+)*$/;

/**
 * Checks a `--*-model` override before anything is rendered. A catalog id or alias is taken as
 * is. An explicit `owner/model` endpoint outside the catalog is accepted with a warning (fal
 * serves more models than the catalog lists, but their price is unknown). Anything else is a
 * typo: UnknownModelOverrideError with the nearest catalog names.
 */
export function checkModelOverride(flag: string, value: string): { id: string; warning?: string } {
  if (MODEL_RECORDS.some((r) => r.id === value || r.aliases.includes(value))) return { id: modelIdFor(value) };
  const near = nearestModelNames(value);
  if (!ENDPOINT_ID.test(value)) throw new UnknownModelOverrideError(flag, value, near);
  const hint = near.length > 0 ? ` (did you mean ${near.map((x) => `"${x}"`).join(' or ')}?)` : '';
  return { id: value, warning: `${flag} ${value} is not in the catalog: price unknown${hint}` };
}

/** Catalog ids and aliases within a small edit distance of `value`, nearest first (at most 2). */
function nearestModelNames(value: string): string[] {
  const names = MODEL_RECORDS.flatMap((r) => [r.id, ...r.aliases]);
  const limit = Math.max(2, Math.floor(value.length / 3));
  return names
    .map((name) => ({ name, distance: editDistance(value.toLowerCase(), name.toLowerCase()) }))
    .filter((x) => x.distance <= limit)
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, 2)
    .map((x) => x.name);
}

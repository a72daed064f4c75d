import type { Annotation } from '../model/annotation.js';
import { validateTierConstraint } from '../model/tier-constraint.js';
import type { Tier } from '../model/tier.js';
import { hasBodySchema, validateBody } from '../schemas/registry.js';
import type { AnnotationStore } from '../store/store.js';
import type { RationalTime } from '../time/rational-time.js';

/** A problem validateAnnotations found in a store. */
export interface ValidationProblem {
  /** The annotation it is about, when it is about one. */
  readonly annotation_id: string | null;
  /** The tier it is about, when it is about one. */
  readonly tier: string | null;
  /** `body_schema` for a body that fails its schema, or the tier-constraint code (`overlap`, `gap`...). */
  readonly code: string;
  /** What is wrong. */
  readonly message: string;
}

/** What validateAnnotations reports about a store. */
export interface ValidationSummary {
  /** Whether nothing is wrong (warnings aside). */
  readonly valid: boolean;
  /** How many annotations the store holds. */
  readonly annotations: number;
  /** Each tier, with its stereotype, parent and number of annotations. */
  readonly tiers: Array<{
    /** The tier's name. */
    name: string;
    /** Its stereotype. */
    stereotype: string;
    /** Its parent's name, or null. */
    parent: string | null;
    /** How many annotations it holds. */
    annotations: number;
  }>;
  /** Earliest start and latest end over all interval annotations, as exact decimal seconds; null when none. */
  readonly time_span: {
    /** The earliest start. */
    start: string;
    /** The latest end. */
    end: string;
  } | null;
  /** The media assets the annotations refer to. */
  readonly assets: string[];
  /** Each body schema URI used, with its number of annotations and whether it is registered. */
  readonly schemas: Array<{
    /** The body schema URI. */
    uri: string;
    /** How many annotations use it. */
    annotations: number;
    /** Whether a schema is registered under it. */
    registered: boolean;
  }>;
  /** Every problem found. */
  readonly violations: ValidationProblem[];
  /** Things that are not wrong but could not be checked (a body schema this build does not know). */
  readonly warnings: string[];
}

/**
 * Checks a whole store: every body against its registered schema and every tier against its
 * stereotype constraint, reporting each problem with the annotation id and what is wrong.
 */
export async function validateAnnotations(store: AnnotationStore): Promise<ValidationSummary> {
  const tiers = await store.listTiers();
  const byTier = new Map<string, Annotation[]>(tiers.map((tier) => [tier.name, []]));
  const schemaCounts = new Map<string, number>();
  const assets = new Set<string>();
  const violations: ValidationProblem[] = [];
  let earliest: RationalTime | null = null;
  let latest: RationalTime | null = null;
  let count = 0;
  const ids = new Set<string>();
  const references: Array<{ id: string; tier: string; target: string }> = [];

  for await (const annotation of store.all()) {
    count++;
    ids.add(annotation.id);
    if (annotation.reference.kind === 'annotation') references.push({ id: annotation.id, tier: annotation.tier, target: annotation.reference.target_id });
    let list = byTier.get(annotation.tier);
    if (!list) byTier.set(annotation.tier, (list = []));
    list.push(annotation);
    schemaCounts.set(annotation.body_schema_uri, (schemaCounts.get(annotation.body_schema_uri) ?? 0) + 1);
    if (annotation.reference.kind === 'media') {
      const { asset_id, interval } = annotation.reference;
      assets.add(asset_id);
      if (!earliest || interval.start.lt(earliest)) earliest = interval.start;
      if (!latest || interval.end.gt(latest)) latest = interval.end;
    }
    if (hasBodySchema(annotation.body_schema_uri)) {
      const result = validateBody(annotation.body_schema_uri, annotation.body);
      for (const issue of result.errors) {
        violations.push({
          annotation_id: annotation.id,
          tier: annotation.tier,
          code: 'body_schema',
          message: `${issue.path}: ${issue.message} (schema ${annotation.body_schema_uri})`,
        });
      }
    }
  }

  const tierByName = new Map<string, Tier>(tiers.map((tier) => [tier.name, tier]));
  for (const tier of tiers) {
    const parent = tier.parent ? tierByName.get(tier.parent) ?? null : null;
    const found = validateTierConstraint(tier, byTier.get(tier.name) ?? [], parent, parent ? byTier.get(parent.name) ?? [] : []);
    for (const violation of found) {
      violations.push({ annotation_id: violation.annotation_id, tier: violation.tier, code: violation.code, message: violation.message });
    }
  }

  // A reference to an annotation the store lacks (tier constraints report it as unknown_target
  // on symbolic tiers; on any other tier it is checked here).
  const reported = new Set(violations.filter((v) => v.code === 'unknown_target').map((v) => v.annotation_id));
  for (const reference of references) {
    if (ids.has(reference.target) || reported.has(reference.id)) continue;
    violations.push({ annotation_id: reference.id, tier: reference.tier, code: 'missing_reference', message: `refers to annotation ${reference.target}, which is not in the store` });
  }

  const unregistered = [...schemaCounts.keys()].filter((uri) => !hasBodySchema(uri)).sort();
  return {
    valid: violations.length === 0,
    annotations: count,
    tiers: tiers.map((tier) => ({ name: tier.name, stereotype: tier.stereotype, parent: tier.parent, annotations: byTier.get(tier.name)?.length ?? 0 })),
    time_span: earliest && latest ? { start: earliest.toSecondsString(), end: latest.toSecondsString() } : null,
    assets: [...assets].sort(),
    schemas: [...schemaCounts.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([uri, annotations]) => ({ uri, annotations, registered: hasBodySchema(uri) })),
    violations,
    warnings: unregistered.map((uri) => `body schema ${uri} is not registered in this build: its bodies were not checked`),
  };
}

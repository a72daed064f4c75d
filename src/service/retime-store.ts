import type { Annotation, MediaRef } from '../model/annotation.js';
import type { Tier } from '../model/tier.js';
import { annotationsReferringTo } from '../store/referring-reads.js';
import type { AnnotationStore } from '../store/store.js';
import { describeMap, isIdentityMap, mapApplies, retimeMap, wireSpelling, type PartSpelling, type RetimeMap, type RetimeRequest } from '../time/retime.js';
import type { AnnotationService } from './annotation-service.js';
import { AnnotationRetimer, type RetimeCounts, type RetimeStrictness } from './retime-annotations.js';
import type { AnnotationEdit } from './tier-constraint-guard.js';
import { requireTier } from './tier-lookup.js';

/** How a store is retimed, besides the request itself. */
export interface RetimeStoreOptions extends RetimeStrictness {
  /** Retime only this tier (and the tiers that depend on it); default every tier. */
  readonly tier?: string;
  /** Who the op-log records as making the change. */
  readonly actor: string;
  /** How messages name the request's parts: `--fps-from` on the command line, `fps_from` (the default) over HTTP and MCP. */
  readonly spell?: PartSpelling;
  /** How messages name the store (`talk.annot`, `the store`). */
  readonly storeName?: string;
}

/** What retiming a store did. */
export interface RetimeStoreResult {
  /** The map applied. */
  readonly map: RetimeMap;
  /** The map for messages: `×25025/24000, +2.5 s`. */
  readonly description: string;
  /** Annotations moved, cut at 0 s, dropped (with those that referred to them: `dependents`, as `droppedReferring`), and times rounded. */
  readonly counts: RetimeCounts;
  /** Annotations without a time of their own, on a symbolic tier, dropped with the annotation they referred to. */
  readonly droppedReferring: number;
  /** One line per kind of loss (cut, dropped, rounded), for stderr or an answer. */
  readonly findings: string[];
  /** The tiers retimed, parents before their children. */
  readonly tiers: string[];
  /** The op-log clock of the retime's last entry; null when nothing changed (no entry was written). */
  readonly clock: number | null;
}

const TIME_ALIGNED = new Set(['INCLUDED_IN', 'TIME_SUBDIVISION']);

/**
 * Applies a retime to a store in place (an `.annot` file, a PostgreSQL project, a served store):
 * the one operation behind `annot retime`, `POST /retime` and the `retime` MCP tool. Every moved
 * annotation is updated and every dropped one deleted in one op-log batch, all or nothing, so a
 * server on the same store sees it through its op-log stream. A refusal (`strict`, `strictTime`,
 * a tier constraint the result would break, a bad request) changes nothing.
 *
 * Which annotations move: those that start in `within` (all without it), except that a child on an
 * INCLUDED_IN or TIME_SUBDIVISION tier moves with the parent annotation that holds it, so a
 * window's edge never tears a child from its parent. Every tier follows the same increasing map,
 * which keeps containment and tiling; rounding to a tick keeps them too where parent and child
 * share a rate (the tier-constraint guard judges the result either way). Annotations of a symbolic
 * tier have no times; one whose target is dropped (moved wholly before 0 s) is dropped with it.
 */
export async function retimeStore(service: AnnotationService, request: RetimeRequest, options: RetimeStoreOptions): Promise<RetimeStoreResult> {
  const spell = options.spell ?? wireSpelling;
  const map = retimeMap(request, spell);
  const store = service.store;
  if (options.tier !== undefined) await requireTier(store, options.tier, options.storeName ?? 'the store');
  const tiers = selectedTiers(await store.listTiers(), options.tier);
  const retimer = new AnnotationRetimer(withoutWindow(map), options, describeAnnotation);
  let droppedReferring = 0;
  const plan = async () => {
    const { edits, dropped } = await plannedMoves(store, tiers, map, retimer);
    const referring = await referringToDropped(store, tiers, dropped);
    droppedReferring = referring.length;
    return [...edits, ...referring];
  };
  const clock = isIdentityMap(map) ? null : await inSpelling(spell, () => service.applyPlannedEdits(plan, options.actor));
  const findings = retimer.findings().map((line) => strictnessIn(spell, line));
  if (droppedReferring > 0) findings.push(`${droppedReferring} annotation${droppedReferring === 1 ? '' : 's'} without a time, referring to one dropped, ${droppedReferring === 1 ? 'was' : 'were'} dropped with it`);
  return {
    map,
    description: describeMap(map),
    counts: { ...retimer.counts, dependents: droppedReferring },
    droppedReferring,
    findings,
    tiers: tiers.map(({ name }) => name),
    clock,
  };
}

/**
 * The retimer words its refusals and findings for the command line (`--strict`, `--strict-time`);
 * over HTTP and MCP they name the fields (`strict`, `strict_time`), as the map's own errors do.
 */
async function inSpelling<T>(spell: PartSpelling, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Error) error.message = strictnessIn(spell, error.message);
    throw error;
  }
}

function strictnessIn(spell: PartSpelling, text: string): string {
  if (spell('fps_from') === '--fps-from') return text;
  return text.replace(/--strict-time\b/g, 'strict_time').replace(/--strict\b/g, 'strict');
}

/** The tier named and every tier below it (children follow their parents), or every tier; parents first. */
function selectedTiers(all: readonly Tier[], name: string | undefined): Tier[] {
  const children = new Map<string | null, Tier[]>();
  for (const tier of all) {
    const parent = tier.parent !== null && all.some((other) => other.name === tier.parent) ? tier.parent : null;
    children.set(parent, [...(children.get(parent) ?? []), tier]);
  }
  const roots = name === undefined ? children.get(null) ?? [] : all.filter((tier) => tier.name === name);
  const ordered: Tier[] = [];
  const seen = new Set<string>();
  for (let i = 0, queue = [...roots]; i < queue.length; i++) {
    const tier = queue[i];
    if (seen.has(tier.name)) continue;
    seen.add(tier.name);
    ordered.push(tier);
    queue.push(...(children.get(tier.name) ?? []));
  }
  return ordered;
}

/**
 * The update or deletion of every annotation the map moves, tier by tier, parents first; which
 * annotations move is decided on the times before the retime.
 */
async function plannedMoves(store: AnnotationStore, tiers: readonly Tier[], map: RetimeMap, retimer: AnnotationRetimer): Promise<{ edits: AnnotationEdit[]; dropped: Set<string> }> {
  const edits: AnnotationEdit[] = [];
  const dropped = new Set<string>();
  const moving = new Map<string, { timed: Timed[]; moved: Set<string> }>();
  for (const tier of tiers) {
    const timed = (await store.byTier(tier.name)).filter(isTimed);
    const holders = tier.parent !== null && TIME_ALIGNED.has(tier.stereotype) ? moving.get(tier.parent) : undefined;
    const holderOf = holders === undefined ? undefined : holderFinder(holders.timed);
    const moved = new Set<string>();
    for (const annotation of timed) {
      const holder = holderOf?.(annotation);
      const moves = holder !== undefined ? holders!.moved.has(holder.id) : mapApplies(map, annotation.reference.interval.start);
      if (!moves) continue;
      moved.add(annotation.id);
      const after = retimer.retime(annotation);
      if (after === null) dropped.add(annotation.id);
      if (after === null || !sameInterval(annotation, after)) edits.push({ before: annotation, after });
    }
    moving.set(tier.name, { timed, moved });
  }
  return { edits, dropped };
}

/** The deletions of annotations on symbolic tiers that refer to a dropped one, and to those, and so on. */
async function referringToDropped(store: AnnotationStore, tiers: readonly Tier[], dropped: ReadonlySet<string>): Promise<AnnotationEdit[]> {
  const edits: AnnotationEdit[] = [];
  let targets = [...dropped];
  while (targets.length > 0) {
    const next: string[] = [];
    for (const tier of tiers) {
      if (tier.parent === null || TIME_ALIGNED.has(tier.stereotype) || tier.stereotype === 'NONE') continue;
      for (const annotation of await annotationsReferringTo(store, tier.name, targets)) {
        edits.push({ before: annotation, after: null });
        next.push(annotation.id);
      }
    }
    targets = next;
  }
  return edits;
}

type Timed = Annotation & { readonly reference: MediaRef };

function isTimed(annotation: Annotation): annotation is Timed {
  return annotation.reference.kind === 'media';
}

/**
 * Finds the parent annotation that holds a child (same asset, the child's interval inside it),
 * by a binary search over the parents in start order: the parents of a constrained tier do not
 * overlap, so the holder is among the last few that start at or before the child.
 */
function holderFinder(parents: readonly Timed[]): (child: Timed) => Timed | undefined {
  const sorted = [...parents].sort((a, b) => a.reference.interval.start.compare(b.reference.interval.start));
  return (child) => {
    const { start, end } = child.reference.interval;
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (sorted[middle].reference.interval.start.le(start)) low = middle + 1;
      else high = middle;
    }
    for (let i = low - 1; i >= 0 && i >= low - 8; i--) {
      const parent = sorted[i];
      const bounds = parent.reference.interval;
      if (parent.reference.asset_id === child.reference.asset_id && bounds.start.le(start) && end.le(bounds.end)) return parent;
    }
    return undefined;
  };
}

function withoutWindow({ factor, offset }: RetimeMap): RetimeMap {
  return { factor, offset };
}

function sameInterval(before: Timed, after: Annotation): boolean {
  return after.reference.kind === 'media' && after.reference.interval.equals(before.reference.interval);
}

function describeAnnotation(annotation: Annotation): string {
  const where = annotation.reference.kind === 'media' ? ` (${annotation.reference.interval.toString()} s)` : '';
  return `annotation ${annotation.id} on tier "${annotation.tier}"${where}`;
}

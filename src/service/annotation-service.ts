import { annotationEtag, ifMatchSatisfied } from '../digest/etag.js';
import { InvalidInputError } from '../errors/annot-error.js';
import { makeAnnotation, type Annotation } from '../model/annotation.js';
import { WireFormatError } from '../model/errors.js';
import { makeApprovalReview, REVIEW_TIER } from '../quality/review.js';
import { makeTier, type Tier } from '../model/tier.js';
import { annotationFromWire, annotationToWire, resolveWireTimes, tierFromWire } from '../model/wire.js';
import type { Mutation } from '../oplog/mutation.js';
import type { OpLogEntry } from '../oplog/op-log-entry.js';
import type { OpLoggedStore, OpLogRange } from '../oplog/op-logged-store.js';
import { stateAt, type StateSnapshot } from '../store/replay.js';
import { UnknownBodySchemaError } from '../schemas/errors.js';
import { assertValidBody, hasBodySchema } from '../schemas/registry.js';
import { AnnotationNotFoundError, TierNotFoundError } from '../store/errors.js';
import { ATTR_ANNOTATION_COUNT, ATTR_CLOCK, ATTR_MUTATION_COUNT, ATTR_MUTATION_KINDS, ATTR_RELATION, ATTR_STORE_KIND, ATTR_TIER, ATTR_WINDOW_END, ATTR_WINDOW_START } from '../telemetry/attributes.js';
import { withSpan } from '../telemetry/tracing.js';
import { RationalTime } from '../time/rational-time.js';
import type { ResolveOptions } from '../time/time-input.js';
import type { AnnotationBatch, AnnotationDeletion, AnnotationPatch, AnnotationUpdate } from './annotation-updates.js';
import { PreconditionRequiredError } from './errors.js';
import { assertBatchKeepsTierConstraints, assertKeepsTierConstraints, type AnnotationEdit } from './tier-constraint-guard.js';
import { checkMutationBounds } from './mutation-bounds.js';
import type { ReadForm, ReadItem, ReadPage } from '../store/read-page.js';
import { readPage } from './read-annotations.js';
import type { ReadRequest } from './read-request.js';

/** The generator of annotations created through the service without a provenance of their own. */
export const SERVICE_AGENT = 'server:annot';

/** An annotation as a client sends it: the wire form, where `id` and `provenance` may be left to the service. */
export type AnnotationInput = Record<string, unknown>;

export type { AnnotationBatch, AnnotationDeletion, AnnotationPatch, AnnotationUpdate } from './annotation-updates.js';

/** What a batch did: the annotations created and updated, as stored, in the order asked, and those deleted, as they were. */
export interface BatchResult {
  /** The new annotations as stored (with the ids and provenance the service gave them), in the order of `creates`. */
  readonly created: Annotation[];
  /** The updated annotations as stored, in the order of `updates`. */
  readonly updated: Annotation[];
  /** The removed annotations as they were before the batch, in the order of `deletes` (what an undo restores). */
  readonly deleted: Annotation[];
}

/** What a mutating operation gives back: its result and the clock of its op-log entry. */
export interface Mutated<T> {
  /** The operation's result. */
  readonly value: T;
  /** The Lamport clock of the last entry the operation appended. */
  readonly clock: number;
}

/**
 * The operations every surface calls (HTTP routes, MCP tools, CLI commands, processors). Each
 * mutation goes through the store's op-log in one transaction and returns its clock, so a
 * behaviour exists once and human and agent edits share one Lamport clock.
 */
export class AnnotationService {
  /** Guarded edits, one at a time: two edits checked against the same neighbours cannot together break a constraint. */
  private editTurn: Promise<unknown> = Promise.resolve();

  constructor(
    /** The store every operation reads and writes, through its op-log. */
    readonly store: OpLoggedStore,
    private readonly clock: () => RationalTime = () => RationalTime.now(1000),
  ) {}

  // tiers

  /** Registers a tier given in wire form, as `actor`; returns it with the op-log clock. */
  async addTier(input: unknown, actor: string, options: { enforceNoOverlap?: boolean } = {}): Promise<Mutated<Tier>> {
    const tier = tierFromWire(input);
    const clock = await this.apply([{ kind: 'add_tier', tier, enforceNoOverlap: options.enforceNoOverlap }], actor);
    return { value: tier, clock };
  }

  /** Every registered tier. */
  listTiers(): Promise<Tier[]> {
    return this.store.listTiers();
  }

  /** The tier of this name (TierNotFoundError when there is none). */
  async getTier(name: string): Promise<Tier> {
    const tier = await this.store.getTier(name);
    if (!tier) throw new TierNotFoundError(`tier "${name}" not found`);
    return tier;
  }

  // annotations

  /**
   * Creates an annotation from its wire form; a missing id is generated and a missing provenance is
   * the service's. The interval's times may be in any form of the time vocabulary (`times` gives
   * the rate they must be exact at and the fps of SMPTE timecodes).
   */
  async createAnnotation(input: AnnotationInput, actor: string, times: ResolveOptions = {}): Promise<Mutated<Annotation>> {
    const annotation = this.annotationFromInput(input, 'annotation', actor, times);
    const clock = await this.applyEdit({ before: null, after: annotation }, [{ kind: 'add_annotation', annotation }], actor);
    return { value: annotation, clock };
  }

  /** An annotation from its wire form as a client sends it: a missing id generated, a missing provenance the service's, the body checked. */
  private annotationFromInput(input: AnnotationInput, name: string, actor: string, times: ResolveOptions): Annotation {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new InvalidInputError(`${name}: expected a JSON object`);
    const wire = { ...(resolveWireTimes(input, times) as Record<string, unknown>) };
    if (wire.id === undefined) wire.id = crypto.randomUUID();
    if (wire.provenance === undefined) {
      wire.provenance = { was_generated_by: SERVICE_AGENT, was_attributed_to: actor, was_derived_from: [], generated_at_time: this.clock().toWire() };
    }
    const annotation = annotationFromWire(wire);
    checkBody(annotation);
    return annotation;
  }

  /** The annotation with this id (AnnotationNotFoundError when there is none). */
  async getAnnotation(id: string): Promise<Annotation> {
    const annotation = await this.store.get(id);
    if (!annotation) throw new AnnotationNotFoundError(`annotation ${id} not found`);
    return annotation;
  }

  /**
   * A partial update guarded by `If-Match`: required (PreconditionRequiredError without it), and
   * checked inside the store's transaction, so of two writers holding the same ETag exactly one
   * wins. The id and provenance never change; `confidence: null` clears the confidence.
   */
  async updateAnnotation(id: string, patch: AnnotationPatch, ifMatch: string | undefined, actor: string, times: ResolveOptions = {}): Promise<Mutated<Annotation>> {
    const { value, clock } = await this.updateAnnotations([{ id, patch, ifMatch }], actor, times);
    return { value: value[0], clock };
  }

  /**
   * Several partial updates as one: each guarded by its own `If-Match` (required), judged together
   * by the tier-constraint guard (so two TIME_SUBDIVISION neighbours can move their shared
   * boundary), and applied in one op-log transaction. All or nothing: a stale ETag on any item
   * (412), an item that would break a constraint (409) or bad input leaves the store unchanged.
   */
  async updateAnnotations(updates: readonly AnnotationUpdate[], actor: string, times: ResolveOptions = {}): Promise<Mutated<Annotation[]>> {
    if (!Array.isArray(updates) || updates.length === 0) throw new InvalidInputError('updates: expected a non-empty array of {id, if_match, patch}');
    const { value, clock } = await this.applyBatch({ updates }, actor, times);
    return { value: value.updated, clock };
  }

  /**
   * Creations, updates and deletions as one edit: a split (an update and a creation) or a merge
   * (an update and a deletion) on a TIME_SUBDIVISION tier, which either half alone would refuse.
   * Each update and deletion is guarded by its own `If-Match` (required), the whole is judged by
   * the tier-constraint guard, and it is applied in one op-log transaction (deletions, then
   * updates, then creations). All or nothing: a stale ETag (412), a missing one (428), an id in
   * use (409), a broken constraint (409) or bad input leaves the store unchanged.
   */
  async applyBatch(batch: AnnotationBatch, actor: string, times: ResolveOptions = {}): Promise<Mutated<BatchResult>> {
    const { creates = [], updates = [], deletes = [] } = batch;
    const count = creates.length + updates.length + deletes.length;
    if (count === 0) throw new InvalidInputError('batch: expected at least one creation, update or deletion');
    const single = count === 1;
    const seen = new Set<string>();
    const once = (id: string, where: string) => {
      if (seen.has(id)) throw new InvalidInputError(`${where}: annotation ${id} appears twice in one batch; merge the two changes`);
      seen.add(id);
    };
    deletes.forEach(({ id, ifMatch }, index) => {
      const where = single ? '' : ` (deletes[${index}])`;
      if (ifMatch === undefined || ifMatch.trim() === '') throw new PreconditionRequiredError(`deleting annotation ${id}${where} needs If-Match with the ETag you read (GET it first)`);
      once(id, `deletes[${index}]`);
    });
    updates.forEach(({ id, ifMatch, patch }, index) => {
      const where = single ? '' : ` (updates[${index}])`;
      if (ifMatch === undefined || ifMatch.trim() === '') throw new PreconditionRequiredError(`updating annotation ${id}${where} needs If-Match with the ETag you read (GET it first)`);
      if (seen.has(id)) throw new InvalidInputError(`updates[${index}]: annotation ${id} is updated twice in one batch; merge the two patches`);
      once(id, `updates[${index}]`);
      checkPatch(patch, single ? 'patch' : `updates[${index}].patch`);
    });
    const created = creates.map((input, index) => this.annotationFromInput(input, single ? 'annotation' : `creates[${index}]`, actor, times));
    created.forEach(({ id }, index) => once(id, `creates[${index}]`));
    return this.inEditTurn(() => this.applyCheckedBatch(deletes, updates, created, actor, times));
  }

  /** The batch read against the store, judged as a whole, then applied in one transaction. */
  private async applyCheckedBatch(
    deletes: readonly AnnotationDeletion[],
    updates: readonly AnnotationUpdate[],
    created: readonly Annotation[],
    actor: string,
    times: ResolveOptions,
  ): Promise<Mutated<BatchResult>> {
    const edits: AnnotationEdit[] = [];
    // A stale If-Match is the client's to learn first (412, from the store), and an id in use
    // the store's to refuse (409), before whether the edit would fit.
    let judge = true;
    const gone: Annotation[] = [];
    for (const { id, ifMatch } of deletes) {
      const current = await this.getAnnotation(id);
      gone.push(current);
      edits.push({ before: current, after: null });
      if (!ifMatchSatisfied(ifMatch!, annotationEtag(current))) judge = false;
    }
    const updated: Annotation[] = [];
    for (const { id, ifMatch, patch } of updates) {
      const current = await this.getAnnotation(id);
      const wire = annotationToWire(current) as unknown as Record<string, unknown>;
      const merged = { ...wire, ...patch, id: current.id, provenance: wire.provenance };
      // Only a patch that sets the reference has times to resolve; the current ones stay as they are.
      const revised = annotationFromWire(patch.reference !== undefined ? resolveWireTimes(merged, times) : merged);
      checkBody(revised);
      updated.push(revised);
      edits.push({ before: current, after: revised });
      if (!ifMatchSatisfied(ifMatch!, annotationEtag(current))) judge = false;
    }
    for (const annotation of created) {
      edits.push({ before: null, after: annotation });
      if (await this.store.get(annotation.id)) judge = false;
    }
    if (judge) await assertBatchKeepsTierConstraints(this.store, edits);
    const mutations: Mutation[] = [
      ...deletes.map(({ id, ifMatch }): Mutation => ({ kind: 'delete_annotation', id, ifMatch })),
      ...updates.map(({ ifMatch }, index): Mutation => ({ kind: 'update_annotation', annotation: updated[index], ifMatch })),
      ...created.map((annotation): Mutation => ({ kind: 'add_annotation', annotation })),
    ];
    const clock = await this.apply(mutations, actor);
    return { value: { created: [...created], updated, deleted: gone }, clock };
  }

  /**
   * Deletes one annotation. An annotation with children on a tier constrained by its own (ELAN
   * deletes those with it) is refused instead (TierConstraintError): the client deletes or moves
   * the children first, so nothing goes without being named.
   */
  async deleteAnnotation(id: string, actor: string, ifMatch?: string): Promise<Mutated<Annotation>> {
    return this.inEditTurn(async () => {
      const current = await this.getAnnotation(id);
      if (ifMatch === undefined || ifMatchSatisfied(ifMatch, annotationEtag(current))) await assertKeepsTierConstraints(this.store, { before: current, after: null });
      const clock = await this.apply([{ kind: 'delete_annotation', id, ifMatch }], actor);
      return { value: current, clock };
    });
  }

  /**
   * Edits planned from the store as it is (a retime): `plan` runs in the edit turn, so no guarded
   * edit of this service comes between its reads and the write; the edits it returns (each of a
   * different annotation) are judged as a whole by the tier-constraint guard, then applied in one
   * op-log transaction (deletions, then updates, then creations), each update and deletion guarded
   * by the ETag of the version it was planned from, so another process's edit in between is a 412
   * and changes nothing. All or nothing. The clock is null when the plan changed nothing.
   */
  applyPlannedEdits(plan: () => Promise<readonly AnnotationEdit[]>, actor: string): Promise<number | null> {
    return this.inEditTurn(async () => {
      const edits = await plan();
      if (edits.length === 0) return null;
      await assertBatchKeepsTierConstraints(this.store, edits);
      const guarded = (before: Annotation) => annotationEtag(before);
      const mutations: Mutation[] = [
        ...edits.filter((edit) => edit.before && !edit.after).map(({ before }): Mutation => ({ kind: 'delete_annotation', id: before!.id, ifMatch: guarded(before!) })),
        ...edits.filter((edit) => edit.before && edit.after).map(({ before, after }): Mutation => ({ kind: 'update_annotation', annotation: after!, ifMatch: guarded(before!) })),
        ...edits.filter((edit) => !edit.before && edit.after).map(({ after }): Mutation => ({ kind: 'add_annotation', annotation: after! })),
      ];
      return this.apply(mutations, actor);
    });
  }

  /** Applies one annotation edit once it is known to keep every tier constraint that holds now. */
  private applyEdit(edit: AnnotationEdit, mutations: readonly Mutation[], actor: string): Promise<number> {
    return this.inEditTurn(async () => {
      await assertKeepsTierConstraints(this.store, edit);
      return this.apply(mutations, actor);
    });
  }

  private inEditTurn<T>(task: () => Promise<T>): Promise<T> {
    const run = this.editTurn.then(task, task);
    this.editTurn = run.catch(() => undefined);
    return run;
  }

  /**
   * One page of a parsed read (read-request.ts): HTTP, MCP and every other surface read through
   * here, one store query per page, traced as `store.query`.
   */
  read<F extends ReadForm>(request: ReadRequest, form: F): Promise<ReadPage<ReadItem<F>>> {
    return withSpan('store.query', () => this.readAttributes(request), async (span) => {
      const page = await readPage(this.store, request, form, 'the store');
      span.setAttribute(ATTR_ANNOTATION_COUNT, page.items.length);
      return page;
    });
  }

  private readAttributes({ query }: ReadRequest) {
    return {
      [ATTR_STORE_KIND]: this.store.kind,
      [ATTR_TIER]: query.tier,
      [ATTR_RELATION]: query.window === undefined ? undefined : query.relation ?? 'intersects',
      [ATTR_WINDOW_START]: query.window?.start.toSecondsString(),
      [ATTR_WINDOW_END]: query.window?.end.toSecondsString(),
    };
  }

  /**
   * Records a human decision on an AI suggestion: the annotation keeps its id, body and
   * provenance, only its confidence becomes 1 (accepted) or 0 (rejected); the decision itself is a
   * separate approval review on tier `review` referring to it. Both changes (and the review tier,
   * the first time) are one transaction.
   */
  async acceptAiSuggestion(id: string, accept: boolean, actor: string): Promise<
    Mutated<{
      /** The suggestion, its confidence set to 1 (accepted) or 0 (rejected). */
      annotation: Annotation;
      /** The review annotation that records the decision. */
      review: Annotation;
    }>
  > {
    const current = await this.getAnnotation(id);
    const reviewed = makeAnnotation({ ...current, confidence: accept ? 1 : 0 });
    const review = makeApprovalReview(reviewed, { reviewer: actor, accept, at: this.clock() });
    const mutations: Mutation[] = [{ kind: 'update_annotation', annotation: reviewed, ifMatch: annotationEtag(current) }];
    if (!(await this.store.getTier(REVIEW_TIER))) mutations.push({ kind: 'add_tier', tier: makeTier({ name: REVIEW_TIER }) });
    mutations.push({ kind: 'add_annotation', annotation: review });
    const clock = await this.apply(mutations, actor);
    return { value: { annotation: reviewed, review }, clock };
  }

  // metadata

  /** Every metadata key and value of the store. */
  listMeta(): Promise<Record<string, string>> {
    return this.store.listMeta();
  }

  /** Sets a metadata value, as `actor`; returns it with the op-log clock. */
  async setMeta(key: string, value: unknown, actor: string): Promise<Mutated<string>> {
    if (typeof value !== 'string') throw new InvalidInputError(`meta value for "${key}": expected a string, got ${value === null ? 'null' : typeof value}`);
    const clock = await this.apply([{ kind: 'set_meta', key, value }], actor);
    return { value, clock };
  }

  /** Closes the listings kept open between pages; call before closing the store. */
  // the op-log

  latestClock(): Promise<number> {
    return this.store.latestClock();
  }

  /** Op-log entries in clock order, within the range. */
  readOpLog(range: OpLogRange = {}): Promise<OpLogEntry[]> {
    return this.store.readOpLog(range);
  }

  /** The store's state as it was at a clock, replayed from the op-log. */
  stateAt(clock: number): Promise<StateSnapshot> {
    return stateAt(this.store, clock);
  }

  /** Applies mutations as one logged transaction and returns the last clock. */
  apply(mutations: readonly Mutation[], actor: string): Promise<number> {
    return withSpan('store.apply', { [ATTR_STORE_KIND]: this.store.kind, [ATTR_MUTATION_COUNT]: mutations.length }, async (span) => {
      if (span.isRecording()) span.setAttribute(ATTR_MUTATION_KINDS, [...new Set(mutations.map((mutation) => mutation.kind))]);
      checkMutationBounds(mutations);
      const entries = await this.store.applyLogged(mutations, { actor, receivedAt: this.clock() });
      const clock = entries.length > 0 ? entries[entries.length - 1].clock : await this.store.latestClock();
      span.setAttribute(ATTR_CLOCK, clock);
      return clock;
    });
  }
}

const CHANGEABLE = ['tier', 'body', 'body_schema_uri', 'confidence', 'reference'];

/** A patch is an object changing only what may change (never the id or the provenance). */
function checkPatch(patch: unknown, name: string): void {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) throw new InvalidInputError(`${name}: expected a JSON object`);
  const unknown = Object.keys(patch).filter((key) => !CHANGEABLE.includes(key));
  if (unknown.length > 0) {
    throw new WireFormatError('patch', unknown.map((key) => ({ path: `${name}.${key}`, message: `cannot be changed (changeable: ${CHANGEABLE.join(', ')})`, keyword: 'additionalProperties' })));
  }
}

/** Bodies are checked against their registered schema; an unregistered schema URI is refused. */
function checkBody(annotation: Annotation): void {
  if (!hasBodySchema(annotation.body_schema_uri)) {
    throw new UnknownBodySchemaError(annotation.body_schema_uri);
  }
  assertValidBody(annotation.body_schema_uri, annotation.body);
}


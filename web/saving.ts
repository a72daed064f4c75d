// Saving an edit with If-Match, and what the user is told when it is not saved: a refusal (409, a
// tier constraint), a conflict (412, someone else changed it first) or any other failure.
import { ApiError } from './api.js';
import { el } from './dom.js';
import type { Edit, SaveOutcome, Saved } from './edits.js';
import { labelOf } from './model.js';
import { annotationName, nameAnnotations } from './notice.js';
import type { PageContext } from './page-context.js';
import { formatTime } from './time-format.js';
import type { AnnotationWire } from './wire.js';

interface BatchAnswer {
  updated: Array<{ etag: string; annotation: AnnotationWire }>;
  created: Array<{ etag: string; annotation: AnnotationWire }>;
  deleted: string[];
}

/** The saves on their way: an undo waits for them, so it undoes the edit the user just made. */
const inFlight = new Set<Promise<unknown>>();

/** Resolves once every save started so far has its answer. */
export async function settled(): Promise<void> {
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
}

/** Saves the edit; what it did when the server took it, else null, and the overlay says why and offers what can be done. */
export function save(ctx: PageContext, edit: Edit): Promise<SaveOutcome | null> {
  const saving = attempt(ctx, edit);
  inFlight.add(saving);
  void saving.finally(() => inFlight.delete(saving));
  return saving;
}

async function attempt(ctx: PageContext, edit: Edit): Promise<SaveOutcome | null> {
  ctx.status(`saving ${edit.describe}…`, 'busy');
  try {
    const etags = await Promise.all(edit.parts.map((part) => part.etag));
    const deleteEtags = await Promise.all((edit.deletes ?? []).map((part) => part.etag));
    const { outcome, clock } = await send(ctx, edit, etags, deleteEtags);
    // Without a clock (a proxy that dropped the header) every answer is taken as the newest.
    const at = clock === null || !Number.isFinite(Number(clock)) ? Infinity : Number(clock);
    for (const { wire, etag } of [...outcome.updated, ...outcome.created]) {
      if (at !== Infinity && !ctx.model.isNewer(wire.id, at)) continue; // Someone's later change came first through the stream.
      if (at !== Infinity) ctx.model.heldAt(wire.id, at);
      ctx.model.upsert(wire, etag);
    }
    for (const id of outcome.deleted) {
      if (at !== Infinity) ctx.model.heldAt(id, at);
      ctx.model.remove(id);
    }
    ctx.refreshInspector();
    const done = edit.done ?? `saved ${edit.describe}`;
    ctx.status(`${done} · clock ${clock ?? '?'}`);
    ctx.announce(done);
    if (edit.onSaved) edit.onSaved(outcome);
    else ctx.history.record(edit, { parts: etags, deletes: deleteEtags }, outcome);
    return outcome;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 412 || error.code === 'ANNOT_ANNOTATION_NOT_FOUND')) await conflict(ctx, edit);
    else if (error instanceof ApiError && error.code === 'ANNOT_TIER_CONSTRAINT') refused(ctx, edit, error);
    else failed(ctx, edit, error);
    return null;
  }
}

/**
 * The edit in one request: one annotation changed (PATCH with If-Match), created (POST) or
 * deleted (DELETE with If-Match); anything more in one PATCH /annotations, one transaction.
 */
async function send(ctx: PageContext, edit: Edit, etags: string[], deleteEtags: string[]): Promise<{ outcome: SaveOutcome; clock: string | null }> {
  const creates = edit.creates ?? [];
  const deletes = edit.deletes ?? [];
  const none: SaveOutcome = { created: [], updated: [], deleted: [] };
  const saved = (answer: { value: AnnotationWire; etag: string | null }): Saved => ({ wire: answer.value, etag: answer.etag ?? '' });
  const count = edit.parts.length + creates.length + deletes.length;
  if (count === 1 && edit.parts.length === 1) {
    const [{ id, patch }] = edit.parts;
    const answer = await ctx.api.request<AnnotationWire>('PATCH', `/annotations/${encodeURIComponent(id)}`, patch, { 'If-Match': etags[0] });
    return { outcome: { ...none, updated: [saved(answer)] }, clock: answer.headers.get('X-Service-Clock') };
  }
  if (count === 1 && creates.length === 1) {
    const answer = await ctx.api.request<AnnotationWire>('POST', '/annotations', creates[0].input);
    return { outcome: { ...none, created: [saved(answer)] }, clock: answer.headers.get('X-Service-Clock') };
  }
  if (count === 1 && deletes.length === 1) {
    const answer = await ctx.api.request<void>('DELETE', `/annotations/${encodeURIComponent(deletes[0].id)}`, undefined, { 'If-Match': deleteEtags[0] });
    return { outcome: { ...none, deleted: [deletes[0].id] }, clock: answer.headers.get('X-Service-Clock') };
  }
  const body = {
    ...(edit.parts.length > 0 ? { updates: edit.parts.map(({ id, patch }, index) => ({ id, if_match: etags[index], patch })) } : {}),
    ...(creates.length > 0 ? { creates: creates.map((part) => part.input) } : {}),
    ...(deletes.length > 0 ? { deletes: deletes.map(({ id }, index) => ({ id, if_match: deleteEtags[index] })) } : {}),
  };
  const answer = await ctx.api.request<BatchAnswer>('PATCH', '/annotations', body);
  const pair = ({ annotation, etag }: { annotation: AnnotationWire; etag: string }): Saved => ({ wire: annotation, etag });
  return { outcome: { created: answer.value.created.map(pair), updated: answer.value.updated.map(pair), deleted: answer.value.deleted }, clock: answer.headers.get('X-Service-Clock') };
}

/** An annotation as the overlay shows it: text, tier and times, no id. */
function describeWire(ctx: PageContext, wire: AnnotationWire): string {
  const reference = wire.reference;
  const times = reference.kind === 'media' ? [reference.interval.start.v / reference.interval.start.r, reference.interval.end.v / reference.interval.end.r] : null;
  const item = ctx.model.items.get(wire.id);
  const span = times ?? (item ? [item.start, item.end] : null);
  return `"${labelOf(wire)}" on ${wire.tier}${span ? `, ${formatTime(span[0], ctx.view.format)} to ${formatTime(span[1], ctx.view.format)}` : ''}`;
}

/** What the edit would have made of each annotation it touches, for the conflict view. */
function yours(ctx: PageContext, edit: Edit): string[] {
  return [
    ...edit.parts.map((part) => describeWire(ctx, { ...part.before, ...part.patch } as AnnotationWire)),
    ...(edit.deletes ?? []).map((part) => `${describeWire(ctx, part.before)}: deleted`),
  ];
}

/**
 * Someone else changed (or deleted) an annotation first: show your version and the current one,
 * change nothing, let the user choose: apply the change to the current version, or discard it.
 */
async function conflict(ctx: PageContext, edit: Edit): Promise<void> {
  ctx.status(`conflict: ${edit.describe} not saved`, 'error');
  const touched = [...edit.parts, ...(edit.deletes ?? [])];
  const names = touched.map((part) => annotationName(ctx.model, part.id));
  const current: Array<{ value: AnnotationWire; etag: string | null } | null> = [];
  for (const part of touched) {
    try {
      const answer = await ctx.api.request<AnnotationWire>('GET', `/annotations/${encodeURIComponent(part.id)}`);
      ctx.model.upsert(answer.value, answer.etag);
      current.push(answer);
    } catch {
      current.push(null); // Deleted meanwhile: said below, and the change cannot be applied.
      ctx.model.remove(part.id);
    }
  }
  const allThere = current.every((answer) => answer !== null);
  const now = current.map((answer, index) => (answer ? describeWire(ctx, answer.value) : `${names[index]} has been deleted`));
  const retry = (): Edit => {
    const fresh = (index: number) => Promise.resolve(current[index]?.etag ?? '');
    return {
      ...edit,
      parts: edit.parts.map((part, index) => ({ ...part, etag: fresh(index), before: current[index]?.value ?? part.before })),
      deletes: edit.deletes?.map((part, index) => ({ ...part, etag: fresh(edit.parts.length + index), before: current[edit.parts.length + index]?.value ?? part.before })),
    };
  };
  ctx.notice.show({
    kind: 'conflict',
    title: `412 · someone else changed ${names.join(' and ')} first`,
    body: [
      el('p', {}, `Your change (${edit.describe}) was not saved. It would make:`),
      el('ul', { id: 'conflict-yours' }, ...yours(ctx, edit).map((line) => el('li', {}, line))),
      el('p', {}, 'Now it is:'),
      el('ul', { id: 'conflict-current' }, ...now.map((line) => el('li', {}, line))),
      el('p', {}, allThere ? 'Apply your change on top of the current version, or discard it.' : 'It cannot be applied any more.'),
    ],
    actions: [
      ...(allThere ? [{ id: 'conflict-retry', label: 'Apply my change to the current version', primary: true, run: () => void save(ctx, retry()) }] : []),
      { id: 'conflict-discard', label: 'Discard my change', primary: !allThere, run: () => ctx.status(`discarded ${edit.describe}`) },
    ],
    onDismiss: () => ctx.status(`discarded ${edit.describe}`),
  });
}

/**
 * The server refused the change because it would break a tier constraint (a block dragged past
 * its parent or a child, a parent deleted before its children, a split or a merge that leaves a
 * gap): retrying cannot help, so the overlay says why, naming the annotations by their text and
 * tier, and the blocks are back where they were (the caller restores them).
 */
export function refused(ctx: PageContext, edit: Edit, error: ApiError): void {
  ctx.status(`refused: ${edit.describe}`, 'error');
  const ids = [...edit.parts.map((part) => part.id), ...(edit.deletes ?? []).map((part) => part.id), ...error.violations.flatMap((v) => [v.annotation_id ?? '', ...v.related_ids])];
  const touched = edit.parts.length + (edit.deletes?.length ?? 0);
  const back = touched === 0 ? 'nothing was created' : touched === 1 && !edit.creates?.length ? 'the annotation is back where it was' : 'the annotations are back where they were';
  ctx.notice.show({
    kind: 'refused',
    title: `${error.status} · refused: the change would break a tier constraint`,
    body: [
      el('p', { id: 'refused-message' }, nameAnnotations(error.message, ids, ctx.model)),
      el('p', {}, `Your change (${edit.describe}) was not saved; ${back}. Edit the annotations it names first, then try again.`),
    ],
    actions: [{ id: 'refused-ok', label: 'OK', primary: true }],
  });
}

/** A refusal the page itself makes before sending anything (no parent at the playhead, a block in the way), in the same overlay. */
export function refusedHere(ctx: PageContext, what: string, why: string): void {
  ctx.status(`refused: ${what}`, 'error');
  ctx.notice.show({
    kind: 'refused',
    title: `refused: ${what}`,
    body: [el('p', { id: 'refused-message' }, why), el('p', {}, 'Nothing was changed.')],
    actions: [{ id: 'refused-ok', label: 'OK', primary: true }],
  });
}

/** Any other failure: the change can be sent again or dropped. */
function failed(ctx: PageContext, edit: Edit, error: unknown): void {
  const ids = [...edit.parts.map((part) => part.id), ...(edit.deletes ?? []).map((part) => part.id)];
  const message = error instanceof ApiError ? `${error.status} ${error.code}: ${nameAnnotations(error.message, ids, ctx.model)}` : String(error);
  ctx.status(`not saved: ${edit.describe}`, 'error');
  ctx.notice.show({
    kind: 'failed',
    title: `not saved: ${edit.describe}`,
    body: [el('p', { id: 'failed-message' }, message)],
    actions: [
      { id: 'failed-retry', label: 'Retry', primary: true, run: () => void save(ctx, edit) },
      { id: 'failed-discard', label: 'Discard my change', run: () => ctx.status(`discarded ${edit.describe}`) },
    ],
    onDismiss: () => ctx.status(`discarded ${edit.describe}`),
  });
}

// Saving an edit with If-Match, and what the user is told when it is not saved: a refusal (409, a
// tier constraint), a conflict (412, someone else changed it first) or any other failure.
import { ApiError } from './api.js';
import { el } from './dom.js';
import type { Edit } from './edits.js';
import { labelOf } from './model.js';
import { annotationName, nameAnnotations } from './notice.js';
import type { PageContext } from './page-context.js';
import { formatTime } from './time-format.js';
import type { AnnotationWire } from './wire.js';

interface BatchAnswer {
  updated: Array<{ etag: string; annotation: AnnotationWire }>;
}

/** Saves the edit; true when the server took it. When not, the overlay says why and offers what can be done. */
export async function save(ctx: PageContext, edit: Edit): Promise<boolean> {
  ctx.status(`saving ${edit.describe}…`, 'busy');
  try {
    const etags = await Promise.all(edit.parts.map((part) => part.etag));
    const clock = await send(ctx, edit, etags);
    ctx.refreshInspector();
    ctx.status(`saved ${edit.describe} · clock ${clock ?? '?'}`);
    ctx.announce(`saved ${edit.describe}`);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 412) await conflict(ctx, edit);
    else if (error instanceof ApiError && error.code === 'ANNOT_TIER_CONSTRAINT') refused(ctx, edit, error);
    else failed(ctx, edit, error);
    return false;
  }
}

/** One PATCH with If-Match for one annotation; several go in one request, applied in one transaction or not at all. */
async function send(ctx: PageContext, edit: Edit, etags: string[]): Promise<string | null> {
  if (edit.parts.length === 1) {
    const [{ id, patch }] = edit.parts;
    const answer = await ctx.api.request<AnnotationWire>('PATCH', `/annotations/${encodeURIComponent(id)}`, patch, { 'If-Match': etags[0] });
    ctx.model.upsert(answer.value, answer.etag);
    return answer.headers.get('X-Service-Clock');
  }
  const updates = edit.parts.map(({ id, patch }, index) => ({ id, if_match: etags[index], patch }));
  const answer = await ctx.api.request<BatchAnswer>('PATCH', '/annotations', { updates });
  for (const { annotation, etag } of answer.value.updated) ctx.model.upsert(annotation, etag);
  return answer.headers.get('X-Service-Clock');
}

/** An annotation as the overlay shows it: text, tier and times, no id. */
function describeWire(ctx: PageContext, wire: AnnotationWire): string {
  const item = ctx.model.items.get(wire.id);
  const times = item ? `, ${formatTime(item.start, ctx.view.format)} to ${formatTime(item.end, ctx.view.format)}` : '';
  return `"${labelOf(wire)}" on ${wire.tier}${times}`;
}

/** Someone else changed an annotation first: show the current versions, keep ours, let the user choose. */
async function conflict(ctx: PageContext, edit: Edit): Promise<void> {
  ctx.status(`conflict: ${edit.describe} not saved`, 'error');
  const names = edit.parts.map((part) => annotationName(ctx.model, part.id));
  const current: Array<{ value: AnnotationWire; etag: string | null } | null> = [];
  for (const part of edit.parts) {
    try {
      const answer = await ctx.api.request<AnnotationWire>('GET', `/annotations/${encodeURIComponent(part.id)}`);
      ctx.model.upsert(answer.value, answer.etag);
      current.push(answer);
    } catch {
      current.push(null); // Deleted meanwhile: said below, and the change cannot be applied.
    }
  }
  const allThere = current.every((answer) => answer !== null);
  const now = current.map((answer, index) => (answer ? describeWire(ctx, answer.value) : `${names[index]} has been deleted`));
  ctx.notice.show({
    kind: 'conflict',
    title: `412 · someone else changed ${names.join(' and ')} first`,
    body: [
      el('p', {}, `Your change (${edit.describe}) was not saved. Now it is:`),
      el('ul', { id: 'conflict-current' }, ...now.map((line) => el('li', {}, line))),
      el('p', {}, allThere ? 'Apply your change on top of the current version, or discard it.' : 'It cannot be applied any more.'),
    ],
    actions: [
      ...(allThere ? [{ id: 'conflict-retry', label: 'Apply my change to the current version', primary: true, run: () => void save(ctx, { ...edit, parts: edit.parts.map((part, index) => ({ ...part, etag: Promise.resolve(current[index]?.etag ?? '') })) }) }] : []),
      { id: 'conflict-discard', label: 'Discard my change', primary: !allThere, run: () => ctx.status(`discarded ${edit.describe}`) },
    ],
    onDismiss: () => ctx.status(`discarded ${edit.describe}`),
  });
}

/**
 * The server refused the change because it would break a tier constraint (a block dragged past
 * its parent or a child): retrying cannot help, so the overlay says why, naming the annotations
 * by their text and tier, and the blocks are back where they were (the caller restores them).
 */
function refused(ctx: PageContext, edit: Edit, error: ApiError): void {
  ctx.status(`refused: ${edit.describe}`, 'error');
  const ids = [...edit.parts.map((part) => part.id), ...error.violations.flatMap((v) => [v.annotation_id ?? '', ...v.related_ids])];
  const back = edit.parts.length === 1 ? 'the annotation is back where it was' : 'the annotations are back where they were';
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

/** Any other failure: the change can be sent again or dropped. */
function failed(ctx: PageContext, edit: Edit, error: unknown): void {
  const ids = edit.parts.map((part) => part.id);
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

// Undo and redo of the page's own edits, as ELAN and every editor have them: each step is what one saved
// edit did to each annotation it touched (its version before and after, with their ETags). Undoing is the
// inverse edit through the API, guarded by the ETag the page holds of the version it left: if anyone
// changed that annotation since, the server refuses it (412) and the conflict view shows both versions.
// An annotation brought back (an undone creation's redo, an undone deletion) keeps its id, body, times and
// provenance, and its provenance records that it was restored.
import { patchBetween, requestForm, type Edit, type SaveOutcome } from './edits.js';
import type { AnnotationWire } from './wire.js';

/** What a step did to one annotation: null where it did not exist (before a creation, after a deletion). */
interface Change {
  id: string;
  before: AnnotationWire | null;
  after: AnnotationWire | null;
  etags: { before: string | null; after: string | null };
}

export interface Step {
  /** The edit as a noun phrase ("text "the dog"", "creation of "hi" on A-utt"). */
  label: string;
  changes: Change[];
}

/** How many steps are kept. */
const LIMIT = 500;
/** Said in was_generated_by of an annotation the page brought back. */
export const RESTORED = ';restored';

export class History {
  private readonly undone: Step[] = [];
  private readonly done: Step[] = [];

  get canUndo(): boolean {
    return this.done.length > 0;
  }

  get canRedo(): boolean {
    return this.undone.length > 0;
  }

  /** The next step to undo or redo, for the buttons' titles. */
  peek(which: 'undo' | 'redo'): Step | undefined {
    const stack = which === 'undo' ? this.done : this.undone;
    return stack[stack.length - 1];
  }

  /**
   * Records what a new edit did; the steps undone before it can no longer be redone. `edit` gives
   * each annotation's version before (and the ETag it was saved against), `outcome` the versions after.
   */
  record(edit: Edit, etags: { parts: string[]; deletes: string[] }, outcome: SaveOutcome): void {
    const changes: Change[] = [
      ...edit.parts.map((part, index): Change => {
        const after = outcome.updated.find((saved) => saved.wire.id === part.id);
        return { id: part.id, before: part.before, after: after?.wire ?? null, etags: { before: etags.parts[index], after: after?.etag ?? null } };
      }),
      ...(edit.deletes ?? []).map((part, index): Change => ({ id: part.id, before: part.before, after: null, etags: { before: etags.deletes[index], after: null } })),
      ...outcome.created.map((saved): Change => ({ id: saved.wire.id, before: null, after: saved.wire, etags: { before: null, after: saved.etag } })),
    ];
    this.done.push({ label: edit.describe, changes });
    if (this.done.length > LIMIT) this.done.shift();
    this.undone.length = 0;
  }

  private remap(id: string, etag: string, wire: AnnotationWire, fresh: string): void {
    remapIn(this.done, id, etag, wire, fresh);
    remapIn(this.undone, id, etag, wire, fresh);
  }

  /**
   * The edit that undoes (or redoes) the latest step, taken off its stack; once it is saved, the
   * step goes on the other stack with the versions the server answered. Null when there is none.
   * An edit that is not saved (refused, in conflict, failed) leaves the step off both stacks.
   */
  take(which: 'undo' | 'redo'): Edit | null {
    const step = (which === 'undo' ? this.done : this.undone).pop();
    if (!step) return null;
    const [from, to]: Array<'before' | 'after'> = which === 'undo' ? ['after', 'before'] : ['before', 'after'];
    const edit: Edit = {
      parts: [],
      creates: [],
      deletes: [],
      describe: `${which} of ${step.label}`,
      done: `${which === 'undo' ? 'undid' : 'redid'} the ${step.label}`,
      onSaved: (outcome) => {
        for (const change of step.changes) {
          const saved = [...outcome.updated, ...outcome.created].find((candidate) => candidate.wire.id === change.id);
          // The version brought back may differ from the one recorded (a restored annotation's provenance
          // says so): every step that knew the recorded one now knows the one in the store.
          if (saved && change.etags[to] !== null && change.etags[to] !== saved.etag) this.remap(change.id, change.etags[to]!, saved.wire, saved.etag);
          change[to] = saved?.wire ?? null;
          change.etags[to] = saved?.etag ?? null;
        }
        (which === 'undo' ? this.undone : this.done).push(step);
      },
    };
    for (const change of step.changes) {
      const now = change[from];
      const wanted = change[to];
      const etag = Promise.resolve(change.etags[from] ?? '');
      if (now && wanted) edit.parts.push({ id: change.id, patch: patchBetween(now, wanted), etag, before: now });
      else if (now) edit.deletes!.push({ id: change.id, etag, before: now });
      else if (wanted) edit.creates!.push({ input: restoredForm(wanted) });
    }
    return edit;
  }
}

/** Tells every step that recorded version `etag` of annotation `id` that it is now `wire` with `fresh`. */
function remapIn(steps: Step[], id: string, etag: string, wire: AnnotationWire, fresh: string): void {
  for (const step of steps) {
    for (const change of step.changes) {
      if (change.id !== id) continue;
      for (const side of ['before', 'after'] as const) {
        if (change.etags[side] !== etag) continue;
        change[side] = wire;
        change.etags[side] = fresh;
      }
    }
  }
}

/** An annotation to bring back under its own id, body, times and provenance, its provenance noting that it was restored. */
function restoredForm(wire: AnnotationWire): Record<string, unknown> {
  const generatedBy = wire.provenance.was_generated_by;
  const form = requestForm(wire) as { provenance: Record<string, unknown> };
  return { ...form, provenance: { ...form.provenance, was_generated_by: generatedBy.endsWith(RESTORED) ? generatedBy : `${generatedBy}${RESTORED}` } };
}

// Editing a block's text in place: an input over the block; Enter (or leaving it) saves, Escape cancels.
import { el } from './dom.js';
import { textEdit } from './edits.js';
import { etagFor } from './etags.js';
import { labelOf, type Item } from './model.js';
import type { PageContext } from './page-context.js';
import { save } from './saving.js';

/** Opens the editor over the block; `done` runs when it closes (the keyboard goes back to the timeline). */
export function editText(ctx: PageContext, item: Item, done: () => void): void {
  const etag = etagFor(ctx, item);
  ctx.view.reveal(item);
  ctx.view.frame();
  const center = ctx.view.blockCenter(item.wire.id);
  const input = el('input', { type: 'text', id: 'text-editor', value: labelOf(item.wire) });
  input.setAttribute('aria-label', `text of the annotation on ${item.wire.tier} (Enter saves, Escape cancels)`);
  input.style.left = `${Math.max(8, Math.min((center?.x ?? 200) - 120, window.innerWidth - 260))}px`;
  input.style.top = `${(center?.y ?? 100) - 14}px`;
  document.body.append(input);
  input.focus();
  input.select();
  let closed = false;
  const finish = (commit: boolean) => {
    if (closed) return;
    closed = true;
    input.remove();
    done();
    if (commit && input.value !== labelOf(item.wire)) void save(ctx, textEdit(item, input.value, etag));
  };
  input.addEventListener('keydown', (event) => {
    // The editor's keys are its own: nothing reaches the timeline's handler.
    event.stopPropagation();
    if (event.key === 'Enter') finish(true);
    if (event.key === 'Escape') finish(false);
  });
  input.addEventListener('blur', () => finish(true));
}

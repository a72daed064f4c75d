// Editing a block's text in place: an input over the block; Enter (or leaving it) saves, Escape cancels.
import { el } from './dom.js';
import { textEdit } from './edits.js';
import { etagFor } from './etags.js';
import { labelOf, type Item } from './model.js';
import type { PageContext } from './page-context.js';
import { save } from './saving.js';

export interface EditorOptions {
  /** Where to open it, in client coordinates (the centre of the block), or null when that is not in view. */
  at: { x: number; y: number } | null;
  value: string;
  /** What a screen reader calls it. */
  label: string;
  /** Runs once, when it closes: with the text on Enter or when the focus leaves it, with null on Escape. */
  close(text: string | null): void;
}

/** An input over a block; its keys are its own (nothing reaches the timeline's handler). */
export function openEditor(options: EditorOptions): void {
  const { at } = options;
  const input = el('input', { type: 'text', id: 'text-editor', value: options.value });
  input.setAttribute('aria-label', options.label);
  input.style.left = `${Math.max(8, Math.min((at?.x ?? 200) - 120, window.innerWidth - 260))}px`;
  input.style.top = `${(at?.y ?? 100) - 14}px`;
  document.body.append(input);
  input.focus();
  input.select();
  let closed = false;
  const finish = (commit: boolean) => {
    if (closed) return;
    closed = true;
    input.remove();
    options.close(commit ? input.value : null);
  };
  input.addEventListener('keydown', (event) => {
    event.stopPropagation();
    if (event.key === 'Enter') finish(true);
    if (event.key === 'Escape') finish(false);
  });
  input.addEventListener('blur', () => finish(true));
}

/** Opens the editor over the block; `done` runs when it closes (the keyboard goes back to the timeline). */
export function editText(ctx: PageContext, item: Item, done: () => void): void {
  const etag = etagFor(ctx, item);
  ctx.view.reveal(item);
  ctx.view.frame();
  openEditor({
    at: ctx.view.blockCenter(item.wire.id),
    value: labelOf(item.wire),
    label: `text of the annotation on ${item.wire.tier} (Enter saves, Escape cancels)`,
    close(text) {
      done();
      if (text !== null && text !== labelOf(item.wire)) void save(ctx, textEdit(item, text, etag));
    },
  });
}

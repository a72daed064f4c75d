// The overlay that tells the user an edit was refused, conflicted or failed. It floats over the
// page (position: fixed), so nothing under it moves; it is an alert dialog, so a screen reader
// reads it out; Escape, its close button or any of its actions dismiss it and give the focus back.
import { el } from './dom.js';
import { labelOf, type TimelineModel } from './model.js';

export interface NoticeAction {
  id: string;
  label: string;
  primary?: boolean;
  run?: () => void;
}

export interface NoticeContent {
  kind: 'refused' | 'conflict' | 'failed';
  title: string;
  body: Array<string | Node>;
  actions: NoticeAction[];
  /** Run when it is dismissed without an action (Escape, the close button). */
  onDismiss?: () => void;
}

export class Notice {
  private returnFocus: HTMLElement | null = null;
  private onDismiss: (() => void) | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly fallbackFocus: () => HTMLElement,
  ) {}

  get open(): boolean {
    return !this.root.hidden;
  }

  show(content: NoticeContent): void {
    if (!this.open) this.returnFocus = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    this.onDismiss = content.onDismiss;
    const close = el('button', { type: 'button', className: 'notice-close', id: 'notice-close', title: 'Dismiss (Escape)' }, '×');
    close.setAttribute('aria-label', 'Dismiss (Escape)');
    close.onclick = () => this.dismiss();
    const buttons = content.actions.map((action) => {
      const button = el('button', { type: 'button', id: action.id, className: action.primary ? 'primary' : '' }, action.label);
      button.onclick = () => this.close(action.run);
      return button;
    });
    this.root.className = `notice ${content.kind}`;
    this.root.replaceChildren(
      close,
      el('h2', { id: 'notice-title' }, content.title),
      el('div', { id: 'notice-body' }, ...content.body),
      el('div', { className: 'actions' }, ...buttons),
    );
    this.root.hidden = false;
    (buttons.find((_, index) => content.actions[index].primary) ?? buttons[0] ?? close).focus({ preventScroll: true });
  }

  /** Escape or the close button: as if the user chose nothing. */
  dismiss(): void {
    if (this.open) this.close(this.onDismiss);
  }

  private close(then: (() => void) | undefined): void {
    this.root.hidden = true;
    this.root.replaceChildren();
    this.onDismiss = undefined;
    const back = this.returnFocus?.isConnected ? this.returnFocus : this.fallbackFocus();
    this.returnFocus = null;
    back.focus({ preventScroll: true });
    then?.();
  }
}

/** How an annotation is named to the user: its text in quotes (shortened), never its id. */
export function annotationName(model: TimelineModel, id: string): string {
  const item = model.items.get(id);
  if (!item) return 'an annotation no longer here';
  const label = labelOf(item.wire);
  return `"${label.length > 40 ? `${label.slice(0, 39)}…` : label}"`;
}

/**
 * A server message with the annotation ids it names replaced by their text, and by their tier
 * where the message does not already say it right after the id ("annotation X on tier …").
 */
export function nameAnnotations(message: string, ids: Iterable<string>, model: TimelineModel): string {
  let named = message;
  for (const id of new Set(ids)) {
    if (id === '' || !named.includes(id)) continue;
    const tier = model.items.get(id)?.wire.tier;
    const pattern = new RegExp(`${escapeRegExp(id)}(?!\\s+on (?:tier )?")`, 'g');
    named = named.replace(pattern, () => `${annotationName(model, id)}${tier ? ` (tier ${tier})` : ''}`).split(id).join(annotationName(model, id));
  }
  return named;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

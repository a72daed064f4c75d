// What the page's parts share: the API, the model and the view, and the ways to talk to the user.
import type { Api } from './api.js';
import type { History } from './history.js';
import type { TimelineModel } from './model.js';
import type { Notice } from './notice.js';
import type { TimelineView } from './view.js';

export interface PageContext {
  readonly api: Api;
  readonly model: TimelineModel;
  readonly view: TimelineView;
  /** The overlay for refusals, conflicts and failures. */
  readonly notice: Notice;
  /** The page's own edits, to undo and redo. */
  readonly history: History;
  /** The one-line status in the header (short: it never wraps, so the layout never moves). */
  status(text: string, kind?: 'ok' | 'busy' | 'error'): void;
  /** Said to screen readers through the page's live region. */
  announce(text: string): void;
  /** Shows the selected annotation again in the inspector, after it changed. */
  refreshInspector(): void;
}

// Nudging a block's edge (or the whole block) from the keyboard by one frame, or 10 ms when the
// media's frame rate is unknown. Each nudge is drawn at once and saved through the same PATCH with
// If-Match as a drag. Nudges made while a save is on its way are gathered and sent as one when it
// returns, so holding the key never sends a request with an outdated ETag; Escape drops those.
import { retimeEdit, type Grab } from './edits.js';
import { etagFor } from './etags.js';
import { labelOf, type Item } from './model.js';
import type { PageContext } from './page-context.js';
import { save } from './saving.js';
import { formatTime } from './time-format.js';

/** Without a frame rate, the step of a nudge. */
export const DEFAULT_STEP_SECONDS = 0.01;

interface Span {
  start: number;
  end: number;
}

/** The nudges of one block's edge (or body) that are not saved yet. */
interface Session {
  id: string;
  grab: Grab;
  neighbourId: string | null;
  target: Span;
  neighbourTarget: Span | null;
  /** A save of this session is queued and has not started. */
  queued: boolean;
  /** What the save on its way sends, so Escape can fall back to it. */
  sending: { target: Span; neighbourTarget: Span | null } | null;
}

/**
 * The time one step from `t`: the next frame boundary in that direction, or the one after it when
 * `t` is on a boundary already (within half a millisecond, as times stored in ms round frames).
 */
export function stepTime(t: number, direction: 1 | -1, step: number): number {
  const k = Math.round(t / step);
  const onGrid = Math.abs(t - k * step) <= Math.min(0.0005, step / 4) + 1e-9;
  const next = onGrid ? k + direction : direction > 0 ? Math.ceil(t / step) : Math.floor(t / step);
  return next * step;
}

export class Nudger {
  private session: Session | null = null;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: PageContext,
    /** One frame's duration in seconds, else the default step. */
    private readonly step: number,
  ) {}

  /** Moves the block's edge (`grab`) or body one step; says where it is now. */
  nudge(item: Item, grab: Grab, direction: 1 | -1): void {
    if (item.wire.reference.kind !== 'media') {
      this.ctx.announce(`"${labelOf(item.wire)}" takes its times from its parent annotation and cannot be moved`);
      return;
    }
    const session = this.sessionFor(item, grab);
    const neighbour = session.neighbourId === null ? undefined : this.ctx.model.items.get(session.neighbourId);
    const { target } = session;
    if (grab === 'move') {
      const moved = Math.max(0, stepTime(target.start, direction, this.step)) - target.start;
      target.start += moved;
      target.end += moved;
    } else if (grab === 'start') {
      target.start = Math.min(Math.max(stepTime(target.start, direction, this.step), session.neighbourTarget?.start ?? 0, 0), target.end);
      if (session.neighbourTarget) session.neighbourTarget.end = target.start;
    } else {
      target.end = Math.max(Math.min(stepTime(target.end, direction, this.step), session.neighbourTarget?.end ?? Infinity), target.start);
      if (session.neighbourTarget) session.neighbourTarget.start = target.end;
    }
    this.preview(session, neighbour);
    const where = grab === 'move' ? `${formatTime(target.start, this.ctx.view.format)} to ${formatTime(target.end, this.ctx.view.format)}` : formatTime(target[grab], this.ctx.view.format);
    this.ctx.announce(`${grab === 'move' ? '' : `${grab} of `}"${labelOf(item.wire)}" at ${where}`);
    if (!session.queued) {
      session.queued = true;
      this.queue = this.queue.then(() => this.send(session));
    }
  }

  /** Escape: drops the nudges not sent yet; false when there were none. */
  cancel(): boolean {
    const session = this.session;
    if (!session || !session.queued) return false;
    if (session.sending) {
      session.target = { ...session.sending.target };
      session.neighbourTarget = session.sending.neighbourTarget && { ...session.sending.neighbourTarget };
      this.preview(session, session.neighbourId === null ? undefined : this.ctx.model.items.get(session.neighbourId));
    } else {
      this.session = null;
      this.ctx.view.previews = [];
      this.ctx.view.invalidate();
    }
    session.queued = false;
    this.ctx.announce('nudge cancelled');
    return true;
  }

  /** The session to add a nudge to: the current one for this block and edge, else a new one from where the block is (or is going). */
  private sessionFor(item: Item, grab: Grab): Session {
    const current = this.session;
    if (current && current.id === item.wire.id && current.grab === grab) return current;
    const base = current && current.id === item.wire.id ? current.target : { start: item.start, end: item.end };
    const neighbour = grab === 'move' ? null : this.ctx.model.sharingEdge(item, grab);
    this.session = {
      id: item.wire.id,
      grab,
      neighbourId: neighbour?.wire.id ?? null,
      target: { ...base },
      neighbourTarget: neighbour ? { start: neighbour.start, end: neighbour.end } : null,
      queued: false,
      sending: null,
    };
    return this.session;
  }

  private preview(session: Session, neighbour: Item | undefined): void {
    const { view } = this.ctx;
    view.previews = [{ id: session.id, ...session.target }];
    if (neighbour && session.neighbourTarget) view.previews.push({ id: neighbour.wire.id, ...session.neighbourTarget });
    view.invalidate();
  }

  /** Saves what the session holds now; on a refusal or failure its nudges are dropped and the blocks go back. */
  private async send(session: Session): Promise<void> {
    if (!session.queued) return;
    session.queued = false;
    const item = this.ctx.model.items.get(session.id);
    const neighbour = session.neighbourId === null ? null : this.ctx.model.items.get(session.neighbourId) ?? null;
    const edit = item && retimeEdit(item, session.grab, session.target.start, session.target.end, neighbour, (it) => etagFor(this.ctx, it));
    let saved = true;
    if (edit) {
      session.sending = { target: { ...session.target }, neighbourTarget: session.neighbourTarget && { ...session.neighbourTarget } };
      saved = (await save(this.ctx, edit)) !== null;
      session.sending = null;
    }
    if (session.queued && saved) return; // More nudges came meanwhile: their save is next in the queue.
    session.queued = false;
    if (this.session === session) this.session = null;
    this.ctx.view.previews = this.ctx.view.previews.filter((preview) => preview.id !== session.id && preview.id !== session.neighbourId);
    this.ctx.view.invalidate();
  }
}

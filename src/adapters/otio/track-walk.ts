import type { RationalTime } from '../../time/rational-time.js';
import type { OtioObject } from './otio-json.js';
import type { Span, TrimWindow } from './read-trim.js';

/** One track being walked: its tier, where its next child starts, and what its trim left out. */
export interface TrackWalk {
  readonly tier: string;
  readonly path: string;
  /** Where the next child starts, on the timeline. */
  cursor: RationalTime;
  readonly window: TrimWindow | null;
  /** Items wholly outside the trim, left out; items across its edge, cut. */
  dropped: number;
  clipped: number;
  /**
   * The last bare gap shown so far when nothing shown follows it yet: if nothing does, it ends
   * what the track shows, and is kept for the track's length.
   */
  lastGap: { readonly gap: OtioObject; readonly at: Placed } | null;
}

/** Where one child of a track plays: placed at [start, end) on the timeline, shown over `visible`. */
export interface Placed {
  readonly where: string;
  readonly start: RationalTime;
  readonly end: RationalTime;
  readonly visible: Span;
}

/** Whether the track's trim cut the item. */
export function isCut(at: Placed): boolean {
  return !(at.visible.start.equals(at.start) && at.visible.end.equals(at.end));
}

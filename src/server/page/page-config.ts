import type { RationalTimeWire } from '../../time/rational-time.js';

/**
 * What the server tells the timeline page (web/) it serves, as JSON in the page's HTML. The page
 * imports this type, so the two sides cannot drift apart.
 */
export interface PageConfig {
  /** The media to play, or null for none. */
  readonly media: {
    readonly url: string;
    readonly element: 'video' | 'audio';
    /** One video frame's duration, when ffprobe could read a frame rate: the page nudges edges by it (else by 10 ms). */
    readonly frame_duration: RationalTimeWire | null;
  } | null;
}

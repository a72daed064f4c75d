// The media player above the lanes: the playhead follows it, a click on the axis or a key moves it.
import type { Api } from './api.js';
import type { TimelineView } from './view.js';
import type { PageConfig } from './wire.js';

export interface MediaControl {
  readonly element: HTMLMediaElement | null;
  /** Seconds, once the media's metadata is in (else 0). */
  duration(): number;
  seek(seconds: number): void;
  /** Plays or pauses; false when there is no media to play. */
  toggle(): boolean;
}

export function setUpMedia(config: PageConfig, api: Api, view: TimelineView, box: HTMLElement): MediaControl {
  const media = config.media ? createPlayer(config.media, api, view, box) : null;
  return {
    element: media,
    duration: () => (media && Number.isFinite(media.duration) ? media.duration : 0),
    seek(seconds) {
      const t = Math.max(0, seconds);
      view.playhead = t;
      if (media) media.currentTime = t;
      view.invalidate();
    },
    toggle() {
      if (!media) return false;
      if (media.paused) void media.play().catch(() => undefined);
      else media.pause();
      return true;
    },
  };
}

function createPlayer(source: NonNullable<PageConfig['media']>, api: Api, view: TimelineView, box: HTMLElement): HTMLMediaElement {
  const media = document.createElement(source.element);
  media.id = 'media';
  media.controls = true;
  media.preload = 'metadata';
  media.src = api.withToken(source.url);
  box.append(media);
  box.hidden = false;
  view.playhead = 0;
  const sync = () => {
    const t = media.currentTime;
    view.playhead = t;
    // While playing, the view follows the playhead a page at a time.
    if (!media.paused && (t > view.viewEnd || t < view.viewStart)) view.viewStart = t - (view.viewEnd - view.viewStart) * 0.1;
    view.invalidate();
  };
  media.addEventListener('timeupdate', sync);
  media.addEventListener('seeked', sync);
  const tick = () => {
    if (!media.paused) sync();
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  return media;
}

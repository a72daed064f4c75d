import { RationalTime, type RationalTimeWire } from '../time/rational-time.js';
import { mediaLink } from './media-link.js';
import type { EditBeat, EditShot, MediaPart, SceneEdit } from './scene-edit.js';

/**
 * The scene edit as an OpenTimelineIO document (Timeline.1 › Stack.1 › Track.1 › Clip.2 /
 * Gap.1, Marker.2, ExternalReference.1, TimeRange.1, RationalTime.1) whose clips link the
 * rendered files, so an editor opens it with every clip online:
 * - video track "shots": each shot's still (or clip) for as long as the shot lasts;
 * - video track "talking video": each beat's talking video, gaps elsewhere;
 * - audio track "speech": each beat's speech, with a marker for its line.
 * A clip's media reference has the file's real duration as its available_range, at the file's
 * own rate; a unit without media is a Gap whose metadata says why. Links are relative to the
 * timeline file when the media are below its folder, else absolute file:// URLs.
 */
export function otioDocument(edit: SceneEdit, timelinePath: string): Record<string, unknown> {
  const link = (path: string) => mediaLink(path, timelinePath);
  const shotsTrack: unknown[] = [];
  const videoTrack: unknown[] = [];
  const audioTrack: unknown[] = [];
  for (const shot of edit.shots) {
    shotsTrack.push(shotItem(shot, link));
    if (shot.held) {
      for (const beat of shot.beats) {
        videoTrack.push(beatGap(beat, edit.rate));
        audioTrack.push(beatGap(beat, edit.rate));
      }
      const reason = { reason: 'shot without beats: held', shot_id: shot.shot_id };
      videoTrack.push(gap(`${shot.shot_id} (held)`, shot.duration, reason));
      audioTrack.push(gap(`${shot.shot_id} (held)`, shot.duration, reason));
      continue;
    }
    for (const beat of shot.beats) {
      videoTrack.push(beat.video ? beatClip(beat, beat.video, link, false) : beatGap(beat, edit.rate, beat.missing ?? (beat.line ? 'no talking video (speech only)' : 'action without a line')));
      audioTrack.push(beat.audio ? beatClip(beat, beat.audio, link, true) : beatGap(beat, edit.rate, beat.missing ?? 'action without a line'));
    }
  }
  for (const beat of edit.beats) {
    shotsTrack.push(gap(beat.beat_id, beat.duration, { reason: 'beat in no shot', beat_id: beat.beat_id }));
    videoTrack.push(beat.video ? beatClip(beat, beat.video, link, false) : beatGap(beat, edit.rate));
    audioTrack.push(beat.audio ? beatClip(beat, beat.audio, link, true) : beatGap(beat, edit.rate));
  }
  return {
    OTIO_SCHEMA: 'Timeline.1',
    name: edit.title || 'scene',
    global_start_time: null,
    metadata: { annot: { generator: 'annot render', duration_s: edit.duration.toWire() } },
    tracks: {
      OTIO_SCHEMA: 'Stack.1',
      name: 'tracks',
      source_range: null,
      effects: [],
      markers: [],
      enabled: true,
      metadata: {},
      children: [track('shots', 'Video', shotsTrack), track('talking video', 'Video', videoTrack), track('speech', 'Audio', audioTrack)],
    },
  };
}

function track(name: string, kind: 'Video' | 'Audio', children: unknown[]) {
  return { OTIO_SCHEMA: 'Track.1', name, kind, source_range: null, effects: [], markers: [], enabled: true, metadata: {}, children };
}

function shotItem(shot: EditShot, link: (path: string) => string) {
  const meta = { shot_id: shot.shot_id, prompt: shot.prompt };
  if (shot.missing) return gap(shot.shot_id, shot.duration, { ...meta, reason: shot.missing });
  const media = (shot.clip ?? shot.still) as MediaPart;
  return clip(shot.shot_id, media, shot.duration, link, meta, []);
}

function beatClip(beat: EditBeat, media: MediaPart, link: (path: string) => string, withMarker: boolean) {
  const meta = { beat_id: beat.beat_id, speaker: beat.speaker, line: beat.line };
  const rate = media.duration?.r ?? beat.duration.r;
  const markers = withMarker && beat.line
    ? [
        {
          OTIO_SCHEMA: 'Marker.2',
          name: beat.line,
          marked_range: timeRange(new RationalTime(0, rate), beat.duration.toRateLossy(rate)),
          color: 'GREEN',
          comment: beat.speaker,
          metadata: { annot: meta },
        },
      ]
    : [];
  return clip(beat.beat_id, media, beat.duration, link, meta, markers);
}

/** A clip of `length` from the start of `media`, at the media's own rate. */
function clip(name: string, media: MediaPart, length: RationalTime, link: (path: string) => string, meta: Record<string, unknown>, markers: unknown[]) {
  const rate = media.duration?.r ?? length.r;
  return {
    OTIO_SCHEMA: 'Clip.2',
    name,
    source_range: timeRange(new RationalTime(0, rate), length.toRateLossy(rate)),
    effects: [],
    markers,
    enabled: true,
    metadata: { annot: meta },
    media_references: {
      DEFAULT_MEDIA: {
        OTIO_SCHEMA: 'ExternalReference.1',
        name: media.path.split(/[\\/]/).pop(),
        target_url: link(media.path),
        available_range: media.duration ? timeRange(new RationalTime(0, media.duration.r), wireTime(media.duration)) : null,
        available_image_bounds: null,
        metadata: {},
      },
    },
    active_media_reference_key: 'DEFAULT_MEDIA',
  };
}

function beatGap(beat: EditBeat, rate: number, reason = beat.missing ?? 'no media') {
  return gap(beat.beat_id, beat.duration.v === 0 ? new RationalTime(0, rate) : beat.duration, { beat_id: beat.beat_id, speaker: beat.speaker, line: beat.line, reason });
}

function gap(name: string, length: RationalTime, meta: Record<string, unknown>) {
  return {
    OTIO_SCHEMA: 'Gap.1',
    name,
    source_range: timeRange(new RationalTime(0, length.r), length),
    effects: [],
    markers: [],
    enabled: true,
    metadata: { annot: meta },
  };
}

function timeRange(start: RationalTime, duration: RationalTime) {
  return { OTIO_SCHEMA: 'TimeRange.1', start_time: rt(start), duration: rt(duration) };
}

function rt(t: RationalTime) {
  return { OTIO_SCHEMA: 'RationalTime.1', rate: t.r, value: t.v };
}

function wireTime(t: RationalTimeWire): RationalTime {
  return new RationalTime(t.v, t.r);
}

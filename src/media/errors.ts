import { AnnotError, NotFoundError } from '../errors/annot-error.js';

/** Peaks asked of a media file with no audio track: there is no waveform to draw (404 over HTTP). */
export class NoAudioError extends NotFoundError {
  override readonly code = 'ANNOT_NO_AUDIO';
}

/** The bundled FFmpeg could not decode the media file's audio (damaged, or not audio or video at all). */
export class MediaUnreadableError extends AnnotError {
  readonly code = 'ANNOT_MEDIA_UNREADABLE';
}

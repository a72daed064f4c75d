import { AnnotError } from '../../errors/annot-error.js';

/** The local preview provider could not make a piece of media (ffmpeg or espeak-ng failed). */
export class LocalMediaError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_LOCAL_MEDIA_FAILED';

  constructor(detail: string) {
    super(`the local preview provider could not make the media: ${detail}. Check that the @ffmpeg-installer/ffmpeg package installed its binary (npm ci), or render with --provider fal.`);
  }
}

/** The local provider was asked to read an asset it cannot reach offline. */
export class LocalAssetUnreachableError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_LOCAL_ASSET_UNREACHABLE';

  constructor(
    /** The asset URL that is not a local file. */
    readonly url: string,
  ) {
    super(`the local preview provider reads only local files, not ${url}; render with --provider fal for remote media.`);
  }
}

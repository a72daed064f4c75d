import { AnnotError } from '../errors/annot-error.js';

/** `annot sync --strict` found no clear alignment: the file is left as it was and nothing is written. */
export class SyncUncertainError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_SYNC_UNCERTAIN';
}

/** A file to sync, or a reference to sync to, without a single timed cue: there is nothing to align. */
export class NoCuesToSyncError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_SYNC_NO_CUES';
}

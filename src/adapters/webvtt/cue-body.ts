/**
 * The body of an imported WebVTT cue (schema annot://schema/webvtt-cue/v1): what the file says
 * about the cue beyond its times, so that it is written back as it was.
 */
export const WEBVTT_CUE_SCHEMA = 'annot://schema/webvtt-cue/v1';

export interface WebVttCueBody {
  /** The cue payload, tags (`<v Roger>`, `<c.yellow>`, `<00:01.500>`) and entities kept as written. */
  text: string;
  /** The cue identifier ('' when the cue has none). */
  id: string;
  /** The cue settings as written, tokens separated by one space ('' when none). */
  settings: string;
  /** The end time as written when it precedes the start: the cue is kept as a point at its start. */
  written_end?: string;
  /** NOTE blocks written between the previous cue and this one, in order. */
  notes_before?: string[];
}

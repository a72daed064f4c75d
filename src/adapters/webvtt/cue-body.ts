import type { WrittenHours } from '../cue-layout.js';
import type { WebVttCueSettings } from './cue-settings.js';

/**
 * The body of an imported WebVTT cue (schema annot://schema/webvtt-cue/v2): what the file says
 * about the cue beyond its times, so that it is written back as it was. `text` is the plain text
 * a person reads (cue-text.ts); the payload as written is kept in `raw` only when the text and
 * speaker written back would not give it (tags, references). The cue settings are
 * typed fields, each present only when the file stated a valid value (the W3C algorithm's
 * defaults are not filled in); `settings` keeps the text as written only when writing the typed
 * fields would not give it back (other order, invalid or repeated settings).
 */
export const WEBVTT_CUE_SCHEMA = 'annot://schema/webvtt-cue/v2';
/** The first version, whose `text` held the payload as written, tags and references and all (stores made before v2 hold it). */
export const WEBVTT_CUE_SCHEMA_V1 = 'annot://schema/webvtt-cue/v1';

export interface WebVttCueBody {
  /** The text a person reads: tags left out, character references decoded. */
  text: string;
  /** The payload as written (`<v Roger>`, `<c.yellow>`, `&amp;`), when `text` and `speaker` written back would not give it. */
  raw?: string;
  /** The cue identifier ('' when the cue has none). */
  id: string;
  /** The speaker the cue's first voice span names (`<v Mara>` gives "Mara"). */
  speaker?: string;
  vertical?: 'rl' | 'lr';
  /** A line number when `snap_to_lines` is true, else a percentage. */
  line?: number;
  snap_to_lines?: boolean;
  line_align?: 'start' | 'center' | 'end';
  /** A percentage. */
  position?: number;
  position_align?: 'line-left' | 'center' | 'line-right';
  /** A percentage. */
  size?: number;
  align?: 'start' | 'center' | 'end' | 'left' | 'right';
  /** The id of the REGION the cue is in (the regions are in the document metadata `webvtt.regions`). */
  region?: string;
  /** The settings as written, tokens separated by one space, when the typed fields do not give them back. */
  settings?: string;
  /** The end time as written when it precedes the start: the cue is kept as a point at its start. */
  written_end?: string;
  /** Blank lines before the cue, when not the file's usual number (see cue-layout.ts). */
  blank_lines_before?: number;
  /** Which timestamps were written with hours, when not as the file usually writes them (see cue-layout.ts). */
  written_hours?: WrittenHours;
  /** NOTE blocks written between the previous cue and this one, in order. */
  notes_before?: string[];
}

/** The body fields that hold cue settings, and nothing else (what WebVTT writes after the timing). */
export const SETTING_FIELDS = ['vertical', 'line', 'snap_to_lines', 'line_align', 'position', 'position_align', 'size', 'align', 'region'] as const;

/** Puts stated settings into a body as its typed fields. */
export function putSettings(body: WebVttCueBody, cue: WebVttCueSettings): void {
  if (cue.vertical !== undefined) body.vertical = cue.vertical;
  if (cue.line !== undefined) {
    body.line = cue.line;
    body.snap_to_lines = cue.snapToLines ?? true;
  }
  if (cue.lineAlign !== undefined) body.line_align = cue.lineAlign;
  if (cue.position !== undefined) body.position = cue.position;
  if (cue.positionAlign !== undefined) body.position_align = cue.positionAlign;
  if (cue.size !== undefined) body.size = cue.size;
  if (cue.align !== undefined) body.align = cue.align;
  if (cue.region !== undefined) body.region = cue.region;
}

/** The settings a body's typed fields state; fields of the wrong type or out of range are ignored. */
export function settingsOfBody(body: Readonly<Record<string, unknown>>): WebVttCueSettings {
  const cue: WebVttCueSettings = {};
  if (body.vertical === 'rl' || body.vertical === 'lr') cue.vertical = body.vertical;
  if (typeof body.line === 'number' && Number.isFinite(body.line)) {
    const percent = body.snap_to_lines === false;
    if (!percent || (body.line >= 0 && body.line <= 100)) {
      cue.line = body.line;
      cue.snapToLines = !percent;
    }
  }
  if (body.line_align === 'start' || body.line_align === 'center' || body.line_align === 'end') cue.lineAlign = body.line_align;
  if (isPercentage(body.position)) cue.position = body.position;
  if (body.position_align === 'line-left' || body.position_align === 'center' || body.position_align === 'line-right') cue.positionAlign = body.position_align;
  if (isPercentage(body.size)) cue.size = body.size;
  if (body.align === 'start' || body.align === 'center' || body.align === 'end' || body.align === 'left' || body.align === 'right') cue.align = body.align;
  if (typeof body.region === 'string' && body.region.length > 0) cue.region = body.region;
  return cue;
}

/** Whether a body has any typed setting field. */
export function hasTypedSettings(body: Readonly<Record<string, unknown>>): boolean {
  for (const field of SETTING_FIELDS) if (body[field] !== undefined) return true;
  return false;
}

function isPercentage(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value <= 100;
}

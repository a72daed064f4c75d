/**
 * What annot keeps of a SubStation Alpha file (ASS, `v4.00+`, or SSA, `v4.00`): the document
 * metadata keys its sections go to, and the body of an event (schema annot://schema/ass-event/v1).
 */

export const ASS_EVENT_SCHEMA = 'annot://schema/ass-event/v1';
/** Tier of the imported events when the caller names none (`--tier`). */
export const DEFAULT_ASS_TIER = 'events';
export const DEFAULT_ASS_ASSET = 'ass:unspecified';

/** `[Script Info]`: its lines as written (comments included), a JSON array of strings. */
export const SCRIPT_INFO_META = 'ass.script_info';
/** The styles section: `{section, format, styles}` (see AssStyles), JSON. */
export const STYLES_META = 'ass.styles';
/** Other sections before `[Events]` (`[Aegisub Project Garbage]`, `[Fonts]`, `[Graphics]`): `[{name, lines, before_styles?}]`, JSON. */
export const SECTIONS_META = 'ass.sections';
/** The `[Events]` Format line's column names as written, a JSON array. */
export const EVENT_FORMAT_META = 'ass.event_format';

/** The styles section as read: its header, its Format columns, and each Style line's values by column. */
export interface AssStyles {
  /** `[V4+ Styles]` or `[V4 Styles]`, as written. */
  readonly section: string;
  readonly format: readonly string[];
  readonly styles: ReadonlyArray<Readonly<Record<string, string>>>;
}

/** A section kept as written, and whether it came before the styles section (Aegisub writes its own there). */
export interface AssSection {
  readonly name: string;
  readonly lines: readonly string[];
  readonly before_styles?: true;
}

/** The columns libass and Aegisub write (ASS). */
export const ASS_STYLE_FORMAT = ['Name', 'Fontname', 'Fontsize', 'PrimaryColour', 'SecondaryColour', 'OutlineColour', 'BackColour', 'Bold', 'Italic', 'Underline', 'StrikeOut', 'ScaleX', 'ScaleY', 'Spacing', 'Angle', 'BorderStyle', 'Outline', 'Shadow', 'Alignment', 'MarginL', 'MarginR', 'MarginV', 'Encoding'];
export const ASS_EVENT_FORMAT = ['Layer', 'Start', 'End', 'Style', 'Name', 'MarginL', 'MarginR', 'MarginV', 'Effect', 'Text'];
/** SSA's (`v4.00`), which libass falls back to when an SSA file has no Format line. */
export const SSA_STYLE_FORMAT = ['Name', 'Fontname', 'Fontsize', 'PrimaryColour', 'SecondaryColour', 'TertiaryColour', 'BackColour', 'Bold', 'Italic', 'BorderStyle', 'Outline', 'Shadow', 'Alignment', 'MarginL', 'MarginR', 'MarginV', 'AlphaLevel', 'Encoding'];
export const SSA_EVENT_FORMAT = ['Marked', 'Start', 'End', 'Style', 'Name', 'MarginL', 'MarginR', 'MarginV', 'Effect', 'Text'];

/**
 * The style annot writes when the source has none, as Aegisub and pysubs2 write their Default:
 * Arial 20 (at libass's default PlayResY of 288), white text with a black outline and shadow,
 * bottom centre.
 */
export const DEFAULT_STYLE: Readonly<Record<string, string>> = {
  Name: 'Default',
  Fontname: 'Arial',
  Fontsize: '20',
  PrimaryColour: '&H00FFFFFF',
  SecondaryColour: '&H000000FF',
  OutlineColour: '&H00000000',
  BackColour: '&H00000000',
  Bold: '0',
  Italic: '0',
  Underline: '0',
  StrikeOut: '0',
  ScaleX: '100',
  ScaleY: '100',
  Spacing: '0',
  Angle: '0',
  BorderStyle: '1',
  Outline: '2',
  Shadow: '2',
  Alignment: '2',
  MarginL: '10',
  MarginR: '10',
  MarginV: '10',
  Encoding: '1',
};

/** One Dialogue or Comment line, its columns read by the Format line. */
export interface AssEvent {
  readonly comment: boolean;
  readonly line: number;
  readonly layer: number;
  readonly start: string;
  readonly end: string;
  readonly style: string;
  readonly name: string;
  readonly marginL: number;
  readonly marginR: number;
  readonly marginV: number;
  readonly effect: string;
  readonly text: string;
  /** Columns the Format line names that ASS does not define, by name. */
  readonly other: Readonly<Record<string, string>> | null;
}

/** The body of an imported event. */
export interface AssEventBody {
  /** The plain text: override tags removed, `\N` and `\n` as LF, `\h` as a no-break space. */
  text: string;
  /** The Text field as written, when writing `text` back would not give it (override tags, `\n`...). */
  raw?: string;
  /** A Comment: line (players do not show it). */
  comment?: true;
  style: string;
  /** The Name (or Actor) field. */
  speaker?: string;
  layer?: number;
  margin_l?: number;
  margin_r?: number;
  margin_v?: number;
  effect?: string;
  /** The End field as written when it precedes the start: the annotation is then a point at the start. */
  written_end?: string;
  /** Columns of the Format line that ASS does not define, by name. */
  fields?: Record<string, string>;
}

/** The column names libass treats as one (`Actor` is an old name of `Name`), compared without case. */
export function canonicalColumn(name: string): string {
  const lower = name.trim().toLowerCase();
  return lower === 'actor' ? 'name' : lower;
}

import { canonicalColumn } from './ass-model.js';

/** What each column of a Format line is. */
export const enum Column {
  Layer,
  Start,
  End,
  Style,
  Name,
  MarginL,
  MarginR,
  MarginV,
  Effect,
  Text,
  Marked,
  Other,
}

export interface EventColumns {
  readonly kinds: readonly Column[];
  readonly names: readonly string[];
}

const KINDS: Readonly<Record<string, Column>> = { layer: Column.Layer, start: Column.Start, end: Column.End, style: Column.Style, name: Column.Name, marginl: Column.MarginL, marginr: Column.MarginR, marginv: Column.MarginV, effect: Column.Effect, text: Column.Text, marked: Column.Marked };

export function columnsOf(format: readonly string[]): EventColumns {
  return { kinds: format.map((name) => KINDS[canonicalColumn(name)] ?? Column.Other), names: format };
}

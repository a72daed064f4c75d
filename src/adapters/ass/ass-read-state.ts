import type { EventColumns } from './ass-columns.js';
import type { AssEvent } from './ass-model.js';

/** Which section the lines being read belong to. */
export type SectionKind = 'script_info' | 'styles' | 'events' | 'other' | 'none';

/** Where a reader reports what it dropped or doubted (see cue-findings.ts). */
export interface AssNotes {
  dropped(line: number, message: string): void;
  note(code: string, line: number, what: string, message: string): void;
}

/**
 * The explicit state a SubStation file is read into, line by line, by three passes that each
 * own their part of it: the sections pass (ass-sections.ts: section headers, `[Script Info]`
 * and the sections kept as written), the styles pass (ass-styles.ts) and the events pass
 * (ass-events.ts), which leaves the events it read in `events` for the caller to take.
 */
export interface AssReadState {
  section: SectionKind;
  /** The header of the current section as written (`[V4+ Styles]`). */
  sectionName: string;
  lineNumber: number;
  /** `ass` (`v4.00+`, `[V4+ Styles]`), `ssa` (`v4.00`, `[V4 Styles]`), or not known yet. */
  variant: 'ass' | 'ssa' | null;
  /** Whether a section header was seen: lines before the first one are not SubStation. */
  sawHeader: boolean;
  scriptInfo: string[];
  styleSection: string | null;
  styleFormat: string[] | null;
  styles: Array<Record<string, string>>;
  /** Sections other than these three, kept as written (only those before `[Events]`: see the reader). */
  sections: Array<{ name: string; lines: string[]; before_styles?: true }>;
  /** The line of the `[Events]` header, once met. */
  eventsAt: number | null;
  eventFormat: string[] | null;
  /** What each column of the event Format line is (or of the format libass falls back to), once known. */
  eventColumns: EventColumns | null;
  /** Events read and not yet taken. */
  events: AssEvent[];
  /** Sections that start after `[Events]`, which the streamed document cannot keep: their headers and lines. */
  lateSections: Array<{ name: string; line: number }>;
}

export function newReadState(): AssReadState {
  return {
    section: 'none',
    sectionName: '',
    lineNumber: 0,
    variant: null,
    sawHeader: false,
    scriptInfo: [],
    styleSection: null,
    styleFormat: null,
    styles: [],
    sections: [],
    eventsAt: null,
    eventFormat: null,
    eventColumns: null,
    events: [],
    lateSections: [],
  };
}

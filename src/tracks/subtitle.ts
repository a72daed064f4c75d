import { InvalidInputError } from '../errors/annot-error.js';
import { annotationInterval, makeAnnotation, mediaRef, type Annotation } from '../model/annotation.js';
import { makeTier } from '../model/tier.js';
import { assertValidBody } from '../schemas/registry.js';
import { sortByInterval } from '../store/ordering.js';
import type { AnnotationStore } from '../store/store.js';
import { ALLEN_RELATIONS } from '../time/allen.js';
import { RationalTime } from '../time/rational-time.js';
import { TimeInterval } from '../time/time-interval.js';

/**
 * A subtitle or lyric track kept as three tiers of an AnnotationStore:
 *
 * ```
 *   sections  NONE                       song-section/v1 {label, title?, energy?, mood?, extra?}
 *   lines     INCLUDED_IN sections       lyric-line/v1   {text, section?, line_index?, extra?}
 *   words     INCLUDED_IN lines          word/v1         {text}
 * ```
 *
 * Inputs are float seconds, as aligners and lyric tools produce them. Each goes through its
 * shortest decimal spelling (0.1 is one tenth, not the double nearest to it) and is rounded to
 * the nearest tick at the track's rate, ties to even. A zero-length span is kept as a point
 * (points are valid intervals: a word an aligner gave no duration stays an instant, rather than
 * gaining an invented tick); an end before its start is refused, since no rounding explains it.
 *
 * word/v1 has room for the text only, so a word's confidence goes into the annotation's
 * `confidence`, and its line is recorded as the line annotation's id in
 * `provenance.was_derived_from` (the words tier being INCLUDED_IN lines says the same in time).
 */

/** The tier of the sections (NONE: the top of the track). */
export const SECTIONS_TIER = 'sections';
/** The tier of the lines (INCLUDED_IN sections). */
export const LINES_TIER = 'lines';
/** The tier of the words (INCLUDED_IN lines). */
export const WORDS_TIER = 'words';
/** The body schema of a section annotation. */
export const SECTION_SCHEMA_URI = 'annot://schema/song-section/v1';
/** The body schema of a line annotation. */
export const LINE_SCHEMA_URI = 'annot://schema/lyric-line/v1';
/** The body schema of a word annotation. */
export const WORD_SCHEMA_URI = 'annot://schema/word/v1';
/** The rate intervals are written at unless SubtitleBuilderOptions.rate says otherwise: milliseconds. */
export const DEFAULT_SUBTITLE_RATE = 1000;

/** `[text, start, end]` or `[text, start, end, confidence]`, times in float seconds. */
export type WordSpec = readonly [text: string, start: number, end: number, confidence?: number];

/** Options of a SubtitleBuilder. */
export interface SubtitleBuilderOptions {
  /** Ticks per second of every interval written. Default 1000 (milliseconds). */
  rate?: number;
  /** The agent recorded in each annotation's provenance (`was_generated_by`). */
  wasGeneratedBy?: string;
  /** Defaults to wasGeneratedBy. */
  wasAttributedTo?: string;
  /** Generation time of each annotation; defaults to the wall clock, in milliseconds, at each write. */
  now?: () => RationalTime;
  /** Register the three tiers when missing, before the first write. Default true. */
  ensureTiers?: boolean;
}

/** Options of SubtitleBuilder.section. */
export interface SectionOptions {
  /** The section's confidence, from 0 to 1; null for none. */
  confidence?: number | null;
  /** A display title (song-section/v1 `title`). */
  title?: string | null;
  /** How energetic the section is: a number or a word (song-section/v1 `energy`). */
  energy?: number | string | null;
  /** The section's mood (song-section/v1 `mood`). */
  mood?: string | null;
  /** Further fields of the producer (song-section/v1 `extra`). */
  extra?: Record<string, unknown>;
}

/** Options of SubtitleBuilder.line. */
export interface LineOptions {
  /** The name of the section the line belongs to (lyric-line/v1 `section`). */
  section?: string | null;
  /** The line's 0-based position in the track (lyric-line/v1 `line_index`). */
  lineIndex?: number | null;
  /** The line's words, each written to the words tier with the line as its origin. */
  words?: readonly WordSpec[];
  /** The line's confidence, from 0 to 1; null for none. */
  confidence?: number | null;
  /** Further fields of the producer (lyric-line/v1 `extra`). */
  extra?: Record<string, unknown>;
}

/** Options of SubtitleBuilder.word. */
export interface WordOptions {
  /** The word's confidence, from 0 to 1; null for none. */
  confidence?: number | null;
  /** Id of the line annotation the word belongs to; recorded in provenance.was_derived_from. */
  lineId?: string | null;
  /** Who sings or says the word (word/v1 `speaker`). */
  speaker?: string | null;
}

/** What `line` wrote: the line and its words, in the order given. */
export interface LineReceipt {
  /** The line annotation. */
  line: Annotation;
  /** Its word annotations, in the order given. */
  words: Annotation[];
}

/** Float seconds to ticks at `rate`, through the float's shortest decimal spelling, ties to even. */
export function secondsToTime(seconds: number, rate: number, field = 'seconds'): RationalTime {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) {
    throw new InvalidInputError(`${field}: expected a finite number of seconds, got ${String(seconds)}`);
  }
  return RationalTime.fromSecondsLossy(seconds, rate, 'round');
}

/** A half-open interval from float seconds; equal ends make a point, a reversed pair is refused. */
export function secondsToInterval(start: number, end: number, rate: number, field = 'interval'): TimeInterval {
  const s = secondsToTime(start, rate, `${field}.start`);
  const e = secondsToTime(end, rate, `${field}.end`);
  if (end < start) {
    throw new InvalidInputError(`${field}: end ${end} s precedes start ${start} s; give start <= end (equal ends make a point)`);
  }
  return new TimeInterval(s, e);
}

function checkRate(rate: number): number {
  if (!Number.isSafeInteger(rate) || rate <= 0) throw new InvalidInputError(`rate: expected a positive integer, got ${String(rate)}`);
  return rate;
}

/** Writes a subtitle track: sections, lines and words of one media asset into a store. */
export class SubtitleBuilder {
  /** Ticks per second of every interval written. */
  readonly rate: number;
  private readonly wasGeneratedBy: string;
  private readonly wasAttributedTo: string;
  private readonly now: () => RationalTime;
  private tiersReady: Promise<void> | null;

  constructor(
    private readonly store: AnnotationStore,
    /** The media asset the new cues refer to. */
    readonly assetId: string,
    options: SubtitleBuilderOptions = {},
  ) {
    if (typeof assetId !== 'string' || assetId.length === 0) throw new InvalidInputError('assetId: expected a non-empty asset id');
    this.rate = checkRate(options.rate ?? DEFAULT_SUBTITLE_RATE);
    this.wasGeneratedBy = options.wasGeneratedBy ?? 'annot.tracks.subtitle';
    this.wasAttributedTo = options.wasAttributedTo ?? this.wasGeneratedBy;
    this.now = options.now ?? (() => RationalTime.now(1000));
    this.tiersReady = options.ensureTiers === false ? Promise.resolve() : null;
  }

  /** A song section (verse, chorus...) on the sections tier. */
  async section(label: string, start: number, end: number, options: SectionOptions = {}): Promise<Annotation> {
    const body: Record<string, unknown> = { label };
    if (options.title !== undefined) body.title = options.title;
    if (options.energy !== undefined) body.energy = options.energy;
    if (options.mood !== undefined) body.mood = options.mood;
    if (options.extra !== undefined) body.extra = options.extra;
    const annotation = this.build(SECTIONS_TIER, SECTION_SCHEMA_URI, body, secondsToInterval(start, end, this.rate, 'section'), options.confidence ?? null, [], 'section');
    await this.write([annotation]);
    return annotation;
  }

  /**
   * A line and its words, written in one addMany: every word is checked before anything is
   * written, so a malformed word leaves the store as it was.
   */
  async line(text: string, start: number, end: number, options: LineOptions = {}): Promise<LineReceipt> {
    const body: Record<string, unknown> = { text };
    if (options.section !== undefined && options.section !== null) body.section = options.section;
    if (options.lineIndex !== undefined && options.lineIndex !== null) body.line_index = options.lineIndex;
    if (options.extra !== undefined) body.extra = options.extra;
    const line = this.build(LINES_TIER, LINE_SCHEMA_URI, body, secondsToInterval(start, end, this.rate, 'line'), options.confidence ?? null, [], 'line');
    const words = (options.words ?? []).map((spec, i) => {
      if (!Array.isArray(spec) || spec.length < 3 || spec.length > 4) {
        throw new InvalidInputError(
          `words[${i}]: expected [text, start, end] or [text, start, end, confidence], got ${JSON.stringify(spec)}`,
        );
      }
      const [wordText, wordStart, wordEnd, confidence] = spec;
      return this.buildWord(wordText, wordStart, wordEnd, { confidence, lineId: line.id }, `words[${i}]`);
    });
    await this.write([line, ...words]);
    return { line, words };
  }

  /** A word on the words tier; `lineId` links it to its line. */
  async word(text: string, start: number, end: number, options: WordOptions = {}): Promise<Annotation> {
    const annotation = this.buildWord(text, start, end, options, 'word');
    await this.write([annotation]);
    return annotation;
  }

  private buildWord(text: string, start: number, end: number, options: WordOptions, field: string): Annotation {
    const body: Record<string, unknown> = { text };
    if (options.speaker !== undefined && options.speaker !== null) body.speaker = options.speaker;
    const derivedFrom = options.lineId ? [options.lineId] : [];
    return this.build(WORDS_TIER, WORD_SCHEMA_URI, body, secondsToInterval(start, end, this.rate, field), options.confidence ?? null, derivedFrom, field);
  }

  private build(
    tier: string,
    schemaUri: string,
    body: Record<string, unknown>,
    interval: TimeInterval,
    confidence: number | null,
    derivedFrom: string[],
    field: string,
  ): Annotation {
    try {
      assertValidBody(schemaUri, body);
    } catch (error) {
      throw new InvalidInputError(`${field}: ${(error as Error).message}`, { cause: error });
    }
    return makeAnnotation({
      tier,
      reference: mediaRef(this.assetId, interval),
      body,
      body_schema_uri: schemaUri,
      provenance: {
        was_generated_by: this.wasGeneratedBy,
        was_attributed_to: this.wasAttributedTo,
        was_derived_from: derivedFrom,
        generated_at_time: this.now(),
      },
      confidence,
    });
  }

  private async write(annotations: Annotation[]): Promise<void> {
    this.tiersReady ??= this.ensureTiers().catch((error: unknown) => {
      this.tiersReady = null; // let the next write try again
      throw error;
    });
    await this.tiersReady;
    await this.store.addMany(annotations);
  }

  private async ensureTiers(): Promise<void> {
    const wanted = [
      makeTier({ name: SECTIONS_TIER }),
      makeTier({ name: LINES_TIER, stereotype: 'INCLUDED_IN', parent: SECTIONS_TIER }),
      makeTier({ name: WORDS_TIER, stereotype: 'INCLUDED_IN', parent: LINES_TIER }),
    ];
    for (const tier of wanted) {
      if ((await this.store.getTier(tier.name)) === null) await this.store.addTier(tier);
    }
  }
}

/** Options of a SubtitleTrack. */
export interface SubtitleTrackOptions {
  /** Ticks per second float-second queries are rounded to. Default 1000. */
  rate?: number;
}

/** Reads a track written by SubtitleBuilder. `assetId` null reads every asset's annotations. */
export class SubtitleTrack {
  /** Ticks per second float-second queries are rounded to. */
  readonly rate: number;

  constructor(
    private readonly store: AnnotationStore,
    /** The media asset every cue refers to, or null when the track has none yet. */
    readonly assetId: string | null,
    options: SubtitleTrackOptions = {},
  ) {
    this.rate = checkRate(options.rate ?? DEFAULT_SUBTITLE_RATE);
  }

  /** Lines sharing time with the window [start, end), by start. A line that only touches it is not included. */
  linesIn(start: number, end: number): Promise<Annotation[]> {
    return this.overlapping(LINES_TIER, secondsToInterval(start, end, this.rate, 'window'));
  }

  /** Words sharing time with the window [start, end), by start. */
  wordsIn(start: number, end: number): Promise<Annotation[]> {
    return this.overlapping(WORDS_TIER, secondsToInterval(start, end, this.rate, 'window'));
  }

  /** Sections that hold the instant: `start <= t < end` (a point section only at its own instant). */
  sectionsCovering(instant: number): Promise<Annotation[]> {
    return this.overlapping(SECTIONS_TIER, TimeInterval.point(secondsToTime(instant, this.rate, 'instant')));
  }

  /** Every section annotation of the asset, in time order. */
  async allSections(): Promise<Annotation[]> {
    return this.everything(SECTIONS_TIER);
  }

  /** Every line annotation of the asset, in time order. */
  async allLines(): Promise<Annotation[]> {
    return this.everything(LINES_TIER);
  }

  /** Every word annotation of the asset, in time order. */
  async allWords(): Promise<Annotation[]> {
    return this.everything(WORDS_TIER);
  }

  /**
   * The words of a line: those recording its id in provenance.was_derived_from, by start. Only
   * words that touch or share time with the line are looked at (INCLUDED_IN keeps them inside).
   */
  async wordsOf(line: Annotation): Promise<Annotation[]> {
    const interval = annotationInterval(line);
    if (interval === null) return [];
    const near = ALLEN_RELATIONS.filter((relation) => relation !== 'before' && relation !== 'after');
    const candidates = await this.store.relate(interval, near);
    return candidates.filter((word) => word.tier === WORDS_TIER && word.provenance.was_derived_from.includes(line.id) && this.ofAsset(word));
  }

  private async overlapping(tier: string, window: TimeInterval): Promise<Annotation[]> {
    // Stores return interval queries ordered by start, then end, then id.
    return (await this.store.atTier(tier, window)).filter((annotation) => this.ofAsset(annotation));
  }

  private async everything(tier: string): Promise<Annotation[]> {
    const annotations = (await this.store.byTier(tier)).filter((annotation) => this.ofAsset(annotation) && annotationInterval(annotation) !== null);
    return sortByInterval(annotations);
  }

  private ofAsset(annotation: Annotation): boolean {
    return this.assetId === null || (annotation.reference.kind === 'media' && annotation.reference.asset_id === this.assetId);
  }
}

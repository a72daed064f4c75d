import type { Annotation } from '../model/annotation.js';
import type { Tier } from '../model/tier.js';
import type { AnnotationStore } from '../store/store.js';
import type { RationalTime } from '../time/rational-time.js';
import type { SourceLocation } from './errors.js';
import type { Finding } from './finding.js';

/** Options of FormatCodec.load. */
export interface LoadOptions {
  /** Display name of the source in messages (the path the user typed, or `<stdin>`). */
  readonly sourceName: string;
  /** Import rate chosen by the user (`--rate`); otherwise the adapter picks one (see import-clock.ts). */
  readonly rate?: number;
  /**
   * `--encoding`: the text encoding to read the file in, unless its byte-order mark says otherwise
   * (see source-text.ts; checked with resolveEncoding before a reader is called).
   */
  readonly encoding?: string;
  /** Refuse to quantize any time (`--strict-time`). */
  readonly strictTime?: boolean;
  /** Asset id for formats whose files do not name their media. */
  readonly assetId?: string;
  /** Tier name for formats without tiers (WebVTT, SRT cues). */
  readonly tier?: string;
  /** Who the imported annotations are attributed to. */
  readonly attribution?: string;
  /** The import's wall-clock time, stamped as provenance generated_at_time. */
  readonly now: RationalTime;
  /** What the reader repaired, dropped or guessed (stderr in the CLI; `annot validate` lists them). */
  readonly report: (finding: Finding) => void;
}

/** What a load yields: tiers and metadata first, then the annotations as a stream. */
export interface LoadedDocument {
  /** The tiers the document defines, parents before children. */
  readonly tiers: readonly Tier[];
  /** The document's metadata, as the store keeps it. */
  readonly meta: Readonly<Record<string, string>>;
  /** Consumed once. Parents come before the annotations that refer to them. */
  readonly annotations: AsyncIterable<Annotation>;
  /** After the annotations were consumed: how many times were rounded to the import rate, and by how much. */
  quantization(): {
    /** How many times were rounded to the rate. */
    count: number;
    /** The largest rounding error, in seconds. */
    maxErrorSeconds: number;
  };
  /**
   * The same annotations in order of start time (whole milliseconds; ties in the order of
   * `annotations`), for a reader that can merge its tiers as it reads (TextGrid): consumed instead
   * of `annotations`, never beside them. Only exact when each tier is itself in time order; a
   * tier that is not shows as a start earlier than the one before.
   */
  readonly inTimeOrder?: () => AsyncIterable<Annotation>;
  /**
   * Where in the file the annotation being read, or the one handed over last, was read from (a
   * line, or a JSON path or XML element): a refusal of it made after the reader handed it over (a
   * limit what a store keeps is held to, see load-into-store.ts) names this place. A refusal made
   * while reading is named by the reader itself (refusal-place.ts). Absent: the file alone is named.
   */
  readonly placeOfAnnotation?: () => SourceLocation;
  /** Where in the file the value of a `meta` entry was read from, for the same refusals. */
  readonly placeOfMeta?: (key: string) => SourceLocation;
}

/** Options of FormatCodec.dump. */
export interface DumpOptions {
  /** The output's name in messages (a path, or `<stdout>`). */
  readonly targetName: string;
  /** Write only this tier (formats without tiers). */
  readonly tier?: string;
  /** Format-specific variant, e.g. TextGrid `short`. */
  readonly variant?: string;
  /**
   * Subtitle formats without speakers (SRT): write a cue's speaker as `Name: text`. Also chosen
   * with the variant `speaker-prefix`.
   */
  readonly speakerPrefix?: boolean;
  /** Told what the format could not keep, one message at a time. */
  readonly warn: (message: string) => void;
}

/** What a dump could not keep, e.g. `{what: 'provenance', count: 1204}`. */
export interface DumpReport {
  /** Each kind of thing the output lost, with how many. */
  readonly dropped: ReadonlyArray<{
    /** What was lost (`provenance`, `ids`, a body field...). */
    what: string;
    /** How many annotations lost it. */
    count: number;
  }>;
}

/** A cue of a flat cue format (WebVTT, SRT): times in whole milliseconds. See flat-cues.ts. */
export interface FlatCue {
  /** The cue's start, in milliseconds. */
  readonly startMs: number;
  /** The cue's end, in milliseconds. */
  readonly endMs: number;
  /** The annotation the cue is made from. */
  readonly annotation: Annotation;
}

/** The cues a flat cue writer writes, chosen from a store (FormatCodec.writeCues). */
export interface FlatSelection {
  /** The cues in time order, each once. */
  cues(): AsyncIterable<FlatCue>;
  /** What the selection left out, with how many. */
  readonly dropped: Array<{
    /** What was lost (`provenance`, `ids`, a body field...). */
    what: string;
    /** How many annotations lost it. */
    count: number;
  }>;
  /** How many times were not whole milliseconds (rounded to the nearest). */
  readonly roundedTimes: number;
}

/** A document that can be read more than once, from the start each time, without being held. */
export interface ReplayableDocument {
  /** The tiers, parents before children. */
  readonly tiers: readonly Tier[];
  /** The document's metadata. */
  readonly meta: Readonly<Record<string, string>>;
  /** Reads the annotations (again). */
  pass(): AsyncIterable<Annotation>;
}

/** The parsing and writing half of an adapter, loaded only when a file of that format is read or written. */
export interface FormatCodec {
  /** Reads a file of the format. */
  load(path: string, options: LoadOptions): Promise<LoadedDocument>;
  /** Writes the store's annotations to a file of the format; reports what it could not keep. */
  dump(store: AnnotationStore, path: string, options: DumpOptions): Promise<DumpReport>;
  /**
   * Flat cue formats (WebVTT, SRT): writes a selection of cues as they come, so a conversion can
   * stream a document from reader to writer without a store. `meta` is the source's metadata.
   */
  writeCues?(selection: FlatSelection, meta: (key: string) => Promise<string | null>, path: string, options: DumpOptions): Promise<DumpReport>;
  /**
   * Formats that need counts before their data (TextGrid): writes a document read twice, once to
   * count and once to write, or returns null, having written nothing, when this document needs
   * dump() after all.
   */
  dumpTwoPass?(document: ReplayableDocument, path: string, options: DumpOptions): Promise<DumpReport | null>;
  /**
   * Formats whose file is itself a store (`.annot`): opens it in place, read-only to be read
   * (queries use its index, nothing is parsed, no reader stamps are added), or created to be
   * filled in bulk, in one transaction (`scratch`: a temporary file, renamed into place after).
   * A conversion reads such a source as a store and bulk-loads such a target, instead of going
   * through load() and dump().
   */
  openStore?(path: string, options: { readonly readonly?: boolean; readonly create?: boolean; readonly scratch?: boolean }): Promise<AnnotationStore>;
  /**
   * Whether load() reads the file as it is consumed (line-based readers), rather than parsing it
   * whole first: only such a source makes a conversion stream.
   */
  readonly streamsOnLoad?: boolean;
  /**
   * The reader stamps every import adds (provenance, annotation ids, confidence) that this format
   * keeps of no annotation it writes. A conversion that streams from it does not count them as
   * lost by the target: the source file never had them (see service/convert-stream.ts).
   */
  readonly stampsNeverKept?: ReadonlyArray<'provenance' | 'ids' | 'confidence'>;
  /**
   * Whether writeCues() writes comment events as comments (ASS): the cues handed to it then keep
   * the annotations marked `comment: true`, which other cue writers leave out (flat-cues.ts).
   */
  readonly writesComments?: boolean;
}

/** The stamps a format without provenance, ids or confidence never keeps (FormatCodec.stampsNeverKept). */
export const ALL_STAMPS: ReadonlyArray<'provenance' | 'ids' | 'confidence'> = Object.freeze(['provenance', 'ids', 'confidence']);

/**
 * A format: what identifies it (name, extensions, media types, a content sniffer) and a lazy
 * loader for its codec, so that listing formats or opening a `.annot` never imports an XML parser.
 */
export interface FormatAdapter {
  /** The format's name (`eaf`, `webvtt`...), as `--from` and `--to` take it. */
  readonly name: string;
  /** Lower-case, with the leading dot; multi-part extensions (`.labelstudio.json`) win over shorter ones. */
  readonly extensions: readonly string[];
  /**
   * Those of `extensions` that other kinds of file use too (`.xml`): an input named so is this
   * format only when its content says so (the sniff); an output named so is written in it.
   */
  readonly sniffedExtensions?: readonly string[];
  /** The media types of the format. */
  readonly mediaTypes: readonly string[];
  /** One line that says honestly what the format keeps and what it loses. */
  readonly description: string;
  /** Body schema URIs the import produces. */
  readonly bodySchemas: readonly string[];
  /** Whether the first bytes of a file look like this format (called with up to 64 KiB). */
  sniff(head: Buffer): boolean;
  /** Loads the format's reader and writer. */
  codec(): Promise<FormatCodec>;
}

import type { FormatAdapter, FormatCodec, LoadedDocument, LoadOptions } from './adapter.js';
import { FormatParseError } from './errors.js';
import { looksLikeJson, looksLikeXml } from './sniffers.js';

/**
 * A file read as one format whose content looks like another: WebVTT in a `.srt`, JSON in a
 * `.eaf`, SRT in a `.vtt`, XML in a `.json`. The file is still read as asked (by its extension, or
 * by --from), so nothing is guessed behind the user's back, but they are told what the content
 * looks like and the flag that reads it: as a warning finding `content_mismatch` up front when
 * only the extension chose the format (so `--strict` refuses), and after the message of any
 * error the reader then raises.
 */
export interface FormatMismatch {
  /** What the content looks like: "WebVTT", "JSON"... */
  readonly looksLike: string;
  /** How to read it as that, when annot has that format: `--from vtt (?format=webvtt over HTTP)`. */
  readonly flag: string | null;
}

/** How messages name the formats. */
const TITLES: Readonly<Record<string, string>> = {
  webvtt: 'WebVTT',
  srt: 'SRT',
  textgrid: 'a Praat TextGrid',
  eaf: 'ELAN EAF',
  otio: 'OpenTimelineIO',
  jams: 'JAMS',
  label_studio: 'a Label Studio export',
  web_annotation: 'W3C Web Annotation',
  annot: 'an .annot file',
};

/** The name people type (`--from vtt`, as the format is usually called). */
const SHORT_NAMES: Readonly<Record<string, string>> = { webvtt: 'vtt' };

/** The family of the formats' syntax: text formats have neither. */
const SYNTAX: Readonly<Record<string, 'JSON' | 'XML'>> = { eaf: 'XML', otio: 'JSON', jams: 'JSON', label_studio: 'JSON', web_annotation: 'JSON' };

export function formatTitle(format: FormatAdapter): string {
  return TITLES[format.name] ?? format.name;
}

/**
 * What the first bytes of a file read as `format` look like instead, or null when they look like
 * that format (or like no format at all: a damaged file is the reader's to describe).
 */
export function contentMismatch(format: FormatAdapter, head: Buffer, formats: readonly FormatAdapter[]): FormatMismatch | null {
  if (head.length === 0 || format.sniff(head)) return null;
  const other = formats.find((candidate) => candidate.name !== format.name && candidate.sniff(head));
  if (other !== undefined) return { looksLike: formatTitle(other).replace(/^an? /, ''), flag: flagFor(other) };
  const syntax = looksLikeJson(head) ? 'JSON' : looksLikeXml(head) ? 'XML' : null;
  if (syntax !== null && syntax !== SYNTAX[format.name]) return { looksLike: syntax, flag: null };
  return null;
}

export function flagFor(format: FormatAdapter): string {
  return `--from ${SHORT_NAMES[format.name] ?? format.name} (?format=${format.name} over HTTP)`;
}

/**
 * The format with its reader wrapped to tell of the mismatch: a warning before reading when
 * `warn` (the extension chose the format), and a hint after the message of a FormatParseError
 * raised while reading, whether by load() or as the annotations are consumed.
 */
export function tellingMismatch(format: FormatAdapter, mismatch: FormatMismatch, warn: boolean): FormatAdapter {
  return {
    ...format,
    codec: async () => {
      const codec = await format.codec();
      return { ...codec, load: (path, options) => loadTelling(codec, format, mismatch, warn, path, options) } satisfies FormatCodec;
    },
  };
}

async function loadTelling(codec: FormatCodec, format: FormatAdapter, mismatch: FormatMismatch, warn: boolean, path: string, options: LoadOptions): Promise<LoadedDocument> {
  if (warn) {
    const read = formatTitle(format);
    options.report({
      code: 'content_mismatch',
      severity: 'warning',
      file: options.sourceName,
      location: {},
      message: `the content looks like ${mismatch.looksLike}, not ${read.replace(/^an? /, '')}: read as ${read} because of its extension${mismatch.flag === null ? '' : `; ${mismatch.flag} reads it as ${mismatch.looksLike}`}`,
    });
  }
  const document = await withHint(() => codec.load(path, options), mismatch);
  const inTimeOrder = document.inTimeOrder;
  return {
    ...document,
    quantization: () => document.quantization(),
    annotations: hinted(document.annotations, mismatch),
    ...(inTimeOrder === undefined ? {} : { inTimeOrder: () => hinted(inTimeOrder(), mismatch) }),
  };
}

async function withHint<T>(work: () => Promise<T>, mismatch: FormatMismatch): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw addHint(error, mismatch);
  }
}

async function* hinted<T>(items: AsyncIterable<T>, mismatch: FormatMismatch): AsyncGenerator<T> {
  try {
    yield* items;
  } catch (error) {
    throw addHint(error, mismatch);
  }
}

/** The error with "(this looks like WebVTT: use --from vtt)" after its message. */
function addHint(error: unknown, mismatch: FormatMismatch): unknown {
  if (!(error instanceof FormatParseError)) return error;
  const hint = ` (this looks like ${mismatch.looksLike}${mismatch.flag === null ? '' : `: use ${mismatch.flag}`})`;
  const amended = error as { -readonly [K in 'expected' | 'message']: string };
  amended.expected += hint;
  amended.message += hint;
  return error;
}

import { isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';
import { TextDecodingError } from '../errors.js';
import type { Finding } from '../finding.js';
import { byteOrderMarkOf, zeroPatternEncoding, type ByteOrderMark } from './byte-order-mark.js';
import { canonicalEncoding, encodingLabel, isAsciiCompatible, resolveEncoding } from './encoding-names.js';
import { guessLegacyEncoding } from './legacy-guess.js';
import { LineCounter } from './line-counter.js';
import { firstInvalidUtf8, mixedEncodings } from './mixed-encodings.js';
import { xmlDeclaredEncoding } from './xml-declaration.js';
import { EMPTY_INPUT_MESSAGE, isBlankText } from './empty-input.js';

/**
 * How annot decides the encoding of a text file, the same for every reader, from the file's first
 * SAMPLE_BYTES (a reader that streams never holds more):
 *
 * 1. A byte-order mark decides (UTF-8, UTF-16 LE/BE, UTF-32 LE/BE), even over `--encoding`, as in
 *    the WHATWG Encoding Standard: the mark is a fact about the bytes, the flag a belief about
 *    them. A flag or an XML declaration it contradicts is a warning.
 * 2. `--encoding` (`?encoding=`), when given.
 * 3. XML only: the declaration's `encoding`.
 * 4. UTF-16 or UTF-32 without a mark, by the zero bytes of the first characters (a guess).
 * 5. Valid UTF-8 is UTF-8.
 * 6. Lines of UTF-8 among lines that are not: the file mixes encodings, refused (see mixed-encodings.ts).
 * 7. Otherwise the legacy encoding the detector finds (a guess).
 *
 * A guess is a warning finding `encoding_guessed` naming the encoding and the detector's
 * confidence, so `--strict` refuses it. A format whose specification says UTF-8 (WebVTT) warns
 * `encoding_not_utf8` when a mark or the flag says otherwise. An input with no text is a warning
 * `empty_input` (see empty-input.ts).
 */
export const SAMPLE_BYTES = 4 * 1024 * 1024;

export type EncodingReason = 'byte-order mark' | '--encoding' | 'XML declaration' | 'UTF-8' | 'guess';

export interface EncodingChoice {
  /** Canonical name (see encoding-names.ts). */
  readonly encoding: string;
  /** Bytes of the byte-order mark the text starts after (0 without one). */
  readonly bomLength: number;
  readonly reason: EncodingReason;
  /** Whether the choice saw the whole file (else a later byte may still refuse to decode). */
  readonly sawWholeFile: boolean;
}

/** What a reader asks of the choice. */
export interface EncodingRequest {
  /** The source as the user named it, for findings and errors. */
  readonly file: string;
  /** `--encoding` as typed. */
  readonly forced?: string;
  /** The file is XML: its declaration counts. */
  readonly xml?: boolean;
  /** The format's specification requires UTF-8 (its name, for the warning). */
  readonly utf8Only?: string;
  readonly report: (finding: Finding) => void;
}

/** Decides a file's encoding from its first bytes (`complete`: they are the whole file). */
export function chooseEncoding(sample: Uint8Array, complete: boolean, request: EncodingRequest): EncodingChoice {
  const choice = decide(sample, complete, request);
  if (complete && isBlankText(sample, choice.bomLength)) warn(request, 'empty_input', EMPTY_INPUT_MESSAGE);
  if (request.utf8Only !== undefined && choice.encoding !== 'utf-8' && choice.reason !== 'guess') {
    warn(request, 'encoding_not_utf8', `${request.utf8Only} files are UTF-8 by specification; this one is ${encodingLabel(choice.encoding)} (${choice.reason === '--encoding' ? 'as --encoding says' : `its ${choice.reason}`}): read as such, but players read it as UTF-8 (annot writes UTF-8)`);
  }
  return choice;
}

function decide(sample: Uint8Array, complete: boolean, request: EncodingRequest): EncodingChoice {
  const mark = byteOrderMarkOf(sample);
  if (mark !== null) return byMark(sample, mark, complete, request);
  const sawWholeFile = complete;
  if (request.forced !== undefined) return { encoding: resolveEncoding(request.forced), bomLength: 0, reason: '--encoding', sawWholeFile };
  const zeros = zeroPatternEncoding(sample);
  const declared = request.xml ? declaredEncoding(sample, zeros ?? 'utf-8', request) : null;
  if (declared !== null) return { encoding: declared, bomLength: 0, reason: 'XML declaration', sawWholeFile };
  if (zeros !== null) {
    warn(request, 'encoding_guessed', `no byte-order mark: read as ${encodingLabel(zeros)}, told by the zero bytes of its first characters (confidence 0.95)${utf8Note(request)}; name another with --encoding if the text looks wrong`);
    return { encoding: zeros, bomLength: 0, reason: 'guess', sawWholeFile };
  }
  if (isUtf8Start(sample, complete)) return { encoding: 'utf-8', bomLength: 0, reason: 'UTF-8', sawWholeFile };
  const mixed = mixedEncodings(sample, complete);
  if (mixed !== null) {
    throw notUtf8Error(sample, mixed.firstInvalid, request.file, `yet line ${mixed.utf8Line} is UTF-8 text: the file mixes encodings (or is damaged), and no one encoding reads it right; name the one to read it all in with --encoding (?encoding= over HTTP)`);
  }
  return guessed(sample, complete, request);
}

function byMark(sample: Uint8Array, mark: ByteOrderMark, complete: boolean, request: EncodingRequest): EncodingChoice {
  const forced = request.forced === undefined ? null : resolveEncoding(request.forced);
  if (forced !== null && forced !== mark.encoding) {
    warn(request, 'encoding_bom_overrides', `--encoding ${request.forced} not used: the file starts with a ${encodingLabel(mark.encoding)} byte-order mark, which decides (read as ${encodingLabel(mark.encoding)})`);
  }
  if (request.xml && forced === null) {
    const declared = xmlDeclaredEncoding(sample.subarray(mark.length), mark.encoding);
    const named = declared === null ? null : canonicalEncoding(declared.name);
    if (declared !== null && !sameFamily(named, mark.encoding)) {
      warn(request, 'encoding_declaration_mismatch', `the XML declaration says encoding="${declared.name}" but the file starts with a ${encodingLabel(mark.encoding)} byte-order mark, which decides: read as ${encodingLabel(mark.encoding)}`);
    }
  }
  return { encoding: mark.encoding, bomLength: mark.length, reason: 'byte-order mark', sawWholeFile: complete };
}

/** The encoding an XML declaration names, when it can be the file's (else a warning, and null). */
function declaredEncoding(sample: Uint8Array, readAs: string, request: EncodingRequest): string | null {
  const declared = xmlDeclaredEncoding(sample, readAs);
  if (declared === null) return null;
  const named = canonicalEncoding(declared.name);
  if (named === null) {
    throw new TextDecodingError(request.file, { line: 1, column: declared.column }, `expected an encoding annot can decode in the XML declaration, found "${declared.name}"; name the file's real encoding with --encoding (?encoding= over HTTP)`, 0);
  }
  // UTF-16 named by a file whose bytes are 8-bit (or the reverse) cannot be: the bytes decide.
  if (isAsciiCompatible(named) !== isAsciiCompatible(readAs)) {
    warn(request, 'encoding_declaration_mismatch', `the XML declaration says encoding="${declared.name}" but its own bytes are ${isAsciiCompatible(readAs) ? 'single bytes' : encodingLabel(readAs)}: the declaration is ignored`);
    return null;
  }
  return sameFamily(named, readAs) && !isAsciiCompatible(readAs) ? readAs : named;
}

/** UTF-16 (or UTF-32) named without a byte order matches either byte order. */
function sameFamily(named: string | null, actual: string): boolean {
  if (named === actual) return true;
  return named !== null && named.slice(0, 6) === actual.slice(0, 6) && (named.startsWith('utf-16') || named.startsWith('utf-32'));
}

/**
 * Whether the sample is UTF-8, or (a sample cut from a longer file) the start of UTF-8 text that
 * may end inside a character. Checked without decoding the sample into text: the reader decodes
 * the file anyway, and a 4 MiB string made only to be thrown away was a second pass over it.
 */
function isUtf8Start(sample: Uint8Array, complete: boolean): boolean {
  if (isUtf8(sample)) return true;
  if (complete) return false;
  // Cut inside a character: the whole characters are UTF-8, and what is left starts one.
  for (let cut = 1; cut <= 3 && cut < sample.length; cut++) {
    if (isUtf8(sample.subarray(0, sample.length - cut))) return decodesAsStart(sample.subarray(sample.length - cut));
  }
  return false;
}

/** Whether bytes are the start of UTF-8 text that may end inside a character. */
function decodesAsStart(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

function guessed(sample: Uint8Array, complete: boolean, request: EncodingRequest): EncodingChoice {
  const guess = guessLegacyEncoding(sample, complete);
  if (guess === null) {
    const offset = firstInvalidUtf8(sample);
    throw notUtf8Error(sample, offset, request.file, 'and no other encoding the detector knows reads it either; name the file\'s encoding with --encoding (?encoding= over HTTP)');
  }
  const next = guess.alternatives.map((other) => `${other.encoding} ${other.confidence.toFixed(2)}`).join(', ');
  const how = guess.fallback
    ? `the most common legacy encoding: too little text for the detector to tell (confidence ${guess.confidence.toFixed(2)}; its best guesses: ${next})`
    : `the encoding detected with confidence ${guess.confidence.toFixed(2)}${next.length > 0 ? ` (next: ${next})` : ''}`;
  warn(request, 'encoding_guessed', `not UTF-8 and no byte-order mark: read as ${guess.encoding}, ${how}${utf8Note(request)}; name another with --encoding if the text looks wrong`);
  return { encoding: guess.encoding, bomLength: 0, reason: 'guess', sawWholeFile: complete };
}

function utf8Note(request: EncodingRequest): string {
  return request.utf8Only === undefined ? '' : ` (${request.utf8Only} files must be UTF-8: players read them so)`;
}

/** The error for a file that is not UTF-8 from the byte at `offset` on (the bytes before it are UTF-8). */
function notUtf8Error(sample: Uint8Array, offset: number, file: string, why: string): TextDecodingError {
  const lines = new LineCounter();
  lines.add(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(sample.subarray(0, offset)));
  const hex = `0x${(sample[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0')}`;
  return new TextDecodingError(file, lines.position(), `expected UTF-8 text; byte ${hex} at byte offset ${offset} is not UTF-8, ${why}`, offset);
}

function warn(request: EncodingRequest, code: string, message: string): void {
  request.report({ code, severity: 'warning', file: request.file, location: {}, message });
}

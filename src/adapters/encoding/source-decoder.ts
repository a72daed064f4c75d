import { TextDecodingError } from '../errors.js';
import { SAMPLE_BYTES, type EncodingChoice } from './encoding-choice.js';
import { encodingLabel } from './encoding-names.js';
import { isDecodingFailure, readingDecoder, type StrictDecoder } from './strict-decoder.js';
import type { TextShape } from './text-shape.js';
import { locateUndecodable, type ByteSource, type Undecodable } from './undecodable-bytes.js';

/** How every decoding error ends: what the user can do. */
export const NAME_THE_ENCODING = 'name the file\'s encoding with --encoding (?encoding= over HTTP)';

/**
 * A file's bytes turned into text in the chosen encoding, piece by piece in file order (a
 * byte-order mark skipped), strictly: bytes that do not decode are a TextDecodingError naming the
 * byte offset, the line and column and what to do, never U+FFFD. The bytes are only read again
 * (through `source`) to place such an error.
 */
export class SourceDecoder {
  private readonly decoder: StrictDecoder;
  private consumed = 0;

  constructor(
    readonly choice: EncodingChoice,
    private readonly file: string,
    private readonly source: () => ByteSource,
    /** How the file is laid out (files read in pieces: see text-shape.ts). */
    readonly shape: TextShape | null = null,
  ) {
    this.decoder = readingDecoder(choice.encoding);
  }

  /** A decoder for another reading of the same file from its start, in the same encoding (nothing reported again). */
  again(): SourceDecoder {
    return new SourceDecoder(this.choice, this.file, this.source, this.shape);
  }

  /** The text of the next bytes of the file. */
  decode(bytes: Uint8Array): string {
    const start = this.consumed;
    this.consumed += bytes.length;
    const body = start >= this.choice.bomLength ? bytes : bytes.subarray(Math.min(bytes.length, this.choice.bomLength - start));
    try {
      return this.decoder.decode(body, { stream: true });
    } catch (error) {
      if (!isDecodingFailure(error)) throw error;
      throw this.failure(start);
    }
  }

  /** The end of the file: a sequence left incomplete is refused. */
  end(): string {
    try {
      return this.decoder.decode();
    } catch (error) {
      if (!isDecodingFailure(error)) throw error;
      throw this.failure(this.consumed);
    }
  }

  private failure(failedFrom: number): TextDecodingError {
    return undecodableError(this.choice, locateUndecodable(this.source(), this.choice.encoding, this.choice.bomLength, failedFrom), this.file);
  }
}

/** Decodes bytes held whole (the file, or what follows nothing else): one call, or the error. */
export function decodeWhole(bytes: Uint8Array, choice: EncodingChoice, file: string, source: () => ByteSource): string {
  try {
    return readingDecoder(choice.encoding).decode(bytes.subarray(choice.bomLength));
  } catch (error) {
    if (!isDecodingFailure(error)) throw error;
    throw undecodableError(choice, locateUndecodable(source(), choice.encoding, choice.bomLength), file);
  }
}

export function undecodableError(choice: EncodingChoice, where: Undecodable, file: string): TextDecodingError {
  const label = encodingLabel(choice.encoding);
  const { bytes, detail } = described(choice.encoding, where.bytes);
  const shown = [...bytes].map((byte) => `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`);
  const what = shown.length === 1 ? `byte ${shown[0]} at byte offset ${where.offset} is` : `bytes ${shown.join(' ')} at byte offset ${where.offset} are`;
  const hint = choice.reason === '--encoding' ? 'name another with --encoding (?encoding= over HTTP)' : NAME_THE_ENCODING;
  return new TextDecodingError(file, { line: where.line, column: where.column }, `expected ${label} text (${why(choice)}); ${what} not ${label}${detail}: ${hint}`, where.offset);
}

/** The bytes worth showing, and what is wrong with them when the encoding says more than "invalid". */
function described(encoding: string, bytes: Uint8Array): { bytes: Uint8Array; detail: string } {
  if (encoding !== 'utf-16le' && encoding !== 'utf-16be') return { bytes, detail: '' };
  if (bytes.length < 2) return { bytes, detail: ' (half a 16-bit unit at the end of the file)' };
  const unit = encoding === 'utf-16le' ? bytes[0] | (bytes[1] << 8) : (bytes[0] << 8) | bytes[1];
  const surrogate = unit >= 0xd800 && unit <= 0xdfff ? ` (a lone surrogate, 0x${unit.toString(16).toUpperCase()})` : '';
  return { bytes: bytes.subarray(0, 2), detail: surrogate };
}

function why(choice: EncodingChoice): string {
  const start = choice.sawWholeFile ? 'the file' : `its first ${SAMPLE_BYTES / (1024 * 1024)} MiB`;
  switch (choice.reason) {
    case 'byte-order mark':
      return 'as its byte-order mark says';
    case '--encoding':
      return 'the encoding named with --encoding';
    case 'XML declaration':
      return 'as its XML declaration says';
    case 'UTF-8':
      return `as ${start} ${choice.sawWholeFile ? 'is' : 'are'}: the file mixes encodings or is damaged`;
    case 'guess':
      return `the encoding guessed from ${start}`;
  }
}

import type { EncodingChoice } from './encoding-choice.js';
import { isAsciiCompatible } from './encoding-names.js';
import { strictDecoder } from './strict-decoder.js';

/**
 * How a file is laid out beside its text, told from its first and last bytes without reading the
 * rest: the byte-order mark, the line break it uses, how many line breaks end it, and its first
 * characters (for a format to tell its own layout by). Readers keep it (text-layout.ts) so that a
 * file converted to `.annot` and back comes out byte for byte as it went in.
 */
export interface TextShape {
  /** The encoding it was read in (annot writes UTF-8 whatever it was). */
  readonly encoding: string;
  /** A UTF-8 byte-order mark starts it (one of UTF-16 or UTF-32 is not kept: annot writes UTF-8). */
  readonly utf8Bom: boolean;
  /** The line break of its first 64 KiB, or null when they mix several kinds (or have none). */
  readonly lineBreak: '\n' | '\r\n' | '\r' | null;
  /** The line breaks that end it, after its last character that is not one (`\r\r\n` in a file of CRs an editor added a LF to). */
  readonly ending: string;
  /** Its first characters (at most HEAD_CHARACTERS). */
  readonly head: string;
}

/** Bytes looked at for the line breaks. */
const BREAKS_SAMPLE = 64 * 1024;
export const HEAD_CHARACTERS = 4096;
/** Bytes read from the end: 64 units even of UTF-32. */
export const TAIL_BYTES = 256;

export function textShape(sample: Uint8Array, tail: Uint8Array, choice: EncodingChoice): TextShape {
  const text = startText(sample.subarray(choice.bomLength, choice.bomLength + BREAKS_SAMPLE), choice.encoding);
  // The breaks that end the file are its ending, not its line break (they may differ: see ending).
  const whole = sample.length <= choice.bomLength + BREAKS_SAMPLE;
  return {
    encoding: choice.encoding,
    utf8Bom: choice.encoding === 'utf-8' && choice.bomLength > 0,
    lineBreak: lineBreakOf(whole ? text.replace(/[\r\n]+$/, '') : text),
    ending: ending(codeUnits(tail, choice.encoding)),
    head: text.slice(0, HEAD_CHARACTERS),
  };
}

/** The text the bytes start with, or '' when they do not decode (the reader then says why). */
function startText(bytes: Uint8Array, encoding: string): string {
  try {
    return strictDecoder(encoding).decode(bytes, { stream: true });
  } catch {
    return '';
  }
}

function lineBreakOf(text: string): TextShape['lineBreak'] {
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length - crlf;
  const cr = (text.match(/\r/g) ?? []).length - crlf;
  const kinds = [crlf > 0, lf > 0, cr > 0].filter(Boolean).length;
  if (kinds !== 1) return null;
  return crlf > 0 ? '\r\n' : lf > 0 ? '\n' : '\r';
}

/** The code units the last bytes hold (bytes of an ASCII-compatible encoding: its CR and LF are never part of another character). */
function codeUnits(tail: Uint8Array, encoding: string): number[] {
  if (isAsciiCompatible(encoding)) return [...tail];
  const size = encoding.startsWith('utf-32') ? 4 : 2;
  const littleEndian = encoding.endsWith('le');
  const units: number[] = [];
  for (let at = tail.length % size; at + size <= tail.length; at += size) {
    let unit = 0;
    for (let k = 0; k < size; k++) unit = unit * 256 + tail[littleEndian ? at + size - 1 - k : at + k];
    units.push(unit);
  }
  return units;
}

function ending(units: readonly number[]): string {
  let at = units.length;
  while (at > 0 && (units[at - 1] === 0x0a || units[at - 1] === 0x0d)) at--;
  return String.fromCharCode(...units.slice(at));
}

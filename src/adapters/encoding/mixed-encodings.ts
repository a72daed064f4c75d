import { isUtf8 } from 'node:buffer';

/**
 * A file that is not UTF-8 as a whole, yet holds lines of UTF-8 text: a UTF-8 file with a
 * damaged byte, or one edited in two tools that saved in different encodings (pysubs2's
 * "multi-encoding" test file mixes windows-1250, UTF-8, Shift_JIS and Big5). No single encoding
 * reads it right, and a legacy guess would turn every UTF-8 letter into two wrong ones, so such
 * a file is refused with the first byte that is not UTF-8 rather than guessed.
 *
 * A line counts as UTF-8 evidence when it holds a multi-byte UTF-8 sequence and no invalid one.
 * Legacy text meets such lines by chance (a Korean EUC-KR syllable is a valid two-byte sequence
 * one time in forty), so the file counts as mixed only when at least one line in five of those
 * with non-ASCII bytes is UTF-8.
 */
export interface MixedEncodings {
  /** Where the first byte that does not start a valid UTF-8 sequence is. */
  readonly firstInvalid: number;
  /** 1-based number of the first line that is UTF-8 text with non-ASCII letters. */
  readonly utf8Line: number;
}

export function mixedEncodings(sample: Uint8Array, complete: boolean): MixedEncodings | null {
  let utf8Lines = 0;
  let otherLines = 0;
  let firstUtf8Line = 0;
  let firstInvalid = -1;
  let line = 1;
  let lineStart = 0;
  let highByte = false;
  // The last line of an incomplete sample may be cut in the middle of a sequence: it is left out.
  const end = complete ? sample.length : Math.max(sample.lastIndexOf(0x0a), sample.lastIndexOf(0x0d)) + 1;
  for (let at = 0; at <= end; at++) {
    if (at < end && !endsLine(sample, at)) {
      if (sample[at] >= 0x80) highByte = true;
      continue;
    }
    if (highByte) {
      const bytes = sample.subarray(lineStart, at);
      if (isUtf8(bytes)) {
        utf8Lines++;
        if (firstUtf8Line === 0) firstUtf8Line = line;
      } else {
        otherLines++;
        if (firstInvalid === -1) firstInvalid = lineStart + firstInvalidUtf8(bytes);
      }
    }
    line++;
    lineStart = at + 1;
    highByte = false;
  }
  if (utf8Lines === 0 || firstInvalid === -1 || utf8Lines * 4 < otherLines) return null;
  return { firstInvalid, utf8Line: firstUtf8Line };
}

/** LF, or a CR not followed by LF (a CRLF pair ends its line at the LF). */
function endsLine(bytes: Uint8Array, at: number): boolean {
  return bytes[at] === 0x0a || (bytes[at] === 0x0d && bytes[at + 1] !== 0x0a);
}

/** The offset of the first byte that does not begin (or continue) a well-formed UTF-8 sequence (the length when all do). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const length = utf8SequenceLength(bytes, i);
    if (length === 0) return i;
    i += length;
  }
  return bytes.length;
}

/** The length of the well-formed UTF-8 sequence at `i`, or 0 when none starts there. */
function utf8SequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i];
  if (b < 0x80) return 1;
  let need: number;
  let min: number;
  if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
  else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
  else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
  else return 0;
  let code = b & (0x3f >> need);
  for (let k = 1; k <= need; k++) {
    const next = bytes[i + k];
    if (next === undefined || (next & 0xc0) !== 0x80) return 0;
    code = (code << 6) | (next & 0x3f);
  }
  if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0;
  return need + 1;
}

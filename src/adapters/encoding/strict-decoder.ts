import { isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';

/**
 * A decoder that throws on bytes its encoding cannot decode instead of putting U+FFFD in their
 * place: Node's TextDecoder with `fatal`, or one of the two decoders below for what TextDecoder
 * lacks. A byte-order mark is never dropped here (the caller skips it), so a U+FEFF inside the
 * text stays a character. Fed in pieces with `stream: true`, a sequence cut between two pieces is
 * completed by the next; the last call without `stream` refuses one left incomplete.
 */
export interface StrictDecoder {
  decode(bytes?: Uint8Array, options?: { stream?: boolean }): string;
}

export function strictDecoder(encoding: string): StrictDecoder {
  if (encoding === 'utf-32le' || encoding === 'utf-32be') return new Utf32Decoder(encoding === 'utf-32le');
  if (encoding === 'us-ascii') return new AsciiDecoder();
  return new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
}

/** Whether an error is a strict decoder's refusal (Node's code; tested by code, as a TypeError of another realm is not instanceof ours). */
/**
 * The strict decoder for reading a whole source in large pieces (source-decoder.ts): for UTF-8 the
 * one below, which is fast on large pieces; strictDecoder's otherwise. The search for an
 * undecodable byte, which feeds one byte at a time, keeps strictDecoder's.
 */
export function readingDecoder(encoding: string): StrictDecoder {
  return encoding === 'utf-8' ? new Utf8Decoder() : strictDecoder(encoding);
}

export function isDecodingFailure(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ERR_ENCODING_INVALID_ENCODED_DATA';
}

function decodingFailure(encoding: string): TypeError {
  return Object.assign(new TypeError(`The encoded data was not valid for encoding ${encoding}`), { code: 'ERR_ENCODING_INVALID_ENCODED_DATA' });
}

/** UTF-32 of one byte order: every four bytes one code point, surrogates and values past U+10FFFF refused. */
class Utf32Decoder implements StrictDecoder {
  private pending = new Uint8Array(0);

  constructor(private readonly littleEndian: boolean) {}

  decode(bytes: Uint8Array = new Uint8Array(0), options: { stream?: boolean } = {}): string {
    const all = this.pending.length === 0 ? bytes : concat(this.pending, bytes);
    const whole = all.length - (all.length % 4);
    if (options.stream !== true && whole !== all.length) {
      this.pending = new Uint8Array(0);
      throw decodingFailure(this.name());
    }
    this.pending = all.slice(whole);
    const view = new DataView(all.buffer, all.byteOffset, whole);
    const units: number[] = [];
    let text = '';
    for (let at = 0; at < whole; at += 4) {
      const point = view.getUint32(at, this.littleEndian);
      if (point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) {
        this.pending = new Uint8Array(0);
        throw decodingFailure(this.name());
      }
      units.push(point);
      if (units.length === 4096) text += String.fromCodePoint(...units.splice(0));
    }
    return text + String.fromCodePoint(...units);
  }

  private name(): string {
    return this.littleEndian ? 'utf-32le' : 'utf-32be';
  }
}

/** Strict 7-bit ASCII: a byte above 0x7F is refused. */
class AsciiDecoder implements StrictDecoder {
  decode(bytes: Uint8Array = new Uint8Array(0)): string {
    for (let i = 0; i < bytes.length; i++) if (bytes[i] > 0x7f) throw decodingFailure('us-ascii');
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
  }
}

/**
 * UTF-8 as TextDecoder with `fatal` reads it, in a fraction of its time on large pieces: each piece's whole
 * characters are checked with isUtf8 and decoded by V8 (TextDecoder's fatal mode goes through ICU
 * a code unit at a time, a fifth of a large conversion's decoding). A character cut at the end of
 * a piece waits for the next, and is refused at once when its first bytes cannot start one, as
 * TextDecoder refuses it.
 */
class Utf8Decoder implements StrictDecoder {
  private pending: Uint8Array = new Uint8Array(0);

  decode(bytes: Uint8Array = new Uint8Array(0), options: { stream?: boolean } = {}): string {
    const all = this.pending.length === 0 ? bytes : concat(this.pending, bytes);
    const whole = options.stream === true ? all.length - cutCharacterLength(all) : all.length;
    const text = all.subarray(0, whole);
    const rest = all.subarray(whole);
    this.pending = new Uint8Array(0);
    if (!isUtf8(text) || (rest.length > 0 && !startsUtf8(rest))) throw decodingFailure('utf-8');
    // A copy: the caller may read its next piece into the same memory (Buffer's slice() would not copy).
    this.pending = Uint8Array.from(rest);
    return Buffer.from(text.buffer, text.byteOffset, text.length).toString('utf8');
  }
}

/** How many bytes at the end of `bytes` begin a character they do not finish (0 to 3). */
function cutCharacterLength(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: the start is further back
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}

/**
 * Whether bytes (at most 3, a lead byte and continuations) can begin a UTF-8 character, by the
 * rules TextDecoder applies (WHATWG Encoding): the lead C2 to F4, and the second byte in the
 * narrower range E0, ED, F0 and F4 allow (no overlong form, no surrogate, nothing past U+10FFFF).
 * Checked here byte by byte: a decoder made for these few bytes cost 10 us each time, and the
 * search for an undecodable byte feeds one byte at a time.
 */
function startsUtf8(bytes: Uint8Array): boolean {
  const lead = bytes[0];
  if (lead < 0xc2 || lead > 0xf4) return false;
  for (let i = 1; i < bytes.length; i++) {
    const byte = bytes[i];
    let low = 0x80;
    let high = 0xbf;
    if (i === 1) {
      if (lead === 0xe0) low = 0xa0;
      else if (lead === 0xed) high = 0x9f;
      else if (lead === 0xf0) low = 0x90;
      else if (lead === 0xf4) high = 0x8f;
    }
    if (byte < low || byte > high) return false;
  }
  return true;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return joined;
}

import fc from 'fast-check';
import { TextDecoder } from 'node:util';
import { readingDecoder } from '../../src/adapters/encoding/strict-decoder.js';

// UTF-8 is decoded by our own strict decoder (isUtf8, then V8's decoding), which must read exactly
// as TextDecoder with `fatal` does, piece by piece: the same text, and a refusal in the same call.

const GOOD = ['a', '\n', 'é', '€', '😀', '\ufeff', '\u2028', '\u0000'].map((text) => [...Buffer.from(text, 'utf8')]);
/** Bytes no UTF-8 text has: stray continuation, overlong, surrogate, past U+10FFFF, 0xFF, characters cut short. */
const BAD = [[0x80], [0xc0, 0x80], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xff], [0xe2, 0x82], [0xf0, 0x9f, 0x98]];

type Outcome = { text: string } | { refusedAtCall: number };

/** Each piece is copied into one Buffer that is used again for the next, as a reader's chunk is. */
function decodeInPieces(decoder: { decode(bytes?: Uint8Array, options?: { stream?: boolean }): string }, pieces: Uint8Array[]): Outcome {
  const out: string[] = [];
  const chunk = Buffer.alloc(8);
  try {
    for (const piece of pieces) {
      chunk.set(piece);
      out.push(decoder.decode(chunk.subarray(0, piece.length), { stream: true }));
      chunk.fill(0xff);
    }
    out.push(decoder.decode());
    return { text: out.join('') };
  } catch (error) {
    expect((error as { code?: string }).code).toBe('ERR_ENCODING_INVALID_ENCODED_DATA');
    return { refusedAtCall: out.length };
  }
}

describe('the strict UTF-8 decoder', () => {
  it('reads any text cut anywhere, and refuses bad bytes in the same call, as TextDecoder with fatal', () => {
    const sequence = fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...GOOD) }, { weight: 1, arbitrary: fc.constantFrom(...BAD) });
    fc.assert(
      fc.property(fc.array(sequence, { maxLength: 14 }), fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 40 }), (sequences, sizes) => {
        const bytes = Uint8Array.from(sequences.flat());
        const pieces: Uint8Array[] = [];
        for (let at = 0, i = 0; at < bytes.length; i++) {
          const size = sizes[i % sizes.length];
          pieces.push(bytes.subarray(at, at + size));
          at += size;
        }
        expect(decodeInPieces(readingDecoder('utf-8'), pieces)).toEqual(decodeInPieces(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }), pieces));
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps a byte-order mark as a character (the caller skips the file\'s own)', () => {
    expect(readingDecoder('utf-8').decode(Uint8Array.from([0xef, 0xbb, 0xbf, 0x41]))).toBe('\ufeffA');
  });
});

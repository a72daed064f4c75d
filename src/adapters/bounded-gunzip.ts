import { constants as bufferConstants } from 'node:buffer';
import { createGunzip } from 'node:zlib';
import { FormatParseError, InputTooLargeError } from './errors.js';

/**
 * Limits on what a compressed input may inflate to. A gzip bomb (a few megabytes that expand to
 * gigabytes, deflate reaching about 1,000 to 1) is refused while it inflates, long before its
 * output is held, by two bounds checked on every chunk:
 * - `maxBytes`: the most text a reader can hold at all. Every whole-file reader makes one string
 *   of the file, and V8 strings stop at about 512 MiB; a plain file past that cannot be read
 *   either, so a compressed one is not allowed to claim more.
 * - `maxRatio`, once the output passes `ratioAfterBytes`: real annotation files compress 2 to 40
 *   times (JAMS from mirdata, jams and msaf compress 3 to 27 times; a million-observation file of
 *   repeated values 40 times), and a bomb 1,000 times. Checking the ratio as the output grows
 *   stops a bomb after `ratioAfterBytes` of output, so it costs a few milliseconds and megabytes.
 */
export interface InflateLimits {
  readonly maxBytes: number;
  readonly maxRatio: number;
  readonly ratioAfterBytes: number;
}

export const INFLATE_LIMITS: InflateLimits = Object.freeze({
  maxBytes: bufferConstants.MAX_STRING_LENGTH,
  maxRatio: 200,
  ratioAfterBytes: 16 * 1024 * 1024,
});

/** How much compressed input is handed to zlib at a time, and the size of its output chunks. */
const CHUNK_BYTES = 64 * 1024;

/** What inflation produced, with the counts a caller (or a test) can hold the limits against. */
export interface Inflated {
  readonly bytes: Buffer;
  /** Compressed bytes zlib consumed. */
  readonly consumed: number;
}

/**
 * Inflates gzip data (one member or several, as gunzip does) as a stream, refusing with an
 * InputTooLargeError as soon as the output passes a limit; a damaged stream is a FormatParseError.
 * `file` and `what` name the input in messages (`talk.jamz`, `gzip-compressed JAMS (.jamz)`).
 */
export async function gunzipBounded(compressed: Buffer, file: string, what: string, limits: InflateLimits = INFLATE_LIMITS): Promise<Inflated> {
  const gunzip = createGunzip({ chunkSize: CHUNK_BYTES });
  const chunks: Buffer[] = [];
  let inflated = 0;
  const done = new Promise<void>((resolve, reject) => {
    gunzip.on('data', (chunk: Buffer) => {
      inflated += chunk.length;
      const refusal = overLimit(inflated, gunzip.bytesWritten, file, what, limits);
      if (refusal !== null) {
        gunzip.destroy(refusal);
        return;
      }
      chunks.push(chunk);
    });
    gunzip.on('end', resolve);
    gunzip.on('error', (error: Error) => {
      chunks.length = 0;
      reject(error instanceof InputTooLargeError ? error : new FormatParseError(file, {}, `expected ${what}, but the gzip stream is damaged (${error.message})`));
    });
  });
  // Fed a slice at a time, waiting for zlib to take each: a refusal stops the work at once.
  for (let offset = 0; offset < compressed.length && !gunzip.destroyed; offset += CHUNK_BYTES) {
    if (!gunzip.write(compressed.subarray(offset, offset + CHUNK_BYTES))) await waitForDrain(gunzip);
  }
  if (!gunzip.destroyed) gunzip.end();
  await done;
  return { bytes: Buffer.concat(chunks, inflated), consumed: gunzip.bytesWritten };
}

function overLimit(inflated: number, consumed: number, file: string, what: string, limits: InflateLimits): InputTooLargeError | null {
  if (inflated > limits.maxBytes) {
    return new InputTooLargeError(file, inflated, `${what} that inflates past ${mebibytes(limits.maxBytes)}, the most text a reader can hold; refused after inflating ${mebibytes(inflated)}`);
  }
  if (inflated > limits.ratioAfterBytes && inflated > limits.maxRatio * Math.max(consumed, 1)) {
    return new InputTooLargeError(
      file,
      inflated,
      `${what} that inflates more than ${limits.maxRatio} times its compressed size (${mebibytes(inflated)} from ${kibibytes(consumed)} so far): ` +
        'refused as a gzip bomb, no real annotation file compresses this well',
    );
  }
  return null;
}

function waitForDrain(stream: NodeJS.WritableStream & { destroyed: boolean }): Promise<void> {
  return new Promise((resolve) => {
    const settle = () => {
      stream.off('drain', settle);
      stream.off('close', settle);
      resolve();
    };
    stream.on('drain', settle);
    stream.on('close', settle);
  });
}

const mebibytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MiB`;
const kibibytes = (bytes: number) => `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KiB`;

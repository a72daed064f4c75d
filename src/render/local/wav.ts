import { createHash } from 'node:crypto';

export const PLACEHOLDER_SAMPLE_RATE = 16000;
/** How long a word lasts in the placeholder track (the "about 0.4 s a word"). */
export const SECONDS_PER_WORD = 0.4;

/** Words of a line as the placeholder counts them. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/**
 * A placeholder speech track: for each word a soft tone (pitch from the voice, so characters
 * sound apart) with a fade in and out, then a short pause. Its length follows the line, 0.4 s a
 * word. 16-bit mono PCM in a WAV file; pure arithmetic, so the bytes are the same everywhere.
 */
export function placeholderSpeech(text: string, voice: string): Buffer {
  const words = Math.max(1, wordCount(text));
  const rate = PLACEHOLDER_SAMPLE_RATE;
  const perWord = Math.round(SECONDS_PER_WORD * rate);
  const toneLength = Math.round(perWord * 0.7);
  const seed = createHash('sha256').update(voice).digest();
  const base = 140 + (seed.readUInt16BE(0) % 160);
  const samples = new Int16Array(words * perWord);
  for (let w = 0; w < words; w++) {
    // a gentle melody: each word a little higher or lower, from the voice seed
    const pitch = base * (1 + ((seed[2 + (w % 16)] % 7) - 3) / 24);
    for (let i = 0; i < toneLength; i++) {
      const fade = Math.min(1, i / 400, (toneLength - i) / 400);
      samples[w * perWord + i] = Math.round(Math.sin((2 * Math.PI * pitch * i) / rate) * 6000 * fade);
    }
  }
  return encodeWav(samples, rate);
}

export function encodeWav(samples: Int16Array, sampleRate: number): Buffer {
  const data = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/**
 * The exact duration of a PCM WAV file as {frames, sampleRate}, walking its chunks; undefined
 * when the bytes are not a WAV file this can read (then ask ffmpeg).
 */
export function wavDuration(bytes: Uint8Array): { frames: number; sampleRate: number } | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < 12 || b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WAVE') return undefined;
  let offset = 12;
  let blockAlign = 0;
  let sampleRate = 0;
  while (offset + 8 <= b.length) {
    const id = b.toString('latin1', offset, offset + 4);
    let size = b.readUInt32LE(offset + 4);
    if (id === 'fmt ' && offset + 24 <= b.length) {
      sampleRate = b.readUInt32LE(offset + 12);
      blockAlign = b.readUInt16LE(offset + 20);
    } else if (id === 'data') {
      // espeak-ng writes to a pipe-friendly header with a placeholder size; trust the file.
      if (size === 0 || size === 0xffffffff || offset + 8 + size > b.length) size = b.length - offset - 8;
      if (!sampleRate || !blockAlign) return undefined;
      return { frames: Math.floor(size / blockAlign), sampleRate };
    }
    offset += 8 + size + (size % 2);
  }
  return undefined;
}

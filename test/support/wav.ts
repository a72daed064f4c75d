// WAV files written by the tests themselves (16-bit PCM), so the media they serve is known sample by sample.

/** A 16-bit PCM WAV of the samples (interleaved when there are several channels). */
export function wavBytes(samples: Int16Array, rate: number, channels = 1): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) data.writeInt16LE(samples[i], i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2 * channels, 28);
  header.writeUInt16LE(2 * channels, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** Mono samples: a sine tone of `hz` at `amplitude` where `toneAt(seconds)` is true, silence elsewhere. */
export function toneSamples(seconds: number, rate: number, { hz = 440, amplitude = 12000, toneAt = () => true }: { hz?: number; amplitude?: number; toneAt?: (t: number) => boolean } = {}): Int16Array {
  const samples = new Int16Array(Math.round(seconds * rate));
  for (let i = 0; i < samples.length; i++) samples[i] = toneAt(i / rate) ? Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate)) : 0;
  return samples;
}

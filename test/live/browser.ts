import { existsSync } from 'node:fs';

/** Debian's chromium, which .ci/run installs; playwright-core drives it and downloads nothing. */
export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/**
 * The chromium to drive, or null. Outside CI a missing browser skips the browser tests loudly;
 * under CI=true it is an error, so CI never passes by skipping them.
 */
export function chromiumPath(): string | null {
  const found = [process.env.ANNOT_CHROMIUM, ...CHROMIUM_CANDIDATES].find((path) => path !== undefined && path !== '' && existsSync(path));
  if (found) return found;
  if (process.env.CI === 'true') throw new Error(`chromium is missing (looked at ${CHROMIUM_CANDIDATES.join(', ')}); .ci/run installs it with apt-get install chromium`);
  console.warn(`SKIPPING the browser tests: chromium is not installed (looked at ${CHROMIUM_CANDIDATES.join(', ')}); apt-get install chromium to run them`);
  return null;
}

/** A short WAV file (a 440 Hz tone), so the page has media to play without any media tool. */
export function toneWav(seconds: number, rate = 8000): Buffer {
  const samples = Math.round(seconds * rate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(6000 * Math.sin((2 * Math.PI * 440 * i) / rate)), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

// Speech audio made by espeak-ng, one utterance per cue at the cue's time with silence between, so
// a test knows to the sample where each cue's speech is. The cues are the utterances' voiced spans.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** espeak-ng's own rate. */
export const SPEECH_RATE = 22050;

/** Whether espeak-ng can be run here. */
export function hasEspeak(): boolean {
  return spawnSync('espeak-ng', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** A cue of the generated track: where its voice is, in seconds. */
export interface SpokenCue {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** The samples (mono, SPEECH_RATE) of one utterance, cut to its voiced span. */
export function utterance(text: string, scratch: string, voice = 'en'): Int16Array {
  const path = join(scratch, 'utterance.wav');
  execFileSync('espeak-ng', ['-v', voice, '-w', path, text]);
  const samples = wavSamples(readFileSync(path));
  let first = 0;
  let last = samples.length - 1;
  while (first < last && Math.abs(samples[first]) < 300) first++;
  while (last > first && Math.abs(samples[last]) < 300) last--;
  return samples.slice(first, last + 1);
}

/** The 16-bit mono samples of a WAV file's data chunk. */
function wavSamples(bytes: Buffer): Int16Array {
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    if (id === 'data') {
      const end = Math.min(bytes.length, at + 8 + (size === 0xffffffff ? bytes.length : size));
      const out = new Int16Array((end - at - 8) >> 1);
      for (let i = 0; i < out.length; i++) out[i] = bytes.readInt16LE(at + 8 + 2 * i);
      return out;
    }
    at += 8 + size + (size & 1);
  }
  throw new Error('espeak-ng wrote no data chunk');
}

/** A small deterministic generator (mulberry32), so a track is the same on every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = 'the river morning window quietly paper yellow garden under seven letters bright station remember after carefully travel evening mountain kitchen silver answer forest little handle market winter between simple bottle orange'.split(' ');

/** A sentence of `words` words from the generator. */
export function sentence(random: () => number, words: number): string {
  return Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
}

/** How a track is laid out: how many cues, how many words each, the silence between. */
export interface TrackPlan {
  readonly cues: number;
  readonly words: readonly [number, number];
  readonly gap: readonly [number, number];
  /** Silence before the first cue, in seconds. */
  readonly lead: number;
  readonly seed: number;
}

/** Speech audio following the plan, and its cues (the voiced spans, to the sample). */
export function speechTrack(plan: TrackPlan): { samples: Int16Array; cues: SpokenCue[] } {
  const random = seeded(plan.seed);
  const scratch = mkdtempSync(join(tmpdir(), 'annot-espeak-'));
  try {
    const parts: Array<{ at: number; samples: Int16Array; text: string }> = [];
    let at = Math.round(plan.lead * SPEECH_RATE);
    for (let i = 0; i < plan.cues; i++) {
      const text = sentence(random, plan.words[0] + Math.floor(random() * (plan.words[1] - plan.words[0] + 1)));
      const samples = utterance(text, scratch);
      parts.push({ at, samples, text });
      at += samples.length + Math.round((plan.gap[0] + random() * (plan.gap[1] - plan.gap[0])) * SPEECH_RATE);
    }
    const track = new Int16Array(at + SPEECH_RATE);
    for (const part of parts) track.set(part.samples, part.at);
    const cues = parts.map((part) => ({ start: part.at / SPEECH_RATE, end: (part.at + part.samples.length) / SPEECH_RATE, text: part.text }));
    return { samples: track, cues };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** `HH:MM:SS,mmm`. */
function srtTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)},${pad(ms % 1000, 3)}`;
}

/** An SRT file of the cues, each time t written as t × scale + shift (the distortion a sync must undo). */
export function srtOf(cues: readonly SpokenCue[], { scale = 1, shift = 0 }: { scale?: number; shift?: number } = {}): string {
  return cues.map((cue, i) => `${i + 1}\n${srtTime(cue.start * scale + shift)} --> ${srtTime(cue.end * scale + shift)}\n${cue.text}\n`).join('\n');
}

/**
 * Whether the tests that need espeak-ng run: outside CI a missing espeak-ng skips them with a loud
 * message; under CI=true it is an error, so CI never passes by skipping them.
 */
export function espeakOrSkip(what: string): boolean {
  if (hasEspeak()) return true;
  const missing = 'espeak-ng is not installed; .ci/run installs it with apt-get install espeak-ng';
  if (process.env.CI === 'true') throw new Error(`${missing}: CI must run ${what}`);
  console.warn(`\n!!! SKIPPING ${what}: ${missing} !!!\n`);
  return false;
}

/** The cues of an SRT file: start and end in seconds. */
export function srtCues(text: string): Array<{ start: number; end: number }> {
  const time = (h: string, m: string, s: string, ms: string) => Number(h) * 3600 + Number(m) * 60 + Number(s) + Number(ms) / 1000;
  return [...text.matchAll(/(\d+):(\d\d):(\d\d),(\d{3}) --> (\d+):(\d\d):(\d\d),(\d{3})/g)].map((m) => ({ start: time(m[1], m[2], m[3], m[4]), end: time(m[5], m[6], m[7], m[8]) }));
}

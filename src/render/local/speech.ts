import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { RenderAbortedError } from '../errors.js';
import { LocalMediaError } from './errors.js';
import { placeholderSpeech } from './wav.js';

/** How the local provider speaks: espeak-ng when installed (auto), or always the placeholder tone. */
export type SpeechEngine = 'espeak-ng' | 'placeholder';

/**
 * The engine to use: ANNOT_LOCAL_SPEECH=placeholder|espeak-ng forces one; otherwise espeak-ng
 * when it is on the PATH, else the placeholder.
 */
export function chooseSpeechEngine(preference: string | undefined = process.env.ANNOT_LOCAL_SPEECH): SpeechEngine {
  if (preference === 'placeholder') return 'placeholder';
  if (preference === 'espeak-ng') return 'espeak-ng';
  return findOnPath('espeak-ng') ? 'espeak-ng' : 'placeholder';
}

export function findOnPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** espeak-ng voice variants; a character's voice id picks one, so characters sound apart. */
const VARIANTS = ['m1', 'f2', 'm3', 'f4', 'm4', 'f1', 'm2', 'f3'];

export function espeakVoice(voice: string): string {
  const digest = createHash('sha256').update(voice).digest();
  return `en-us+${VARIANTS[digest[0] % VARIANTS.length]}`;
}

/** A WAV of the line spoken in the voice. */
export async function speak(engine: SpeechEngine, text: string, voice: string, signal?: AbortSignal): Promise<Buffer> {
  if (engine === 'placeholder') return placeholderSpeech(text, voice);
  return espeak(text, voice, signal);
}

function espeak(text: string, voice: string, signal?: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new RenderAbortedError('the local render'));
    // --stdout writes the WAV to us; the text goes on stdin so no line is taken for an option.
    const child = spawn('espeak-ng', ['-v', espeakVoice(voice), '-s', '160', '--stdout'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => reject(new LocalMediaError(`could not run espeak-ng (${error.message})`)));
    child.on('close', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) return reject(new RenderAbortedError('the local render'));
      if (code !== 0) return reject(new LocalMediaError(`espeak-ng failed (exit ${code}): ${Buffer.concat(err).toString('utf8').trim()}`));
      resolve(fixStreamedWavSizes(Buffer.concat(out)));
    });
    child.stdin.end(text);
  });
}

/** espeak-ng streaming to stdout cannot seek back to fill in the sizes: fill them in. */
function fixStreamedWavSizes(wav: Buffer): Buffer {
  if (wav.length < 44 || wav.toString('latin1', 0, 4) !== 'RIFF') return wav;
  wav.writeUInt32LE(wav.length - 8, 4);
  let offset = 12;
  while (offset + 8 <= wav.length) {
    const id = wav.toString('latin1', offset, offset + 4);
    if (id === 'data') {
      wav.writeUInt32LE(wav.length - offset - 8, offset + 4);
      break;
    }
    offset += 8 + wav.readUInt32LE(offset + 4);
  }
  return wav;
}

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { canonicalJson } from '../../json/canonical-json.js';
import { emitSafely } from '../events.js';
import { RenderAbortedError } from '../errors.js';
import { cardColour, storyboardCard, CARD_HEIGHT, CARD_WIDTH } from '../local/card.js';
import { LocalAssetUnreachableError } from '../local/errors.js';
import { BITEXACT_FLAGS, probeDuration, runFfmpeg } from '../local/ffmpeg.js';
import { chooseSpeechEngine, speak, type SpeechEngine } from '../local/speech.js';
import { wavDuration } from '../local/wav.js';
import type { Asset, Provider, ProviderRunOptions } from './provider.js';

/** Options of LocalProvider. */
export interface LocalProviderOptions {
  /** Where the generated media are kept (the CLI uses `<cache dir>/local`). */
  dir: string;
  /** Default: ANNOT_LOCAL_SPEECH, else espeak-ng when installed, else the placeholder tone. */
  speech?: SpeechEngine;
}

/** Seconds of a clip made from a still. */
export const LOCAL_CLIP_SECONDS = 3;
const FPS = 10;

type Job = 'speech' | 'talking_video' | 'clip' | 'still';

/**
 * The offline preview provider: no key, no network. It answers each call by the shape of its
 * arguments, as fal's models do: `text` is speech (espeak-ng, else a placeholder tone 0.4 s a
 * word), `audio_url` a talking video (a card for the face, with the speech), `image_url` a clip
 * of the still with a slow push-in, anything else a 1024×576 storyboard card with the prompt
 * written on it. Output is deterministic — the same call gives the same bytes — and kept under
 * `dir` by a digest of the call, so a repeated call is a file lookup. Files are served as
 * `file://` URLs.
 */
export class LocalProvider implements Provider {
  /** `local`, or `local+espeak-ng`: a placeholder track is never served as real speech. */
  readonly name: string;
  /** Made on this machine from the arguments alone. */
  readonly origin = 'local';
  /** Where the generated media are kept. */
  readonly dir: string;
  /** How speech is made: espeak-ng, or the placeholder tone. */
  readonly speech: SpeechEngine;

  constructor(options: LocalProviderOptions) {
    this.dir = options.dir;
    this.speech = options.speech ?? chooseSpeechEngine();
    this.name = this.speech === 'espeak-ng' ? 'local+espeak-ng' : 'local';
  }

  /** Makes the media a call asks for, offline (or finds it under `dir`), and gives it back as a `file://` asset. */
  async run(modelId: string, args: Record<string, unknown>, options: ProviderRunOptions = {}): Promise<Asset[]> {
    if (options.signal?.aborted) throw new RenderAbortedError(`the call to ${modelId}`);
    const started = Date.now();
    const job = jobOf(args);
    const key = createHash('sha256').update(canonicalJson({ job, engine: this.name, args }, 'args')).digest('hex');
    const path = join(this.dir, key.slice(0, 2), `${key}${EXTENSIONS[job]}`);
    emitSafely(options.onEvent, { type: 'progress', model_id: modelId, message: `local ${job.replace('_', ' ')}` });
    try {
      if (options.force || !existsSync(path)) {
        const bytes = await this.make(job, args, options.signal);
        writeAtomic(path, bytes);
      }
    } catch (error) {
      emitSafely(options.onEvent, { type: 'error', model_id: modelId, message: (error as Error).message, elapsed_ms: Date.now() - started });
      throw error;
    }
    emitSafely(options.onEvent, { type: 'done', model_id: modelId, elapsed_ms: Date.now() - started });
    return [await this.assetOf(job, path)];
  }

  /** The bytes of a `file://` asset (LocalAssetUnreachableError for any other URL). */
  async fetchAsset(url: string): Promise<Uint8Array> {
    return readFile(localPath(url));
  }

  private async make(job: Job, args: Record<string, unknown>, signal?: AbortSignal): Promise<Buffer> {
    switch (job) {
      case 'speech': {
        const voice = String(args.voice ?? args.reference_audio_url ?? '');
        return speak(this.speech, String(args.text), voice, signal);
      }
      case 'still':
        return stillCard(String(args.prompt ?? ''));
      case 'talking_video':
        return this.withTemp((temp) => this.talkingVideo(args, temp, signal));
      case 'clip':
        return this.withTemp((temp) => this.clip(args, temp, signal));
    }
  }

  /** The face (a local image as is, else a card naming it) held for the length of the speech. */
  private async talkingVideo(args: Record<string, unknown>, temp: string, signal?: AbortSignal): Promise<Buffer> {
    const audio = localPath(String(args.audio_url));
    const seconds = await audioSeconds(audio);
    const image = String(args.image_url ?? '');
    let face: string;
    if (isLocal(image) && /\.(png|jpe?g)$/i.test(image)) {
      face = localPath(image);
    } else {
      face = join(temp, 'face.png');
      const name = image ? basename(image.replace(/[?#].*$/, '')) : 'no face';
      writeFileSync(face, storyboardCard({ heading: `talking: ${name}`, paragraphs: [String(args.prompt ?? '')], background: cardColour(image, 'evening') }));
    }
    const out = join(temp, 'talking.mp4');
    await runFfmpeg(
      [
        '-loop', '1', '-framerate', String(FPS), '-i', face, '-i', audio,
        '-t', seconds.toFixed(3),
        '-vf', `scale=${CARD_WIDTH}:${CARD_HEIGHT},format=yuv420p`,
        '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'stillimage',
        '-c:a', 'aac', '-b:a', '64k', '-ac', '1',
        ...BITEXACT_FLAGS, '-y', out,
      ],
      { signal },
    );
    return readFile(out);
  }

  /** Three seconds of the still with a slow push-in. */
  private async clip(args: Record<string, unknown>, temp: string, signal?: AbortSignal): Promise<Buffer> {
    const still = localPath(String(args.image_url));
    const out = join(temp, 'clip.mp4');
    const frames = LOCAL_CLIP_SECONDS * FPS;
    await runFfmpeg(
      [
        '-loop', '1', '-framerate', String(FPS), '-i', still,
        '-vf', `zoompan=z='1+0.004*on':d=1:x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':s=${CARD_WIDTH}x${CARD_HEIGHT}:fps=${FPS},format=yuv420p`,
        '-frames:v', String(frames),
        '-c:v', 'libx264', '-preset', 'ultrafast',
        ...BITEXACT_FLAGS, '-y', out,
      ],
      { signal },
    );
    return readFile(out);
  }

  private async withTemp(fn: (temp: string) => Promise<Buffer>): Promise<Buffer> {
    const temp = join(this.dir, 'tmp', `${process.pid}-${Math.random().toString(36).slice(2)}`);
    mkdirSync(temp, { recursive: true });
    try {
      return await fn(temp);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  }

  private async assetOf(job: Job, path: string): Promise<Asset> {
    const url = pathToFileURL(path).href;
    switch (job) {
      case 'speech':
        return { url, kind: 'audio', content_type: 'audio/wav', duration_s: await audioSeconds(path) };
      case 'still':
        return { url, kind: 'image', content_type: 'image/png', width: CARD_WIDTH, height: CARD_HEIGHT };
      default:
        return { url, kind: 'video', content_type: 'video/mp4', width: CARD_WIDTH, height: CARD_HEIGHT };
    }
  }
}

const EXTENSIONS: Record<Job, string> = { speech: '.wav', still: '.png', talking_video: '.mp4', clip: '.mp4' };

function jobOf(args: Record<string, unknown>): Job {
  if (typeof args.text === 'string') return 'speech';
  if (args.audio_url !== undefined) return 'talking_video';
  if (args.image_url !== undefined) return 'clip';
  return 'still';
}

/**
 * A still's card: the shot description as heading, the other prompt parts below, the colour
 * from the prompt's location and time of day.
 */
export function stillCard(prompt: string): Buffer {
  const parts = prompt.split(' | ');
  const value = (label: string) => parts.find((p) => p.startsWith(`${label}: `))?.slice(label.length + 2) ?? '';
  return storyboardCard({ heading: parts[0] ?? '', paragraphs: parts.slice(1), background: cardColour(value('location'), value('time')) });
}

/** The duration of a local audio file in seconds: from the WAV header, else from ffmpeg. */
export async function audioSeconds(path: string): Promise<number> {
  const wav = wavDuration(await readFile(path));
  if (wav) return wav.frames / wav.sampleRate;
  return (await probeDuration(path)) ?? 0;
}

function isLocal(url: string): boolean {
  return url.startsWith('file:') || isAbsolute(url);
}

/** The file behind a `file://` URL or an absolute path. */
export function localPath(url: string): string {
  if (url.startsWith('file:')) return fileURLToPath(url);
  if (isAbsolute(url)) return url;
  throw new LocalAssetUnreachableError(url);
}

function writeAtomic(path: string, bytes: Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(temp, bytes);
  renameSync(temp, path);
}


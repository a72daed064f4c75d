import { z } from 'zod';
import { InvalidInputError } from '../../errors/annot-error.js';
import { digestOf } from '../hashing.js';
import type { MediaBlob } from '../remote/unit-entry.js';
import type { UnitSpec } from '../unit-executor.js';

/** The providers a render worker renders with: the job names one, the worker uses its own key for it. */
export const FARM_PROVIDERS = ['fal', 'local'] as const;
/** One of FARM_PROVIDERS: `fal` (paid, the worker's FAL_KEY) or `local` (an offline preview, as `--provider local`). */
export type FarmProvider = (typeof FARM_PROVIDERS)[number];

/** The format and version a unit job carries, so a worker refuses a job it does not understand rather than misreading it. */
export const JOB_FORMAT = 'annot-render-job/1';

/** What a unit's job carries: everything a worker on any machine needs, and never a key. */
export interface UnitJobData {
  /** Always JOB_FORMAT. */
  format: typeof JOB_FORMAT;
  /** What the worker renders with, using its own key. */
  provider: FarmProvider;
  /** The caller's `force`: rendered again even where a cache holds it. */
  force: boolean;
  /** The unit itself, self-contained. */
  spec: UnitSpec;
}

/** What a worker hands back for a unit. */
export interface UnitJobResult {
  /** The unit's result without local paths (as the shared cache keeps it). */
  result: Record<string, unknown>;
  /** Each media field of the result (`url`, `video_url`…) with the file it names, by sha256: what the caller fetches and checks. */
  media: Record<string, MediaBlob>;
  /** Whether the worker had the unit already (its own cache or the shared one): nothing was paid for it. */
  cache_hit: boolean;
  /** `host:pid` of the worker. */
  worker: string;
  /** Where the caller finds the media: the shared cache the worker wrote to (`remote`, named), or Redis for an hour. */
  media_in: 'remote' | 'redis';
  /** The shared cache's `s3://BUCKET/PREFIX` when `media_in` is `remote`, else null. */
  remote: string | null;
}

/**
 * The job id of a unit: a digest of its job without the unit's own id (ids change no media), so
 * every caller rendering the same unit at once shares one job and the model is called once.
 */
export function unitJobId(data: UnitJobData): string {
  const spec = data.spec.kind === 'shot' ? { ...data.spec, shot: { ...data.spec.shot, id: '' } } : { ...data.spec, beat: { ...data.spec.beat, id: '', shot_id: '' } };
  return `unit-${digestOf({ ...data, spec })}`;
}

const text = z.string().max(100_000);
const nullableText = text.nullable();
const voice = z.object({ name: text, voice_id: text, reference_audio_url: text, model_id: text, style_notes: text });
const character = z.object({ name: text, description: text, reference_image_url: text, voice: voice.nullable(), style_notes: text });
const environment = z.object({ name: text, description: text, reference_image_url: text, time_of_day: text, lighting: text });
const shot = z.object({ id: text, description: text, framing: text, environment: text, characters: z.array(text), camera: text, notes: text });
const beat = z.object({ id: text, speaker: text, line: text, action: text, emotion: text, shot_id: text, duration_s: z.number().nullable(), notes: text });

const jobSchema = z.object({
  format: z.literal(JOB_FORMAT),
  provider: z.enum(FARM_PROVIDERS),
  force: z.boolean(),
  spec: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('shot'), shot, environment: environment.nullable(), characters: z.array(character), style: text, as_video: z.boolean(), quality: text, image_model: nullableText, image_to_video_model: nullableText }),
    z.object({ kind: z.literal('beat'), beat, speaker: character, tts_quality: nullableText, lipsync_quality: nullableText, tts_model: nullableText, avatar_model: nullableText }),
  ]),
});

/** A job as a worker reads it: checked, since anything on the queue may have put it there. */
export function parseUnitJob(value: unknown): UnitJobData {
  const parsed = jobSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidInputError(`not a render unit job (${JOB_FORMAT}): ${issue?.path.join('.') || 'job'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data as UnitJobData;
}

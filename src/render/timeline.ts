import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FormatCodec } from '../adapters/adapter.js';
import { makeAnnotation, mediaRef, type Annotation } from '../model/annotation.js';
import { makeTier } from '../model/tier.js';
import { MemoryStore } from '../store/memory.js';
import { RationalTime, UNKNOWN_GENERATED_AT } from '../time/rational-time.js';
import { TimeInterval } from '../time/time-interval.js';
import { probeDuration } from './local/ffmpeg.js';
import { wavDuration } from './local/wav.js';
import type { SceneManifest } from './manifest.js';
import { sceneEdit, type EditOptions } from './scene-edit.js';
import { sceneLayout } from './scene-layout.js';
import type { Scene } from './scene.js';

/** Ticks per second of the timeline: milliseconds, what subtitle formats keep. */
export const TIMELINE_RATE = 1000;
/** How long a beat with an action and no line holds the screen when it gives no duration_s. */
export const ACTION_BEAT_SECONDS = 1;
export const LABEL_SCHEMA = 'annot://schema/label/v1';
export const TIMELINE_TIERS = ['lines', 'speakers', 'shots'] as const;

export interface TimedBeat {
  beat_id: string;
  shot_id: string;
  speaker: string;
  line: string;
  start_ms: number;
  end_ms: number;
}

/**
 * The rendered scene laid out in time: the rendered beats one after another, each as long as its
 * real audio (read from the rendered file: the WAV header, else ffmpeg), an action-only beat for
 * its duration_s (else 1 s). Beats skipped by the render (empty, no character) take no time.
 * Each beat belongs to a shot: its shot_id, else the shot of the beat before (the first shot to
 * begin with); when no beat names a shot, the beats are shared out over the shots in order.
 */
export async function layOutBeats(scene: Scene, manifest: SceneManifest): Promise<TimedBeat[]> {
  const results = new Map<string, Record<string, unknown>>();
  for (const r of manifest.beats) if ('beat_id' in r && !('skipped' in r)) results.set(r.beat_id, r as unknown as Record<string, unknown>);
  const rendered = scene.beats.filter((b) => results.has(b.id));
  const anyShotIds = rendered.some((b) => b.shot_id !== '');
  const shotIds = scene.shots.map((s) => s.id);
  let current = shotIds[0] ?? '';
  let clock = 0;
  const timed: TimedBeat[] = [];
  for (const [index, beat] of rendered.entries()) {
    const result = results.get(beat.id)!;
    if (anyShotIds) current = beat.shot_id || current;
    else if (shotIds.length > 0) current = shotIds[Math.floor((index * shotIds.length) / rendered.length)];
    const audio = typeof result.audio_path === 'string' && result.audio_path ? result.audio_path : fileUrlPath(result.audio_url);
    let seconds = audio ? await audioDuration(audio) : undefined;
    if (seconds === undefined) seconds = beat.duration_s ?? ACTION_BEAT_SECONDS;
    const ms = Math.max(1, Math.round(seconds * 1000));
    timed.push({ beat_id: beat.id, shot_id: current, speaker: beat.speaker, line: beat.line, start_ms: clock, end_ms: clock + ms });
    clock += ms;
  }
  return timed;
}

/**
 * The timeline as an annotation store: a `lines` tier (the beats' lines as cues), a `speakers`
 * tier (who speaks each line, same times) and a `shots` tier (each run of beats in one shot as a
 * span). Ids are derived from the scene, and generation time is left unknown, so the same render
 * gives the same annotations and an unchanged timeline file is not rewritten.
 */
export async function sceneTimeline(scene: Scene, manifest: SceneManifest): Promise<MemoryStore> {
  const timed = await layOutBeats(scene, manifest);
  const store = new MemoryStore();
  for (const name of TIMELINE_TIERS) await store.addTier(makeTier({ name }));
  await store.setMeta('title', scene.title);
  if (scene.style) await store.setMeta('style', scene.style);
  const asset = `scene:${scene.title || 'scene'}`;
  const provenance = { was_generated_by: 'processor:annot-render', generated_at_time: UNKNOWN_GENERATED_AT };
  const annotations: Annotation[] = [];
  const add = (tier: string, key: string, startMs: number, endMs: number, body: Record<string, unknown>) =>
    annotations.push(
      makeAnnotation({
        id: stableId(scene.title, tier, key),
        tier,
        reference: mediaRef(asset, new TimeInterval(new RationalTime(startMs, TIMELINE_RATE), new RationalTime(endMs, TIMELINE_RATE))),
        body,
        body_schema_uri: LABEL_SCHEMA,
        provenance,
      }),
    );
  for (const t of timed) {
    if (t.line === '') continue;
    add('lines', t.beat_id, t.start_ms, t.end_ms, { text: t.line, source_id: t.beat_id });
    add('speakers', t.beat_id, t.start_ms, t.end_ms, { text: t.speaker, source_id: t.beat_id });
  }
  const shots = new Map(scene.shots.map((s) => [s.id, s]));
  let run: { shot: string; start: number; end: number } | undefined;
  let spans = 0;
  const flush = () => {
    if (!run || !run.shot) return;
    const shot = shots.get(run.shot);
    add('shots', `${run.shot}#${spans++}`, run.start, run.end, { text: shot?.description || 'shot', source_id: run.shot });
  };
  for (const t of timed) {
    if (run && run.shot === t.shot_id) run.end = t.end_ms;
    else {
      flush();
      run = { shot: t.shot_id, start: t.start_ms, end: t.end_ms };
    }
  }
  flush();
  await store.addMany(annotations);
  return store;
}

/** The timeline formats that link the rendered media (written from the edit, not the adapters). */
export const LINKED_TIMELINE_EXTENSIONS = ['.otio', '.eaf', '.vtt'] as const;

export function isLinkedTimeline(path: string): boolean {
  return LINKED_TIMELINE_EXTENSIONS.some((ext) => path.toLowerCase().endsWith(ext));
}

export interface LinkedTimelineOptions extends EditOptions {
  /** The animatic, when one is written: EAF and VTT are then timed to it and link it. */
  animatic?: string;
}

/**
 * Writes an OTIO, EAF or VTT timeline that links the rendered media (see otioDocument,
 * eafDocument, vttDocument), from the manifest alone (its layout). Replaced only when its
 * content changes (for EAF: apart from its DATE), atomically.
 */
export async function writeLinkedTimeline(
  manifest: SceneManifest,
  path: string,
  options: LinkedTimelineOptions = {},
): Promise<{ written: boolean; format: string; dropped: ReadonlyArray<{ what: string; count: number }> }> {
  const { writeIfChanged } = await import('./output-files.js');
  const edit = await sceneEdit(manifest, manifest.layout, options);
  const ext = path.toLowerCase().slice(path.lastIndexOf('.'));
  let text: string;
  let format: string;
  if (ext === '.otio') {
    const { otioDocument } = await import('./timeline-otio.js');
    text = `${JSON.stringify(otioDocument(edit, path), null, 4)}\n`;
    format = 'otio';
  } else if (ext === '.eaf') {
    const { eafDocument } = await import('./timeline-eaf.js');
    const previous = existsSync(path) ? /<ANNOTATION_DOCUMENT [^>]*DATE="([^"]*)"/.exec(await readFile(path, 'utf8'))?.[1] : undefined;
    const same = previous !== undefined && eafDocument(edit, path, previous, options.animatic) === (await readFile(path, 'utf8'));
    if (same) return { written: false, format: 'eaf', dropped: [] };
    text = eafDocument(edit, path, new Date().toISOString().replace(/\.\d+Z$/, 'Z'), options.animatic);
    format = 'eaf';
  } else {
    const { vttDocument } = await import('./timeline-vtt.js');
    text = vttDocument(edit, path, options.animatic);
    format = 'webvtt';
  }
  return { written: await writeIfChanged(path, text), format, dropped: [] };
}

/**
 * Writes the timeline. OTIO, EAF and VTT link the rendered media (writeLinkedTimeline); other
 * formats go through the adapter registry, the format from the file name (`.srt`, `.annot`,
 * ...); subtitle formats get the `lines` tier only. The file is replaced only when its bytes
 * change. Returns what the format could not keep.
 */
export async function writeTimeline(
  scene: Scene,
  manifest: SceneManifest,
  path: string,
  warn: (message: string) => void = () => {},
  options: LinkedTimelineOptions = {},
): Promise<{ written: boolean; format: string; dropped: ReadonlyArray<{ what: string; count: number }> }> {
  if (isLinkedTimeline(path)) return writeLinkedTimeline({ ...manifest, layout: manifest.layout ?? sceneLayout(scene) }, path, options);
  const [{ inferFormat }, { produceIfChanged }] = await Promise.all([import('../adapters/registry.js'), import('./output-files.js')]);
  const adapter = inferFormat({ path });
  const codec = await adapter.codec();
  const store = await sceneTimeline(scene, manifest);
  const flat = adapter.name === 'webvtt' || adapter.name === 'srt';
  let dropped: ReadonlyArray<{ what: string; count: number }> = [];
  const written = await produceIfChanged(path, async (temp) => {
    const report = await codec.dump(store, temp, { targetName: path, tier: flat ? 'lines' : undefined, warn });
    dropped = report.dropped;
  }, (existing, fresh) => sameTimeline(codec, existing, fresh));
  return { written, format: adapter.name, dropped };
}

/** Whether two timeline files load to the same tiers, metadata and annotations. */
async function sameTimeline(codec: FormatCodec, a: string, b: string): Promise<boolean> {
  const { annotationToWire } = await import('../model/wire.js');
  const read = async (path: string) => {
    const doc = await codec.load(path, { sourceName: path, now: UNKNOWN_GENERATED_AT, report: () => {} });
    const annotations: unknown[] = [];
    for await (const annotation of doc.annotations) annotations.push(annotationToWire(annotation));
    return JSON.stringify({ tiers: doc.tiers, meta: doc.meta, annotations });
  };
  return (await read(a)) === (await read(b));
}

/** A UUID-shaped id from the scene title, tier and key: the same unit always gets the same id. */
function stableId(title: string, tier: string, key: string): string {
  const hex = createHash('sha256').update(`${title}\u0000${tier}\u0000${key}`).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function fileUrlPath(url: unknown): string | undefined {
  if (typeof url !== 'string' || !url.startsWith('file:')) return undefined;
  const path = fileURLToPath(url);
  return existsSync(path) ? path : undefined;
}

/** Seconds of an audio file: exact from a WAV header, else ffmpeg's reading; undefined if unreadable. */
export async function audioDuration(path: string): Promise<number | undefined> {
  if (!existsSync(path)) return undefined;
  const wav = wavDuration(await readFile(path));
  if (wav) return wav.frames / wav.sampleRate;
  return probeDuration(path);
}

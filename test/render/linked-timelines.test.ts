import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eafCodec } from '../../src/adapters/eaf/codec.js';
import { otioCodec } from '../../src/adapters/otio/codec.js';
import { load as loadVtt } from '../../src/adapters/webvtt/codec.js';
import { closeRenderCaches } from '../../src/render/cache.js';
import type { SceneManifest } from '../../src/render/manifest.js';
import { ffprobeBinary } from '../../src/render/media-probe.js';
import { LocalProvider } from '../../src/render/providers/local.js';
import { renderScene } from '../../src/render/render-scene.js';
import { sceneEdit } from '../../src/render/scene-edit.js';
import { sceneLayout } from '../../src/render/scene-layout.js';
import { loadSceneFile } from '../../src/render/scene.js';
import { writeLinkedTimeline } from '../../src/render/timeline.js';
import { RationalTime } from '../../src/time/rational-time.js';

const LIGHTHOUSE = fileURLToPath(new URL('../../fixtures/scenes/lighthouse.yaml', import.meta.url));

type Json = Record<string, unknown>;

/** The file a link names: a file:// URL, else a path relative to the linking file. */
function linkedFile(link: string, from: string): string {
  if (link.startsWith('file:')) return fileURLToPath(link);
  expect(isAbsolute(link)).toBe(false);
  return resolve(dirname(from), link);
}

/** Every OTIO object in a document, depth first. */
function otioObjects(value: unknown, out: Json[] = []): Json[] {
  if (Array.isArray(value)) for (const item of value) otioObjects(item, out);
  else if (value && typeof value === 'object') {
    if (typeof (value as Json).OTIO_SCHEMA === 'string') out.push(value as Json);
    for (const item of Object.values(value)) otioObjects(item, out);
  }
  return out;
}

/** Samples (or ticks) of a file's first stream of a kind, read by ffprobe, as seconds v/r. */
function probedSeconds(path: string, kind: 'a' | 'v'): number {
  const out = execFileSync(ffprobeBinary(), ['-v', 'error', '-select_streams', `${kind}:0`, '-show_entries', 'stream=duration', '-of', 'csv=p=0', path], { encoding: 'utf8' });
  return Number(out.trim());
}

describe('timelines that link the rendered media (local provider, lighthouse scene)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'annot-linked-'));
  const outside = mkdtempSync(join(tmpdir(), 'annot-linked-out-'));
  let manifest: SceneManifest;
  beforeAll(async () => {
    const scene = await loadSceneFile(LIGHTHOUSE);
    // The cache (and so the media) lies below `dir`: timelines in `dir` link them relatively.
    const provider = new LocalProvider({ dir: join(dir, 'media', 'local'), speech: 'placeholder' });
    const rendered = await renderScene(scene, { provider, cacheDir: join(dir, 'media', 'cache'), durableAssets: true });
    manifest = { ...rendered, layout: sceneLayout(scene) };
  }, 120000);
  afterAll(() => {
    closeRenderCaches();
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('records each rendered unit\'s real duration in the manifest, as ffprobe reads the files', () => {
    const beats = manifest.beats.filter((b) => 'beat_id' in b && 'audio_path' in b && (b as unknown as Json).audio_url) as unknown as Json[];
    expect(beats.map((b) => b.beat_id)).toEqual(['b1', 'b2', 'b4', 'b7']);
    for (const beat of beats) {
      const duration = beat.duration as { v: number; r: number };
      expect(beat.audio_duration).toEqual(duration);
      // Exact samples at the WAV's own rate, not a rounded decimal.
      expect(Number.isInteger(duration.v) && Number.isInteger(duration.r)).toBe(true);
      expect(duration.v / duration.r).toBeCloseTo(probedSeconds(beat.audio_path as string, 'a'), 5);
      if (beat.video_path) expect((beat.video_duration as { v: number; r: number }).v).toBeGreaterThan(0);
    }
    // The placeholder voice speaks 0.4 s a word: b1 has nine words.
    const b1 = beats[0].duration as { v: number; r: number };
    expect(new RationalTime(b1.v, b1.r).equals(RationalTime.fromSeconds('3.6', 10))).toBe(true);
    // A still has no duration.
    for (const shot of manifest.shots) expect((shot as unknown as Json).duration).toBeUndefined();
  });

  it('times the beats from those durations, and the edit from the beats', async () => {
    const edit = await sceneEdit(manifest);
    const beats = edit.shots.flatMap((s) => s.beats).map((b) => [b.beat_id, b.shot_id, b.start.toSeconds(), b.duration.toSeconds(), b.missing ?? null]);
    expect(beats).toEqual([
      ['b1', 's1', 0, 3.6, null],
      ['b2', 's2', 3.6, 4.8, null],
      ['b3', 's2', 8.4, 1, null], // an action, no line: 1 s
      ['b4', 's3', 9.4, 2.4, null],
      ['b5', 's3', 11.8, 0, 'skipped: empty beat (no line, no action)'],
      ['b6', 's4', 11.8, 0, 'skipped: no character'],
      ['b7', 's4', 11.8, 1.6, null],
    ]);
    expect(edit.duration.toSeconds()).toBeCloseTo(13.4, 9);
  });

  it('writes OTIO by the schema: shots, talking video and speech tracks of clips linking the files, gaps with reasons, markers for the lines', async () => {
    const path = join(dir, 'scene.otio');
    expect((await writeLinkedTimeline(manifest, path)).written).toBe(true);
    const doc = JSON.parse(readFileSync(path, 'utf8')) as Json;
    expect(doc.OTIO_SCHEMA).toBe('Timeline.1');
    const stack = doc.tracks as Json;
    expect(stack.OTIO_SCHEMA).toBe('Stack.1');
    const tracks = stack.children as Json[];
    expect(tracks.map((t) => [t.OTIO_SCHEMA, t.name, t.kind])).toEqual([
      ['Track.1', 'shots', 'Video'],
      ['Track.1', 'talking video', 'Video'],
      ['Track.1', 'speech', 'Audio'],
    ]);
    // Every object is of a known schema and version; every time a RationalTime.1 with a positive rate.
    const known = new Set(['Timeline.1', 'Stack.1', 'Track.1', 'Clip.2', 'Gap.1', 'Marker.2', 'ExternalReference.1', 'TimeRange.1', 'RationalTime.1']);
    const objects = otioObjects(doc);
    for (const o of objects) expect(known).toContain(o.OTIO_SCHEMA);
    for (const o of objects.filter((x) => x.OTIO_SCHEMA === 'RationalTime.1')) {
      expect(typeof o.rate === 'number' && (o.rate as number) > 0).toBe(true);
      expect(typeof o.value).toBe('number');
    }
    for (const range of objects.filter((x) => x.OTIO_SCHEMA === 'TimeRange.1')) {
      expect((range.start_time as Json).OTIO_SCHEMA).toBe('RationalTime.1');
      expect((range.duration as Json).OTIO_SCHEMA).toBe('RationalTime.1');
    }
    for (const clip of objects.filter((x) => x.OTIO_SCHEMA === 'Clip.2')) {
      expect(clip.active_media_reference_key).toBe('DEFAULT_MEDIA');
      expect(clip.media_reference).toBeUndefined();
      expect(Object.keys(clip.media_references as Json)).toEqual(['DEFAULT_MEDIA']);
      expect(((clip.media_references as Json).DEFAULT_MEDIA as Json).OTIO_SCHEMA).toBe('ExternalReference.1');
    }
    const [shots, video, speech] = tracks.map((t) => t.children as Json[]);
    expect(shots.map((c) => [c.OTIO_SCHEMA, c.name])).toEqual([
      ['Clip.2', 's1'],
      ['Clip.2', 's2'],
      ['Clip.2', 's3'],
      ['Clip.2', 's4'],
    ]);
    // b4's speaker (Radio) has no face: speech only, a gap on the talking-video track.
    expect(video.map((c) => [c.OTIO_SCHEMA, c.name])).toEqual([
      ['Clip.2', 'b1'],
      ['Clip.2', 'b2'],
      ['Gap.1', 'b3'],
      ['Gap.1', 'b4'],
      ['Gap.1', 'b5'],
      ['Gap.1', 'b6'],
      ['Clip.2', 'b7'],
    ]);
    expect(speech.map((c) => c.OTIO_SCHEMA)).toEqual(['Clip.2', 'Clip.2', 'Gap.1', 'Clip.2', 'Gap.1', 'Gap.1', 'Clip.2']);
    expect(((speech[4].metadata as Json).annot as Json).reason).toBe('skipped: empty beat (no line, no action)');
    expect(((speech[5].metadata as Json).annot as Json).reason).toBe('skipped: no character');
    expect(((video[3].metadata as Json).annot as Json).reason).toMatch(/no talking video/);
    // available_range is the file's real duration at its own rate.
    const b1 = manifest.beats.find((b) => 'beat_id' in b && b.beat_id === 'b1') as unknown as Json;
    const audioRef = (speech[0].media_references as Json).DEFAULT_MEDIA as Json;
    const available = (audioRef.available_range as Json).duration as Json;
    expect([available.value, available.rate]).toEqual([(b1.audio_duration as Json).v, (b1.audio_duration as Json).r]);
    // The lines are markers on the speech clips.
    const markers = speech.flatMap((c) => (c.markers as Json[] | undefined) ?? []);
    expect(markers.map((m) => [m.OTIO_SCHEMA, m.name, m.comment])).toEqual([
      ['Marker.2', 'They told me you would not leave the tower.', 'Ivo'],
      ['Marker.2', 'Forty years I have kept this light. It does not keep itself.', 'Maren'],
      ['Marker.2', 'Gale warning. All vessels seek shelter.', 'Radio'],
      ['Marker.2', 'It is. She is.', 'Ivo'],
    ]);
    // Media below the timeline's folder: relative links, and every one names a file on disk.
    const links = objects.filter((o) => o.OTIO_SCHEMA === 'ExternalReference.1').map((r) => r.target_url as string);
    expect(links.length).toBe(4 + 3 + 4);
    for (const link of links) {
      expect(link.startsWith('file:')).toBe(false);
      expect(existsSync(linkedFile(link, path))).toBe(true);
    }
  });

  it('reads its OTIO back through our own reader: the tracks as tiers, clips at their times, the lines', async () => {
    const path = join(dir, 'scene.otio');
    const doc = await otioCodec.load(path, { sourceName: path, now: RationalTime.now(1000), report: () => {} });
    expect(doc.tiers.map((t) => t.name)).toEqual(['shots', 'talking video', 'speech']);
    const found: Array<[string, unknown, number, number]> = [];
    for await (const a of doc.annotations) {
      if (a.reference.kind !== 'media') continue;
      found.push([a.tier, a.body.name, a.reference.interval.start.toSeconds(), a.reference.interval.end.toSeconds()]);
    }
    const speech = found.filter(([tier, name]) => tier === 'speech' && typeof name === 'string' && name.length > 3);
    expect(speech.map(([, name, start, end]) => [name, Number(start.toFixed(6)), Number(end.toFixed(6))])).toEqual([
      ['They told me you would not leave the tower.', 0, 3.6],
      ['Forty years I have kept this light. It does not keep itself.', 3.6, 8.4],
      ['Gale warning. All vessels seek shelter.', 9.4, 11.8],
      ['It is. She is.', 11.8, 13.4],
    ]);
  });

  it('links by absolute file:// URL when the media are not below the timeline, and every link resolves', async () => {
    const path = join(outside, 'scene.otio');
    await writeLinkedTimeline(manifest, path);
    const links = otioObjects(JSON.parse(readFileSync(path, 'utf8')))
      .filter((o) => o.OTIO_SCHEMA === 'ExternalReference.1')
      .map((r) => r.target_url as string);
    for (const link of links) {
      expect(link.startsWith('file:///')).toBe(true);
      expect(existsSync(fileURLToPath(link))).toBe(true);
    }
  });

  it('writes EAF with a MEDIA_DESCRIPTOR per beat medium, or the animatic alone; ELAN-valid links that exist; loads back', async () => {
    const path = join(dir, 'scene.eaf');
    await writeLinkedTimeline(manifest, path);
    const text = readFileSync(path, 'utf8');
    const descriptors = [...text.matchAll(/<MEDIA_DESCRIPTOR MEDIA_URL="([^"]+)" MIME_TYPE="([^"]+)"(?: RELATIVE_MEDIA_URL="([^"]+)")?\/>/g)];
    // b1, b2, b7 talking videos; b4 speech only.
    expect(descriptors.map((d) => d[2])).toEqual(['video/mp4', 'video/mp4', 'audio/x-wav', 'video/mp4']);
    for (const [, url, , relative] of descriptors) {
      expect(existsSync(fileURLToPath(url))).toBe(true);
      expect(existsSync(resolve(dir, relative))).toBe(true);
    }
    const doc = await eafCodec.load(path, { sourceName: path, now: RationalTime.now(1000), report: () => {} });
    const lines: Array<[unknown, number]> = [];
    for await (const a of doc.annotations) if (a.tier === 'lines' && a.reference.kind === 'media') lines.push([a.body.text, a.reference.interval.start.toSeconds()]);
    expect(lines).toEqual([
      ['They told me you would not leave the tower.', 0],
      ['Forty years I have kept this light. It does not keep itself.', 3.6],
      ['Gale warning. All vessels seek shelter.', 9.4],
      ['It is. She is.', 11.8],
    ]);
    // Unchanged edit: not rewritten (its DATE aside).
    expect((await writeLinkedTimeline(manifest, path)).written).toBe(false);

    const withAnimatic = join(outside, 'scene.eaf');
    const animatic = join(outside, 'scene.mp4');
    await writeLinkedTimeline(manifest, withAnimatic, { animatic });
    const only = [...readFileSync(withAnimatic, 'utf8').matchAll(/<MEDIA_DESCRIPTOR [^>]*\/>/g)].map((m) => m[0]);
    expect(only).toEqual([`<MEDIA_DESCRIPTOR MEDIA_URL="file://${animatic}" MIME_TYPE="video/mp4" RELATIVE_MEDIA_URL="./scene.mp4"/>`]);
  });

  it('writes VTT with <v Speaker> voice spans, timed from the real durations, naming media that exist', async () => {
    const path = join(dir, 'scene.vtt');
    await writeLinkedTimeline(manifest, path);
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('00:00:09.400 --> 00:00:11.800\n<v Radio>Gale warning. All vessels seek shelter.</v>');
    expect(text.match(/<v [^>]+>/g)).toEqual(['<v Ivo>', '<v Maren>', '<v Radio>', '<v Ivo>']);
    const media = [...text.matchAll(/^media: (.+)$/gm)].map((m) => m[1]);
    expect(media).toHaveLength(4);
    for (const link of media) expect(existsSync(linkedFile(link, path))).toBe(true);
    const doc = await loadVtt(path, { sourceName: path, now: RationalTime.now(1000), report: () => {} });
    let cues = 0;
    for await (const a of doc.annotations) if (a.reference.kind === 'media') cues++;
    expect(cues).toBe(4);
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { SceneManifest } from './manifest.js';
import { shotPrompt } from './render-shot.js';
import { beatInputs, shotInputs } from './scene-lookup.js';
import { ManifestLayoutMissingError } from './scene-edit.js';
import type { Scene } from './scene.js';

const MEDIA_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.m4a': 'audio/mp4',
};

/**
 * The storyboard page of a rendered scene: one self-contained HTML file (every image, clip and
 * audio track embedded as a data: URI, so it can be mailed or archived as one file). The title,
 * each shot's still (or clip) with its prompt, each beat's line with an audio or video player.
 * A small script counts what the browser could load into `#storyboard-check`, for checks in a
 * headless browser.
 */
export function storyboardHtml(scene: Scene, manifest: SceneManifest): string {
  return storyboardPage(
    {
      title: scene.title,
      style: scene.style,
      shots: scene.shots.map((shot) => {
        const { environment, characters } = shotInputs(scene, shot);
        return { id: shot.id, prompt: shotPrompt(shot, environment ?? undefined, characters, scene.style) };
      }),
      beats: scene.beats.map((beat) => ({ ...beat, noCharacter: !beatInputs(scene, beat).speaker })),
    },
    manifest,
  );
}

/** The storyboard page from a manifest alone (its layout: see SceneLayout), for `render storyboard`. */
export function storyboardHtmlFromManifest(manifest: SceneManifest): string {
  if (!manifest.layout) throw new ManifestLayoutMissingError('the manifest');
  return storyboardPage(
    {
      title: manifest.title,
      style: manifest.style,
      shots: manifest.layout.shots.map((s) => ({ id: s.shot_id, prompt: s.prompt })),
      beats: manifest.layout.beats.map((b) => ({ id: b.beat_id, speaker: b.speaker, line: b.line, action: b.action, emotion: b.emotion, noCharacter: b.skipped === 'no character' })),
    },
    manifest,
  );
}

/** What the page shows of the scene. */
interface StoryboardView {
  title: string;
  style: string;
  shots: Array<{ id: string; prompt: string }>;
  beats: Array<{ id: string; speaker: string; line: string; action: string; emotion: string; noCharacter: boolean }>;
}

function storyboardPage(scene: StoryboardView, manifest: SceneManifest): string {
  const shots = new Map(manifest.shots.map((r) => [r.shot_id, r as unknown as Record<string, unknown>]));
  const beats = new Map<string, Record<string, unknown>>();
  for (const r of manifest.beats) if ('beat_id' in r) beats.set(r.beat_id, r as unknown as Record<string, unknown>);
  const parts: string[] = [];
  parts.push(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(scene.title)} — storyboard</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 70rem; padding: 0 1rem; color: #222; background: #fafaf7; }
h1 { margin-bottom: 0.2rem; } .style { color: #666; margin-top: 0; }
.shots { display: grid; grid-template-columns: repeat(auto-fill, minmax(20rem, 1fr)); gap: 1rem; }
figure { margin: 0; background: #fff; border: 1px solid #ddd; padding: 0.5rem; }
figure img, figure video { width: 100%; height: auto; display: block; background: #000; }
figcaption { font-size: 13px; color: #444; margin-top: 0.4rem; }
.beat { display: grid; grid-template-columns: 9rem 1fr; gap: 0.2rem 1rem; padding: 0.6rem 0; border-bottom: 1px solid #e5e5e0; }
.beat video { max-width: 24rem; } .speaker { font-weight: 600; } .skipped { color: #999; font-style: italic; }
</style>
</head>
<body>
<h1>${esc(scene.title)}</h1>
${scene.style ? `<p class="style">${esc(scene.style)}</p>` : ''}
<h2>Shots</h2>
<section class="shots">`);
  for (const shot of scene.shots) {
    const prompt = shot.prompt;
    const r = shots.get(shot.id);
    let media = '<p class="skipped">not rendered</p>';
    if (r) {
      const video = r.kind === 'video' && r.video_url ? embed(r.video_path, r.video_url) : undefined;
      const still = embed(r.still_path ?? r.path, r.still_url ?? r.url);
      if (video) media = `<video controls muted loop preload="auto" class="clip"${still ? ` poster="${still}"` : ''} src="${video}"></video>`;
      else if (still) media = `<img class="still" alt="${esc(prompt)}" src="${still}">`;
    }
    parts.push(`<figure id="shot-${esc(shot.id)}">${media}<figcaption><strong>${esc(shot.id)}</strong> — ${esc(prompt)}</figcaption></figure>`);
  }
  parts.push('</section>\n<h2>Beats</h2>\n<section class="beats">');
  for (const beat of scene.beats) {
    const r = beats.get(beat.id);
    const text = beat.line ? `“${esc(beat.line)}”` : beat.action ? `<em>${esc(beat.action)}</em>` : '';
    let media: string;
    if (beat.noCharacter) media = '<span class="skipped">skipped: no character</span>';
    else if (!beat.line && !beat.action) media = '<span class="skipped">skipped: empty beat</span>';
    else if (r && r.video_url) media = `<video controls preload="auto" class="talking" src="${embed(r.video_path, r.video_url)}"></video>`;
    else if (r && r.audio_url) media = `<audio controls preload="auto" class="speech" src="${embed(r.audio_path, r.audio_url)}"></audio>`;
    else media = beat.line ? '<span class="skipped">not rendered</span>' : '';
    parts.push(`<div class="beat" id="beat-${esc(beat.id)}"><span class="speaker">${esc(beat.speaker || '—')}</span><span class="line">${text}</span><span>${esc(beat.id)}${beat.emotion ? ` · ${esc(beat.emotion)}` : ''}</span><span>${media}</span></div>`);
  }
  parts.push(`</section>
<output id="storyboard-check" hidden></output>
<script>
(function () {
  var out = document.getElementById('storyboard-check');
  function count() {
    var imgs = Array.prototype.slice.call(document.images);
    var media = Array.prototype.slice.call(document.querySelectorAll('audio, video'));
    out.setAttribute('data-images', imgs.length);
    out.setAttribute('data-images-decoded', imgs.filter(function (i) { return i.complete && i.naturalWidth > 0; }).length);
    out.setAttribute('data-players', media.length);
    out.setAttribute('data-players-with-duration', media.filter(function (m) { return m.duration > 0; }).length);
  }
  document.querySelectorAll('audio, video').forEach(function (m) { m.addEventListener('loadedmetadata', count); m.addEventListener('error', count); });
  window.addEventListener('load', count);
  count();
})();
</script>
</body>
</html>
`);
  return parts.join('\n');
}

/** A data: URI of the local copy, else the URL itself (a page that needs the network). */
function embed(path: unknown, url: unknown): string {
  if (typeof path === 'string' && path && existsSync(path)) {
    const type = MEDIA_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
    return `data:${type};base64,${readFileSync(path).toString('base64')}`;
  }
  return typeof url === 'string' ? esc(url) : '';
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Writes the storyboard page, replacing the file only when it changed. True when written. */
export async function writeStoryboard(scene: Scene, manifest: SceneManifest, path: string): Promise<boolean> {
  const { writeIfChanged } = await import('./output-files.js');
  return writeIfChanged(path, storyboardHtml(scene, manifest));
}

/** Writes the storyboard page of a manifest (its layout), replacing the file only when it changed. */
export async function writeStoryboardFromManifest(manifest: SceneManifest, path: string): Promise<boolean> {
  const { writeIfChanged } = await import('./output-files.js');
  return writeIfChanged(path, storyboardHtmlFromManifest(manifest));
}

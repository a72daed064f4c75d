import { mediaLink } from './media-link.js';
import type { EditBeat, SceneEdit } from './scene-edit.js';

/**
 * The scene's lines as WebVTT: one cue per spoken beat at its place in the edit, the speaker as
 * a voice span (`<v Maren>Forty years…</v>`). A NOTE block at the top names the media the cues
 * are timed to — the animatic when there is one, else each beat's media — linked as in the
 * timelines (relative below the file's folder, else file:// URLs).
 */
export function vttDocument(edit: SceneEdit, vttPath: string, animaticPath?: string): string {
  const beats = spokenBeats(edit);
  const media = animaticPath ? [animaticPath] : beats.flatMap((b) => [b.video?.path ?? b.audio?.path ?? []].flat());
  const lines = ['WEBVTT', ''];
  if (media.length > 0) lines.push('NOTE', ...media.map((path) => `media: ${mediaLink(path, vttPath)}`), '');
  for (const beat of beats) {
    lines.push(beat.beat_id, `${timestamp(beat.start.v / beat.start.r)} --> ${timestamp((beat.start.v + beat.duration.v) / beat.start.r)}`);
    lines.push(`<v ${escapeVoice(beat.speaker)}>${escapeText(beat.line)}</v>`, '');
  }
  return lines.join('\n');
}

/** The beats with a line and a time on screen, in edit order. */
export function spokenBeats(edit: SceneEdit): EditBeat[] {
  return [...edit.shots.flatMap((s) => s.beats), ...edit.beats].filter((b) => b.line !== '' && b.duration.v > 0);
}

/** `hh:mm:ss.ttt`, to the nearest millisecond. */
export function timestamp(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}`;
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r?\n/g, ' ');
}

/** A voice annotation ends at `>` and may not hold a line break. */
function escapeVoice(name: string): string {
  return escapeText(name || 'unknown');
}

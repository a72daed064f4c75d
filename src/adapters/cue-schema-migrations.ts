import { registerMigration } from '../schemas/migrations.js';
import { escapeSrtText, srtPlainText } from './srt/srt-markup.js';
import { webVttPayloadOf, webVttPlainText, webVttVoice } from './webvtt/cue-text.js';

/**
 * The migrations of the SubRip and WebVTT cue bodies from v1, whose `text` held the markup as
 * written, to v2, whose `text` is the plain text a person reads with the markup kept in `raw`
 * when the text written back would not give it (exactly what the v2 readers make of the same
 * file). The writers read v1 bodies as they are; these are for `migrate()`.
 */
let registered = false;

export function registerCueSchemaMigrations(): void {
  if (registered) return;
  registered = true;
  registerMigration('srt-cue', 1, 2, srtCueV1ToV2);
  registerMigration('webvtt-cue', 1, 2, webVttCueV1ToV2);
}

function srtCueV1ToV2(body: Record<string, unknown>): Record<string, unknown> {
  const { text: raw, ...rest } = body;
  if (typeof raw !== 'string') return body;
  const text = srtPlainText(raw);
  return escapeSrtText(text) === raw ? { text, ...rest } : { text, raw, ...rest };
}

function webVttCueV1ToV2(body: Record<string, unknown>): Record<string, unknown> {
  const { text: raw, speaker: _speaker, ...rest } = body;
  if (typeof raw !== 'string') return body;
  const text = webVttPlainText(raw);
  const speaker = webVttVoice(raw);
  const kept = webVttPayloadOf(text, speaker) === raw ? { text } : { text, raw };
  return speaker === null ? { ...kept, ...rest } : { ...kept, ...rest, speaker };
}

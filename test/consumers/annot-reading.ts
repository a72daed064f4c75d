import type { Finding } from '../../src/adapters/finding.js';
import { loadDocument } from '../../src/adapters/load-document.js';
import { loadIntoStore } from '../../src/adapters/load-into-store.js';
import { plainCueText } from '../../src/adapters/plain-cue-text.js';
import { getAdapter, inferFormat, readHead } from '../../src/adapters/registry.js';
import { cueTextTokens } from '../../src/adapters/webvtt/cue-text.js';
import type { Annotation, MediaRef } from '../../src/model/annotation.js';
import { convertFile } from '../../src/service/convert-file.js';
import { MemoryStore } from '../../src/store/memory.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { collect } from '../store/fixtures.js';

/**
 * What a file holds as annot reads it, in the terms a consumer's reading is compared in: each
 * timed annotation's times in seconds, its plain text, its speaker and its tier, in time order
 * (ties in the file's order, as the flat writers write them).
 */
export interface ReadCue {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly speaker: string | null;
  readonly tier: string;
  /** A SubStation comment event, which players never show. */
  readonly comment: boolean;
  /** The source wrote the end before the start (annot reads the cue as a point and writes the end back as written). */
  readonly endBeforeStart: boolean;
  /** The text with a WebVTT cue's ruby text where it stands (players without ruby show it inline); else the text. */
  readonly textWithRuby: string;
}

export async function annotReading(path: string, format?: string, findings: Finding[] = []): Promise<ReadCue[]> {
  const store = new MemoryStore();
  const adapter = format === undefined ? inferFormat({ path, head: readHead(path) }) : getAdapter(format);
  const codec = await adapter.codec();
  await loadIntoStore(await loadDocument(codec, path, { sourceName: path, now: RationalTime.now(1000), report: (finding) => findings.push(finding) }), store);
  const timed = ((await collect(store.all())) as Annotation[]).filter((annotation) => annotation.reference.kind === 'media');
  const cues = timed.map((annotation): ReadCue => {
    const { interval } = annotation.reference as MediaRef;
    const body = annotation.body as Record<string, unknown>;
    const speaker = typeof body.speaker === 'string' ? body.speaker : null;
    const text = plainCueText(annotation) ?? '';
    const textWithRuby = typeof body.raw === 'string' && body.raw.includes('<rt') ? rubyInline(body.raw) : text;
    return { start: interval.start.toSeconds(), end: interval.end.toSeconds(), text, speaker, tier: annotation.tier, comment: body.comment === true, endBeforeStart: typeof body.written_end === 'string', textWithRuby };
  });
  return cues.map((cue, index) => ({ cue, index })).sort((a, b) => a.cue.start - b.cue.start || a.index - b.index).map(({ cue }) => cue);
}

/** Every text token of a WebVTT payload, ruby text included. */
function rubyInline(payload: string): string {
  let text = '';
  for (const token of cueTextTokens(payload)) if (token.kind === 'text') text += token.text;
  return text;
}

/** Converts a file with annot's own service, as `annot convert` does; throws what annot refuses with. */
export async function annotConvert(input: string, output: string, to: string): Promise<void> {
  await convertFile({ input, output, to, warn: () => undefined, report: () => undefined });
}

/** Whether annot reads the file with nothing to say about it: no finding, not even a warning (a well-formed file). */
export async function annotReadsCleanly(path: string): Promise<boolean> {
  const findings: Finding[] = [];
  try {
    await annotReading(path, undefined, findings);
    return findings.length === 0;
  } catch {
    return false;
  }
}

/** Whether annot reads the file (a deliberately broken or unsupported fixture is no input for a consumer test). */
export async function annotReads(path: string): Promise<boolean> {
  try {
    await annotReading(path);
    return true;
  } catch {
    return false;
  }
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { annotationRef, makeAnnotation, mediaRef, type Annotation } from '../../src/model/annotation.js';
import { makeTier } from '../../src/model/tier.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';

export const SAMPLE_ASSET = 'talk.wav';

/** A temporary directory, removed by the returned cleanup. */
export function tempDir(prefix = 'annot-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function word(text: string, start: string, end: string, extra: Partial<{ id: string; confidence: number }> = {}): Annotation {
  return makeAnnotation({
    id: extra.id,
    tier: 'words',
    reference: mediaRef(SAMPLE_ASSET, TimeInterval.fromSeconds(start, end, 1000)),
    body: { text },
    body_schema_uri: 'annot://schema/word/v1',
    provenance: { was_generated_by: 'user:test', generated_at_time: new RationalTime(1_700_000_000_000, 1000) },
    confidence: extra.confidence ?? null,
  });
}

/**
 * A small, valid `.annot` file: a `words` tier of five words between 0 and 12.5 s (one at a
 * 48 kHz rate) and a symbolic note referring to the first word.
 */
export async function writeSampleAnnot(path: string): Promise<Annotation[]> {
  const words = [
    word('hello', '0', '0.5', { id: '00000000-0000-4000-8000-000000000001' }),
    word('world', '0.5', '1.25', { id: '00000000-0000-4000-8000-000000000002', confidence: 0.75 }),
    word('this', '5', '6', { id: '00000000-0000-4000-8000-000000000003' }),
    word('is', '10', '11', { id: '00000000-0000-4000-8000-000000000004' }),
    makeAnnotation({
      id: '00000000-0000-4000-8000-000000000005',
      tier: 'words',
      reference: mediaRef(SAMPLE_ASSET, new TimeInterval(new RationalTime(552000, 48000), new RationalTime(600000, 48000))),
      body: { text: 'annot' },
      body_schema_uri: 'annot://schema/word/v1',
      provenance: { was_generated_by: 'user:test', generated_at_time: new RationalTime(1_700_000_000_000, 1000) },
    }),
  ];
  const note = makeAnnotation({
    id: '00000000-0000-4000-8000-000000000006',
    tier: 'notes',
    reference: annotationRef(words[0].id),
    body: { text: 'greeting' },
    body_schema_uri: 'annot://schema/label/v1',
    provenance: { was_generated_by: 'user:test', generated_at_time: new RationalTime(1_700_000_000_000, 1000) },
  });
  const store = await SqliteStore.open(path, { create: true });
  try {
    await store.addTier(makeTier({ name: 'words' }));
    await store.addTier(makeTier({ name: 'notes' }));
    await store.addMany([...words, note]);
  } finally {
    await store.close();
  }
  return [...words, note];
}

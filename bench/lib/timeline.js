// The annotation timeline the store benchmarks share, so the SQLite and PostgreSQL figures are
// measured on the same data.
import { randomUUID } from 'node:crypto';
import { makeAnnotation, mediaRef } from '../../dist/src/model/annotation.js';
import { RationalTime } from '../../dist/src/time/rational-time.js';
import { TimeInterval } from '../../dist/src/time/time-interval.js';

export const ASSET = 'sha256:' + 'ab'.repeat(32);
const GENERATED_AT = new RationalTime(1_700_000_000_000, 1000);

/** Seconds of media `count` annotations of the timeline cover. */
export const spanSeconds = (count) => count * 0.09;

/**
 * A transcript-shaped timeline at about 11 annotations a second: words of 150-390 ms every 100 ms
 * (ticks at 48 kHz), a 3-second line every tenth annotation (ms), a 60-second section every
 * thousandth. So a 10-second window holds about 100 annotations, across three duration scales.
 */
export function* timeline(count) {
  let ms = 0;
  for (let i = 0; i < count; i++) {
    let tier;
    let interval;
    if (i % 1000 === 1) {
      tier = 'sections';
      interval = new TimeInterval(new RationalTime(ms, 1000), new RationalTime(ms + 60_000, 1000));
    } else if (i % 10 === 0) {
      tier = 'lines';
      interval = new TimeInterval(new RationalTime(ms, 1000), new RationalTime(ms + 3000, 1000));
    } else {
      tier = 'words';
      interval = new TimeInterval(new RationalTime(ms * 48, 48000), new RationalTime((ms + 150 + (i % 7) * 40) * 48, 48000));
      ms += 100;
    }
    yield makeAnnotation({
      id: randomUUID(),
      tier,
      reference: mediaRef(ASSET, interval),
      body: { text: `w${i % 5000}` },
      body_schema_uri: 'annot://schema/label/v1',
      provenance: { was_generated_by: 'user:bench', generated_at_time: GENERATED_AT },
      confidence: i % 3 === 0 ? 0.9 : null,
    });
  }
}

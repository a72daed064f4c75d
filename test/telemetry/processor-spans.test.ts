import { makeAnnotation, mediaRef } from '../../src/model/annotation.js';
import { makeTier } from '../../src/model/tier.js';
import { runProcessor } from '../../src/processors/registry.js';
import { AnnotationService } from '../../src/service/annotation-service.js';
import { MemoryStore } from '../../src/store/memory.js';
import { ATTR_PROCESSOR } from '../../src/telemetry/attributes.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { recordSpans } from './span-recorder.js';

describe('processor spans', () => {
  it('wraps a processor run in "processor <name>" with its writes as store.apply children', async () => {
    const store = new MemoryStore();
    await store.addTier(makeTier({ name: 'words' }));
    await store.add(
      makeAnnotation({
        tier: 'words',
        reference: mediaRef('a.wav', TimeInterval.fromSeconds('0', '1', 1000)),
        body: { text: 'maybe' },
        body_schema_uri: 'annot://schema/word/v1',
        provenance: { was_generated_by: 'agent:asr', generated_at_time: new RationalTime(1, 1000) },
        confidence: 0.2,
      }),
    );
    const recorder = recordSpans();
    try {
      await runProcessor('low_confidence_review', new AnnotationService(store), { threshold: 0.5 });
    } finally {
      await recorder.stop();
    }
    const run = recorder.one('processor low_confidence_review');
    expect(run.attributes[ATTR_PROCESSOR]).toBe('low_confidence_review');
    expect(recorder.childrenOf(run).map((span) => span.name)).toContain('store.apply');
  });
});

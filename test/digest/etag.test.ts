import { annotationEtag, ifMatchSatisfied } from '../../src/digest/etag.js';
import { makeAnnotation } from '../../src/model/annotation.js';
import { annotationFromWire, annotationToWire } from '../../src/model/wire.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { sampleAnnotation } from '../model/arbitraries.js';

describe('annotationEtag', () => {
  const a = sampleAnnotation();

  it('is a quoted strong ETag of 32 hex digits', () => {
    expect(annotationEtag(a)).toMatch(/^"[0-9a-f]{32}"$/);
  });

  it('is stable across a wire round trip', () => {
    expect(annotationEtag(annotationFromWire(JSON.parse(JSON.stringify(annotationToWire(a)))))).toBe(annotationEtag(a));
  });

  it('changes when only the provenance or only the id changes', () => {
    const later = makeAnnotation({ ...a, provenance: { ...a.provenance, generated_at_time: new RationalTime(1, 1000) } });
    const renamed = makeAnnotation({ ...a, id: '11111111-2222-3333-4444-555555555555' });
    expect(annotationEtag(later)).not.toBe(annotationEtag(a));
    expect(annotationEtag(renamed)).not.toBe(annotationEtag(a));
  });
});

describe('ifMatchSatisfied', () => {
  const etag = '"0123456789abcdef0123456789abcdef"';

  it('matches the exact tag, a list holding it, and *', () => {
    expect(ifMatchSatisfied(etag, etag)).toBe(true);
    expect(ifMatchSatisfied(`"other", ${etag}`, etag)).toBe(true);
    expect(ifMatchSatisfied(' * ', etag)).toBe(true);
  });

  it('refuses other tags, weak tags and unquoted values', () => {
    expect(ifMatchSatisfied('"other"', etag)).toBe(false);
    expect(ifMatchSatisfied(`W/${etag}`, etag)).toBe(false);
    expect(ifMatchSatisfied(etag.slice(1, -1), etag)).toBe(false);
  });
});

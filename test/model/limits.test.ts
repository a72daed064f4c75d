import { readFileSync } from 'node:fs';
import { trustedAnnotation } from '../../src/model/annotation.js';
import { InvalidAnnotationError, InvalidTierError } from '../../src/model/errors.js';
import { LIMITS, jsonLengthPast } from '../../src/model/limits.js';
import { makeTier } from '../../src/model/tier.js';
import { AnnotationService } from '../../src/service/annotation-service.js';
import { MemoryStore } from '../../src/store/memory.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { sampleAnnotation } from './arbitraries.js';

const at = (n: number, char = 'x') => char.repeat(n);

describe('the limits on names and texts', () => {
  it('makeTier takes a name and a parent up to the limit, and refuses one character more', () => {
    expect(makeTier({ name: at(LIMITS.nameChars) }).name).toHaveLength(LIMITS.nameChars);
    expect(() => makeTier({ name: at(LIMITS.nameChars + 1) })).toThrow(new InvalidTierError('name', 'a tier name of at most 256 characters, got 257'));
    expect(() => makeTier({ name: 'w', stereotype: 'INCLUDED_IN', parent: at(5 * 1024 * 1024) })).toThrow(InvalidTierError);
  });

  it('makeAnnotation refuses a tier name, an asset id, an agent or a body past its limit', () => {
    expect(() => sampleAnnotation({ tier: at(LIMITS.nameChars + 1) })).toThrow(/^tier: a tier name of at most 256 characters/);
    expect(() => sampleAnnotation({ body: { text: at(LIMITS.bodyChars) } })).toThrow(new InvalidAnnotationError('body', 'at most 1048576 characters as JSON text (1 MiB); this body is longer'));
    expect(sampleAnnotation({ body: { text: at(LIMITS.bodyChars - 20) } }).body.text).toHaveLength(LIMITS.bodyChars - 20);
    expect(() => sampleAnnotation({ provenance: { was_generated_by: at(LIMITS.idChars + 1), generated_at_time: RationalTime.now(1000) } })).toThrow(/^provenance\.was_generated_by: at most 4096/);
    const base = sampleAnnotation();
    expect(() => sampleAnnotation({ reference: { ...base.reference, asset_id: at(LIMITS.idChars + 1) } as never })).toThrow(/^reference\.asset_id: an asset id of at most 4096/);
  });

  it('measures a body as JSON text, and stops measuring once past the limit', () => {
    const body = { text: 'hé', list: [1, true, null, { k: 'v' }] };
    expect(jsonLengthPast(body, JSON.stringify(body).length)).toBe(false);
    expect(jsonLengthPast(body, JSON.stringify(body).length - 3)).toBe(true);
    const huge = { items: Array.from({ length: 2_000_000 }, () => 'abc') };
    expect(jsonLengthPast(huge, 1000)).toBe(true);
  });

  it('the service refuses what a caller built without the constructors: a trusted annotation, a meta entry', async () => {
    const service = new AnnotationService(new MemoryStore());
    await service.apply([{ kind: 'add_tier', tier: makeTier({ name: 'words' }) }], 'user:test');
    const base = sampleAnnotation();
    const trusted = trustedAnnotation('words', base.reference, { text: at(LIMITS.bodyChars + 1) }, base.body_schema_uri, base.provenance);
    await expect(service.apply([{ kind: 'add_annotation', annotation: trusted }], 'user:test')).rejects.toThrow(/^annotation [0-9a-f-]+: body: at most 1048576/);
    await expect(service.setMeta(at(LIMITS.nameChars + 1, 'k'), 'v', 'user:test')).rejects.toThrow(/^meta key "k{40}…": at most 256 characters, got 257$/);
    await expect(service.setMeta('k', at(LIMITS.metaValueChars + 1), 'user:test')).rejects.toThrow(/^meta value for "k": at most 1048576 characters/);
    expect(await service.latestClock()).toBe(1);
  });

  it('the wire schemas state the same numbers', () => {
    const tier = JSON.parse(readFileSync('schemas/tier.json', 'utf8'));
    expect(tier.properties.name.maxLength).toBe(LIMITS.nameChars);
    expect(tier.properties.parent.maxLength).toBe(LIMITS.nameChars);
    const annotation = JSON.parse(readFileSync('schemas/annotation.json', 'utf8'));
    expect(annotation.properties.tier.maxLength).toBe(LIMITS.nameChars);
    expect(annotation.$defs.media_ref.properties.asset_id.maxLength).toBe(LIMITS.idChars);
    for (const key of ['was_generated_by', 'was_attributed_to']) expect(annotation.$defs.provenance.properties[key].maxLength).toBe(LIMITS.idChars);
    expect(annotation.$defs.provenance.properties.was_derived_from.items.maxLength).toBe(LIMITS.idChars);
  });
});

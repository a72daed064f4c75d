import { InvalidTierError } from '../../src/model/errors.js';
import { makeTier, TIER_STEREOTYPES, TierStereotype } from '../../src/model/tier.js';

describe('makeTier', () => {
  it('defaults to an independent NONE tier with no parent and empty metadata', () => {
    const tier = makeTier({ name: 'words' });
    expect(tier).toEqual({ name: 'words', stereotype: 'NONE', parent: null, metadata: {} });
    expect(Object.isFrozen(tier)).toBe(true);
  });

  it('knows the five ELAN stereotypes by name', () => {
    expect(TIER_STEREOTYPES).toEqual(['NONE', 'TIME_SUBDIVISION', 'INCLUDED_IN', 'SYMBOLIC_SUBDIVISION', 'SYMBOLIC_ASSOCIATION']);
    expect(TierStereotype.INCLUDED_IN).toBe('INCLUDED_IN');
  });

  it('requires a parent for every stereotype but NONE, and forbids one for NONE', () => {
    for (const stereotype of TIER_STEREOTYPES.filter((s) => s !== 'NONE')) {
      expect(() => makeTier({ name: 'w', stereotype })).toThrow(InvalidTierError);
      expect(makeTier({ name: 'w', stereotype, parent: 'p' }).parent).toBe('p');
    }
    expect(() => makeTier({ name: 'w', parent: 'p' })).toThrow('parent: a NONE tier is independent');
  });

  it('rejects an empty name, an unknown stereotype, a self parent and non-JSON metadata', () => {
    expect(() => makeTier({ name: '' })).toThrow('name:');
    expect(() => makeTier({ name: 'a', stereotype: 'SUB' as TierStereotype })).toThrow('stereotype: expected one of');
    expect(() => makeTier({ name: 'a', stereotype: 'INCLUDED_IN', parent: 'a' })).toThrow('cannot be its own parent');
    expect(() => makeTier({ name: 'a', metadata: { when: new Date() } })).toThrow('metadata["when"]');
  });

  it('copies metadata in so the caller cannot change the tier afterwards', () => {
    const metadata = { participant: 'A' };
    const tier = makeTier({ name: 'a', metadata });
    metadata.participant = 'B';
    expect(tier.metadata).toEqual({ participant: 'A' });
  });
});

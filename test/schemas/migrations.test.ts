import fc from 'fast-check';
import { MigrationError, MigrationFailedError, MissingMigrationError } from '../../src/schemas/errors.js';
import { hasMigrationPath, migrate, registerMigration } from '../../src/schemas/migrations.js';
import { validateBody } from '../../src/schemas/registry.js';

describe('migrate', () => {
  it('migrates named-entity v1 to v2 with the built-in step, and the result validates', () => {
    const v2 = migrate({ type: 'PER', text: 'Alice' }, 'annot://schema/named-entity/v1', 'annot://schema/named-entity/v2');
    expect(v2).toEqual({ text: 'Alice', entity_type: 'PER' });
    expect(validateBody('annot://schema/named-entity/v2', v2).valid).toBe(true);
  });

  it('does not modify its input', () => {
    const body = { type: 'ORG', text: 'ACME' };
    migrate(body, 'annot://schema/named-entity/v1', 'annot://schema/named-entity/v2');
    expect(body).toEqual({ type: 'ORG', text: 'ACME' });
  });

  it('chains single steps v1 → v2 → v3 → v4 and equals applying them one by one', () => {
    registerMigration('test-counter', 1, 2, (b) => ({ ...b, n: (b.n as number) + 1, trail: [...(b.trail as string[]), 'v2'] }));
    registerMigration('test-counter', 2, 3, (b) => ({ ...b, n: (b.n as number) * 2, trail: [...(b.trail as string[]), 'v3'] }));
    registerMigration('test-counter', 3, 4, (b) => ({ ...b, n: (b.n as number) - 3, trail: [...(b.trail as string[]), 'v4'] }));
    const uri = (v: number): string => `annot://schema/test-counter/v${v}`;
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 3 }), (n, from, span) => {
        const to = Math.min(4, from + span);
        const direct = migrate({ n, trail: [] }, uri(from), uri(to));
        let stepwise: Record<string, unknown> = { n, trail: [] };
        for (let v = from; v < to; v++) stepwise = migrate(stepwise, uri(v), uri(v + 1));
        expect(direct).toEqual(stepwise);
        expect(direct.trail).toHaveLength(to - from);
      }),
    );
  });

  it('names the missing step of a chain', () => {
    registerMigration('test-gap', 1, 2, (b) => b);
    registerMigration('test-gap', 3, 4, (b) => b);
    expect(hasMigrationPath('test-gap', 1, 4)).toBe(false);
    expect(() => migrate({}, 'annot://schema/test-gap/v1', 'annot://schema/test-gap/v4')).toThrow(MissingMigrationError);
    expect(() => migrate({}, 'annot://schema/test-gap/v1', 'annot://schema/test-gap/v4')).toThrow('no migration registered for test-gap v2 -> v3');
  });

  it('returns a copy for the same version and refuses backwards and cross-schema requests', () => {
    const body = { text: 'a', type: 'X' };
    const same = migrate(body, 'annot://schema/named-entity/v1', 'annot://schema/named-entity/v1');
    expect(same).toEqual(body);
    expect(same).not.toBe(body);
    expect(() => migrate(body, 'annot://schema/named-entity/v2', 'annot://schema/named-entity/v1')).toThrow(MigrationError);
    expect(() => migrate(body, 'annot://schema/word/v1', 'annot://schema/named-entity/v2')).toThrow('across schemas');
  });

  it('refuses steps that are not single, and a second function for one step without replace', () => {
    expect(() => registerMigration('test-jump', 1, 3, (b) => b)).toThrow('single steps');
    registerMigration('test-once', 1, 2, (b) => b);
    expect(() => registerMigration('test-once', 1, 2, (b) => ({ ...b }))).toThrow('already registered');
    expect(() => registerMigration('test-once', 1, 2, (b) => ({ ...b }), { replace: true })).not.toThrow();
  });

  it('wraps a failing step, and refuses a result its registered target schema rejects', () => {
    registerMigration('test-broken', 1, 2, () => {
      throw new Error('boom');
    });
    expect(() => migrate({}, 'annot://schema/test-broken/v1', 'annot://schema/test-broken/v2')).toThrow(MigrationFailedError);
    expect(() => migrate({}, 'annot://schema/test-broken/v1', 'annot://schema/test-broken/v2')).toThrow('test-broken v1 -> v2 failed: boom');
    expect(() => migrate({ text: 'x' }, 'annot://schema/named-entity/v1', 'annot://schema/named-entity/v2')).toThrow('body.entity_type');
  });
});

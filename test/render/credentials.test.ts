import { currentFalKey, hasBoundCredentials, withCredentials } from '../../src/render/credentials.js';
import { withEnvKey } from '../support/render-env.js';

describe('scoped credentials', () => {
  it('uses FAL_KEY outside any scope and the bound key inside one', async () => {
    await withEnvKey('operator', async () => {
      expect(currentFalKey()).toBe('operator');
      expect(hasBoundCredentials()).toBe(false);
      withCredentials({ falKey: 'user' }, () => {
        expect(currentFalKey()).toBe('user');
        expect(hasBoundCredentials()).toBe(true);
      });
      expect(currentFalKey()).toBe('operator');
    });
  });

  it('nests scopes and restores the outer key on exit', () => {
    withCredentials({ falKey: 'outer' }, () => {
      withCredentials({ falKey: 'inner' }, () => expect(currentFalKey()).toBe('inner'));
      expect(currentFalKey()).toBe('outer');
    });
  });

  it('leaves the binding in place for an empty key', () => {
    withCredentials({ falKey: 'outer' }, () => withCredentials({ falKey: '' }, () => expect(currentFalKey()).toBe('outer')));
  });

  it('follows awaits, timers and concurrent tasks started inside the scope', async () => {
    const seen = await withCredentials({ falKey: 'k1' }, () =>
      Promise.all([
        (async () => {
          await new Promise((r) => setTimeout(r, 5));
          return currentFalKey();
        })(),
        new Promise((resolve) => setImmediate(() => resolve(currentFalKey()))),
      ]),
    );
    expect(seen).toEqual(['k1', 'k1']);
  });

  it('has no key when neither a scope nor FAL_KEY provides one', async () => {
    await withEnvKey(undefined, async () => expect(currentFalKey()).toBeUndefined());
  });
});

import { canonicalJson } from '../../src/json/canonical-json.js';
import { NonStringBodyKeyError, NotJsonError } from '../../src/json/errors.js';

describe('canonicalJson', () => {
  it('sorts keys, drops whitespace and prints shortest numbers', () => {
    expect(canonicalJson({ b: [1, 2.5, -0], a: { d: 'x', c: null } })).toBe('{"a":{"c":null,"d":"x"},"b":[1,2.5,0]}');
  });

  it('refuses a sparse array instead of printing invalid JSON', () => {
    // eslint-disable-next-line no-sparse-arrays
    expect(() => canonicalJson({ list: [1, , 3] }, 'body')).toThrow(NotJsonError);
    // eslint-disable-next-line no-sparse-arrays
    expect(() => canonicalJson({ list: [1, , 3] }, 'body')).toThrow('body["list"][1]');
  });

  it('refuses a symbol key rather than dropping it silently', () => {
    expect(() => canonicalJson({ [Symbol('k')]: 1 }, 'body')).toThrow(NonStringBodyKeyError);
  });
});

import { canonicalJson } from '../../src/json/canonical-json.js';
import { NonStringBodyKeyError, NotJsonError } from '../../src/json/errors.js';

describe('canonicalJson', () => {
  it('sorts keys, drops whitespace and prints shortest numbers', () => {
    expect(canonicalJson({ b: [1, 2.5, -0], a: { d: 'x', c: null } })).toBe('{"a":{"c":null,"d":"x"},"b":[1,2.5,0]}');
  });

  it('sorts keys by UTF-16 code unit as RFC 8785 says, not by code point (keys outside the BMP)', () => {
    // U+1F600 is the surrogate pair D83D DE00: by code unit it sorts before U+FB01 (D83D < FB01),
    // by code point after it (1F600 > FB01).
    expect(canonicalJson({ '\uFB01': 1, '\u{1F600}': 2 })).toBe('{"\u{1F600}":2,"\uFB01":1}');
    // RFC 8785 section 3.2.3's own example, keys given in its input order.
    const rfc = { '\u20ac': 'Euro Sign', '\r': 'Carriage Return', '\ufb33': 'Hebrew Letter Dalet With Dagesh', '1': 'One', '\ud83d\ude00': 'Emoji: Grinning Face', '\u0080': 'Control', '\u00f6': 'Latin Small Letter O With Diaeresis' };
    const order = [...canonicalJson(rfc).matchAll(/":"([^"]+)"/g)].map((match) => match[1]);
    expect(order).toEqual(['Carriage Return', 'One', 'Control', 'Latin Small Letter O With Diaeresis', 'Euro Sign', 'Emoji: Grinning Face', 'Hebrew Letter Dalet With Dagesh']);
  });

  it('prints numbers in ECMAScript Number serialization (RFC 8785 section 3.2.2.3 examples)', () => {
    expect(canonicalJson({ numbers: [Number("333333333.33333329"), 1e30, 4.5, 2e-3, 0.000000000000000000000000001] })).toBe('{"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27]}');
    expect(canonicalJson([1e21, 1e-7, 0.000001, -0, Number("9007199254740993"), 5e-324])).toBe('[1e+21,1e-7,0.000001,0,9007199254740992,5e-324]');
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

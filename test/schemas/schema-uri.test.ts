import fc from 'fast-check';
import { InvalidBodySchemaUriError } from '../../src/schemas/errors.js';
import { bodySchemaUri, isBodySchemaUri, parseBodySchemaUri } from '../../src/schemas/schema-uri.js';

describe('body schema URIs', () => {
  it('parse into name and version', () => {
    expect(parseBodySchemaUri('annot://schema/named-entity/v2')).toEqual({ name: 'named-entity', version: 2 });
  });

  it('round-trip between (name, version) and the URI', () => {
    const name = fc.array(fc.stringMatching(/^[a-z0-9]{1,5}$/), { minLength: 1, maxLength: 3 }).map((parts) => parts.join('-'));
    fc.assert(
      fc.property(name, fc.integer({ min: 1, max: 10_000 }), (n, v) => {
        expect(parseBodySchemaUri(bodySchemaUri(n, v))).toEqual({ name: n, version: v });
      }),
    );
  });

  it.each(['annot://schema/word/v0', 'annot://schema/word/v01', 'annot://schema/-word/v1', 'annot://schema/wo--rd/v1', 'annot://schema/word/V1', 'annot://schema/word/v1/', 'http://schema/word/v1'])(
    'rejects %s',
    (uri) => {
      expect(isBodySchemaUri(uri)).toBe(false);
      expect(() => parseBodySchemaUri(uri)).toThrow(InvalidBodySchemaUriError);
    },
  );

  it('refuses to make a URI from a bad name or version', () => {
    expect(() => bodySchemaUri('Word', 1)).toThrow(InvalidBodySchemaUriError);
    expect(() => bodySchemaUri('word', 0)).toThrow(InvalidBodySchemaUriError);
  });
});

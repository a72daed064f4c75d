import { asciiWireJsonArrayBytes, wireJsonArray } from '../../src/model/wire-json.js';

describe('asciiWireJsonArrayBytes', () => {
  it.each([[[]], [['{"a":1}']], [['{"a":1}', '{"b":"x y"}', '[]']]])('gives the UTF-8 bytes of wireJsonArray for ASCII items %j', (items: string[]) => {
    expect(asciiWireJsonArrayBytes(items)).toEqual(Buffer.from(wireJsonArray(items), 'utf8'));
  });
});

import { wireJsonArray, wireJsonArrayBytes } from '../../src/model/wire-json.js';

describe('wireJsonArrayBytes', () => {
  it.each([[[]], [['{"a":1}']], [['{"a":1}', '{"b":"x y"}', '[]']], [['{"t":"ünï 😀"}', '{"u":"\\u2028"}']]])('gives the UTF-8 bytes of wireJsonArray for the items\' UTF-8 bytes %j', (items: string[]) => {
    expect(wireJsonArrayBytes(items.map((item) => Buffer.from(item, 'utf8')))).toEqual(Buffer.from(wireJsonArray(items), 'utf8'));
  });

  it('writes into the buffer it is given, exactly filled', () => {
    const lent = Buffer.alloc(64, 0x2a);
    const body = wireJsonArrayBytes([Buffer.from('{"a":1}'), Buffer.from('{}')], (length) => lent.subarray(0, length));
    expect(body.buffer).toBe(lent.buffer);
    expect(body.toString()).toBe('[{"a":1},{}]');
  });
});

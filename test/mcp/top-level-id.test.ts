import { TopLevelIdScanner } from '../../src/mcp/top-level-id.js';

/** The id found in `text` fed in pieces of `size` characters. */
function idOf(text: string, size = 7): unknown {
  const scanner = new TopLevelIdScanner();
  for (let at = 0; at < text.length; at += size) scanner.feed(Buffer.from(text.slice(at, at + size)));
  return scanner.id;
}

describe('TopLevelIdScanner: the id of a message read in pieces, without keeping it', () => {
  it.each([
    ['a number id first', '{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{}}', 77],
    ['a string id after big params', `{"jsonrpc":"2.0","method":"x","params":{"text":"${'a'.repeat(5000)}\\"id\\": 9"},"id":"req-1"}`, 'req-1'],
    ['an id inside params only', '{"jsonrpc":"2.0","method":"x","params":{"id":5}}', null],
    ['a string id with escapes', '{"id":"a\\"b\\u00e9"}', 'a"bé'],
    ['spaces around the id', '{ "id" :  12 , "method": "m"}', 12],
    ['an id that is not a string or number', '{"id":{"x":1},"method":"m"}', null],
    ['a null id', '{"id":null}', null],
    ['the last of two ids', '{"id":1,"id":2}', 2],
    ['not an object', '["id", 3]', null],
    ['a key ending in id', '{"xid":4,"method":"m"}', null],
    ['non-ASCII around the id', '{"params":{"t":"héllo wörld"},"id":"ünï"}', 'ünï'],
  ])('%s', (_what, text, id) => {
    expect(idOf(text)).toEqual(id);
    expect(idOf(text, 1)).toEqual(id);
    expect(idOf(text, text.length)).toEqual(id);
  });
});

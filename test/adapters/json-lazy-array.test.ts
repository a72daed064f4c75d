import { describe, expect, it } from '@jest/globals';
import { FormatParseError, InputTooDeepError } from '../../src/adapters/errors.js';
import { LazyJsonArray, MAX_JSON_DEPTH, parseJson } from '../../src/adapters/json-text.js';

const itemsAt = (key: string) => (path: readonly (string | number)[]) => path.length === 1 && path[0] === key;

describe('parseJson with lazy arrays', () => {
  it('gives the same items, one at a time, as the plain parse, and every iteration gives them again', () => {
    const text = '{"a": 1, "list": [{"x": [1, 2]}, "s\\u00e9", null, -2.5e3, [[]]], "z": {"list": [1]}}';
    const plain = parseJson(text, 'f.json') as Record<string, unknown>;
    const lazy = parseJson(text, 'f.json', 'refuse', MAX_JSON_DEPTH, itemsAt('list')) as Record<string, unknown>;
    expect(lazy.list).toBeInstanceOf(LazyJsonArray);
    const list = lazy.list as LazyJsonArray;
    expect(list.length).toBe(5);
    expect([...list]).toEqual(plain.list);
    expect([...list]).toEqual(plain.list);
    // Only the array at the path asked for is lazy.
    expect((lazy.z as Record<string, unknown>).list).toEqual([1]);
    expect([...(parseJson('{"list": [ ]}', 'f.json', 'refuse', MAX_JSON_DEPTH, itemsAt('list')) as { list: LazyJsonArray }).list]).toEqual([]);
  });

  it('nests: a lazy array inside the items of another is lazy too when the path says so', () => {
    const text = '[{"r": [1, 2, 3]}, {"r": []}]';
    const test = (path: readonly (string | number)[]) => path.length === 0 || (path.length === 2 && path[1] === 'r');
    const tasks = [...(parseJson(text, 'f.json', 'refuse', MAX_JSON_DEPTH, test) as LazyJsonArray)] as Array<{ r: LazyJsonArray }>;
    expect(tasks.map((task) => [...task.r])).toEqual([[1, 2, 3], []]);
  });

  it('refuses malformed items of a lazy array with the message and position of the plain parse', () => {
    for (const text of ['{"list": [1, 2,, 3]}', '{"list": [1, 2 3]}', '{"list": [1, {"a": NaN}]}', '{"list": [1, "\\ud800"]}', '{"list": [1, 2]} x', '{"list": [1, 2']) {
      const plain = catchError(() => parseJson(text, 'f.json'));
      const lazy = catchError(() => parseJson(text, 'f.json', 'refuse', MAX_JSON_DEPTH, itemsAt('list')));
      expect(plain).toBeInstanceOf(FormatParseError);
      expect(lazy?.message).toBe(plain?.message);
    }
    const deep = `{"list": [${'['.repeat(600)}${']'.repeat(600)}]}`;
    const error = catchError(() => parseJson(deep, 'f.json', 'refuse', MAX_JSON_DEPTH, itemsAt('list')));
    expect(error).toBeInstanceOf(InputTooDeepError);
    expect(error?.message).toBe(catchError(() => parseJson(deep, 'f.json'))?.message);
  });
});

function catchError(run: () => unknown): Error | null {
  try {
    run();
    return null;
  } catch (error) {
    return error as Error;
  }
}

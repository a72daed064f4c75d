import { isUuid, newAnnotationId } from '../../src/model/ids.js';

describe('newAnnotationId', () => {
  it('makes lower-case version 4 UUIDs, all different, across many draws of its random pool', () => {
    const ids = Array.from({ length: 20_000 }, () => newAnnotationId());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(isUuid(id)).toBe(true);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('uses every hex digit in every free position (the bytes are random, not a counter)', () => {
    const ids = Array.from({ length: 4_000 }, () => newAnnotationId());
    for (const position of [0, 7, 9, 15, 20, 24, 35]) {
      expect(new Set(ids.map((id) => id[position])).size).toBe(16);
    }
  });
});

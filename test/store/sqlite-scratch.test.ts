import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/sqlite.js';
import { tempDir } from '../support/sample-annot.js';
import { ann, collect, iv, tier } from './fixtures.js';

describe('SqliteStore scratch files (what annot convert fills before renaming)', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it('leaves a complete WAL-mode .annot with no side files once closed', async () => {
    const path = join(dir, 'scratch.annot');
    const store = await SqliteStore.open(path, { create: true, scratch: true });
    await store.addTier(tier('words'));
    await store.addMany(Array.from({ length: 500 }, (_, i) => ann(iv(i, i + 1), { id: i + 1 })));
    await store.close();
    // Bytes 18 and 19 of the header are 2 for a WAL-mode database.
    expect([...readFileSync(path).subarray(18, 20)]).toEqual([2, 2]);
    expect(existsSync(`${path}-wal`) || existsSync(`${path}-journal`)).toBe(false);
    const reopened = await SqliteStore.open(path, { readonly: true });
    try {
      expect(await reopened.count()).toBe(500);
      expect((await collect(reopened.all())).map((a) => a.id)).toHaveLength(500);
    } finally {
      await reopened.close();
    }
  });

  it('still rolls a refused batch back', async () => {
    const store = await SqliteStore.open(join(dir, 'refused.annot'), { create: true, scratch: true });
    try {
      await store.addTier(tier('words'));
      await store.add(ann(iv(0, 1), { id: 1 }));
      await expect(store.addMany([ann(iv(1, 2), { id: 2 }), ann(iv(2, 3), { id: 1 })])).rejects.toMatchObject({ code: 'ANNOT_DUPLICATE_ID' });
      expect(await store.count()).toBe(1);
    } finally {
      await store.close();
    }
  });
});

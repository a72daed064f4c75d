import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FormatAdapter } from '../../src/adapters/adapter.js';
import { annotFormat } from '../../src/adapters/annot/format.js';
import { registerAdapter } from '../../src/adapters/registry.js';
import { convertFile } from '../../src/service/convert-file.js';
import { openAnnotationFile } from '../../src/service/open-annotation-file.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { tempDir, writeSampleAnnot } from '../support/sample-annot.js';

/**
 * A conversion chooses its path by what a codec can do, not by a format's name: a plug-in format
 * under another name whose codec opens its files as stores (FormatCodec.openStore) is read in
 * place and bulk-loaded exactly as `.annot` is, and writes the same bytes.
 */
describe('conversion paths chosen by capability', () => {
  const { dir, cleanup } = tempDir('annot-convert-capability-');
  afterAll(cleanup);
  const storeLike: FormatAdapter = { ...annotFormat, name: 'store_like', extensions: ['.storelike'], sniff: () => false };
  beforeAll(() => registerAdapter(storeLike));
  const quiet = { warn: () => {}, report: () => {} };

  it('reads a source whose codec opens a store in place, as it reads .annot', async () => {
    const annot = join(dir, 'sample.annot');
    await writeSampleAnnot(annot);
    const alias = join(dir, 'sample.storelike');
    writeFileSync(alias, readFileSync(annot));
    const fromAnnot = await convertFile({ input: annot, output: join(dir, 'from-annot.vtt'), ...quiet });
    const fromStoreLike = await convertFile({ input: alias, output: join(dir, 'from-store-like.vtt'), ...quiet });
    expect({ ...fromStoreLike, from: 'annot' }).toEqual(fromAnnot);
    expect(readFileSync(join(dir, 'from-store-like.vtt'), 'utf8')).toBe(readFileSync(join(dir, 'from-annot.vtt'), 'utf8'));
    const opened = await openAnnotationFile(alias);
    expect(opened.inPlace).toBe(true);
    expect(opened.store).toBeInstanceOf(SqliteStore);
    await opened.store.close();
  });

  it('bulk-loads a target whose codec opens a store, as it fills .annot', async () => {
    const srt = join(dir, 'talk.srt');
    writeFileSync(srt, '1\n00:00:01,000 --> 00:00:02,000\nhello\n\n2\n00:00:03,000 --> 00:00:04,000\nworld\n');
    const report = await convertFile({ input: srt, output: join(dir, 'talk.storelike'), ...quiet });
    expect(report).toMatchObject({ from: 'srt', to: 'store_like', annotations: 2, tiers: 1, dropped: [] });
    const store = await SqliteStore.open(join(dir, 'talk.storelike'), { readonly: true });
    try {
      expect(await store.count()).toBe(2);
    } finally {
      await store.close();
    }
  });
});

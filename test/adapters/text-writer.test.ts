import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BufferedTextWriter } from '../../src/adapters/text-writer.js';

// A writer abandoned for the whole-document path (cues out of time order) is followed at once by
// another writer of the same path. The abandoned stream's open may still be pending, and an open
// with O_TRUNC landing after the new file was written cut it short (seen once in a CI run).
describe('BufferedTextWriter', () => {
  const dir = mkdtempSync(join(tmpdir(), 'annot-text-writer-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('destroy() resolves only once the stream has opened and closed, so the path can be written anew', async () => {
    for (let i = 0; i < 50; i++) {
      const path = join(dir, `out-${i}.vtt`);
      const stream = createWriteStream(path);
      const writer = new BufferedTextWriter(stream);
      void writer.write('WEBVTT\n\nabandoned\n');
      await writer.destroy();
      expect(stream.closed).toBe(true);
      writeFileSync(path, 'the file written anew\n');
      await new Promise((resolve) => setImmediate(resolve));
      expect(readFileSync(path, 'utf8')).toBe('the file written anew\n');
    }
  });

  it('destroy() after close() returns at once', async () => {
    const writer = new BufferedTextWriter(createWriteStream(join(dir, 'closed.vtt')));
    await writer.write('x');
    await writer.close();
    await writer.destroy();
    expect(readFileSync(join(dir, 'closed.vtt'), 'utf8')).toBe('x');
  });
});

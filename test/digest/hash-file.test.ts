import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashBytes, hashFile, sha256Hex } from '../../src/digest/hash-file.js';

describe('hashBytes and hashFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'annot-hash-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('gives the published SHA-256 of "abc" with the sha256: prefix', () => {
    expect(hashBytes(new TextEncoder().encode('abc'))).toBe('sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('hashes a file, streamed, to the same id as its bytes', async () => {
    const bytes = new Uint8Array(3 * 65536 + 17).map((_, i) => (i * 31) % 256);
    const path = join(dir, 'asset.bin');
    await writeFile(path, bytes);
    expect(await hashFile(path)).toBe(hashBytes(bytes));
  });

  it('hashes an empty file', async () => {
    const path = join(dir, 'empty');
    await writeFile(path, '');
    expect(await hashFile(path)).toBe('sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('rejects a missing file with the system error', async () => {
    await expect(hashFile(join(dir, 'missing'))).rejects.toThrow(/ENOENT/);
  });
});

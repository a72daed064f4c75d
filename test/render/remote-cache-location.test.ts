import { RemoteCacheLocationError, layoutKey, parseRemoteCacheLocation, remoteCacheUrl } from '../../src/render/remote/remote-cache-location.js';
import { entryKey, readEntry, sharedEntry } from '../../src/render/remote/unit-entry.js';

describe('--remote-cache s3://BUCKET/PREFIX', () => {
  it('reads the bucket and the prefix, and lays the versioned layout under the prefix', () => {
    const location = parseRemoteCacheLocation('s3://team-renders/annot/previews/');
    expect(location).toEqual({ bucket: 'team-renders', prefix: 'annot/previews' });
    expect(remoteCacheUrl(location)).toBe('s3://team-renders/annot/previews');
    expect(layoutKey(location, 'ac/abc')).toBe('annot/previews/v1/ac/abc');
    expect(layoutKey(parseRemoteCacheLocation('s3://renders'), 'cas/x')).toBe('v1/cas/x');
  });

  it.each([
    ['https://team-renders/annot', 'not an s3:// URL'],
    ['s3://AB/x', 'is not a bucket name'],
    ['s3://key:secret@team-renders/x', 'credentials do not go in the URL'],
    ['s3://team-renders/a/../b', '. or .. segments'],
    ['s3://team-renders/a?b', 'control characters, backslashes, ? or #'],
  ])('refuses %s in one line that says what was expected', (value, why) => {
    const error = (() => {
      try {
        parseRemoteCacheLocation(value);
      } catch (caught) {
        return caught as RemoteCacheLocationError;
      }
      throw new Error('accepted');
    })();
    expect(error).toBeInstanceOf(RemoteCacheLocationError);
    expect(error.code).toBe('ANNOT_USAGE');
    expect(error.message).toContain(why);
    expect(error.message).toContain('expected s3://BUCKET/PREFIX');
    expect(error.message).not.toContain('secret');
  });
});

describe('a shared unit entry', () => {
  const address = { namespace: 'render_shot', unitKey: '{"hash":"h","quality":"balanced"}', provider: 'fal', origin: 'https://queue.fal.run' };

  it('is keyed by the unit, the provider, its origin and the format version', () => {
    const key = entryKey(address);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(entryKey({ ...address, origin: 'http://127.0.0.1:9999' })).not.toBe(key);
    expect(entryKey({ ...address, provider: 'local' })).not.toBe(key);
    expect(entryKey({ ...address, unitKey: 'other' })).not.toBe(key);
  });

  it('holds no local path, and reads back only for its own address', () => {
    const local = { url: '', kind: 'image', hash: 'h', shot_id: 's1', cache_hit: false, sha256: '', path: '' };
    const entry = sharedEntry(address, local);
    expect(entry.result).toEqual({ url: '', kind: 'image', hash: 'h', shot_id: 's1' });
    const bytes = Buffer.from(JSON.stringify(entry));
    expect(readEntry(bytes, address)).toEqual({ entry });
    expect(readEntry(bytes, { ...address, origin: 'http://127.0.0.1:1' })).toEqual({ invalid: 'it describes another unit, provider or origin' });
    expect(readEntry(bytes.subarray(0, 30), address)).toMatchObject({ invalid: expect.stringContaining('torn or corrupt') });
    expect(readEntry(Buffer.from(JSON.stringify({ ...entry, result: { ...entry.result, path: '/home/me/x.png' } })), address)).toMatchObject({ invalid: expect.stringContaining('local field path') });
  });
});

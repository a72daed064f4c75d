import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeAtomically } from '../../src/io/atomic-file.js';
import { FileInUseError, NoSpaceError, PermissionDeniedError } from '../../src/io/errors.js';
import { temporaryOwner, temporarySiblingOf } from '../../src/io/temporary-files.js';
import { writeFailure } from '../../src/io/write-failure.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { tempDir, writeSampleAnnot } from '../support/sample-annot.js';

/** A system error as Node raises it. */
function systemError(code: string, syscall: string, path?: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: failed, ${syscall}${path ? ` '${path}'` : ''}`), { code, syscall, path });
}

describe('writeAtomically', () => {
  const { dir, cleanup } = tempDir('annot-atomic-');
  afterAll(cleanup);

  it('puts the whole file in place, or leaves the old one and no temporary when the write fails', async () => {
    const target = join(dir, 'out.txt');
    writeFileSync(target, 'old');
    await expect(
      writeAtomically(target, async (temporary) => {
        writeFileSync(temporary, 'half');
        throw systemError('ENOSPC', 'write');
      }),
    ).rejects.toMatchObject({ constructor: NoSpaceError, code: 'ANNOT_NO_SPACE', path: target, message: `no space left on the device writing ${target}` });
    expect(readdirSync(dir)).toEqual(['out.txt']);
    expect(readFileSync(target, 'utf8')).toBe('old');
    await writeAtomically(target, async (temporary) => writeFileSync(temporary, 'new'));
    expect(readFileSync(target, 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['out.txt']);
  });

  it('refuses to replace an .annot this process holds open', async () => {
    const annot = join(dir, 'open.annot');
    await writeSampleAnnot(annot);
    const store = await SqliteStore.open(annot);
    try {
      await expect(writeAtomically(annot, async () => undefined)).rejects.toBeInstanceOf(FileInUseError);
      expect(await store.count()).toBe(6);
    } finally {
      await store.close();
    }
  });
});

describe('writeFailure', () => {
  it("names the target for the errors of a write, and leaves an input's errors alone", () => {
    const writing = ['/out/.x.srt.1.00000000.tmp', '/out/x.srt'];
    expect(writeFailure(systemError('EFBIG', 'write'), '/out/x.srt', { writing })?.message).toMatch(/^file size limit exceeded writing \/out\/x\.srt/);
    expect(writeFailure(systemError('EACCES', 'open', writing[0]), '/out/x.srt', { writing })).toBeInstanceOf(PermissionDeniedError);
    expect(writeFailure(systemError('EACCES', 'open', '/in/talk.vtt'), '/out/x.srt', { writing })).toBeUndefined();
    expect(writeFailure(systemError('EIO', 'read'), '/out/x.srt', { writing })).toBeUndefined();
    expect(writeFailure(new Error('not a system error'), '/out/x.srt')).toBeUndefined();
    const full = Object.assign(new Error('database or disk is full'), { name: 'SqliteError', code: 'SQLITE_FULL' });
    expect(writeFailure(full, 'x.annot')?.message).toBe('no space left on the device writing x.annot');
  });
});

describe('temporary siblings', () => {
  it('carry the pid of their writer, and only those of the target are its', () => {
    const name = temporarySiblingOf('/out/x.vtt').slice('/out/'.length);
    expect(temporaryOwner(name, 'x.vtt')).toBe(process.pid);
    expect(temporaryOwner(`${name}-wal`, 'x.vtt')).toBe(process.pid);
    expect(temporaryOwner(name, 'y.vtt')).toBeNull();
    expect(temporaryOwner('.x.vtt.12.nothex!!.tmp', 'x.vtt')).toBeNull();
  });
});

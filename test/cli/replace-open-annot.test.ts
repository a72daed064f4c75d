import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveCli, type ServedCli } from '../support/serve-cli.js';
import { annotationIds, companionsOf, integrityOf, oneLine, runToEnd, sizeOf, startCli, vttOfCues, waitFor } from '../support/file-safety.js';
import { tempDir } from '../support/sample-annot.js';
import { wordInput, WORDS_TIER } from '../server/http-client.js';

// `annot convert b.vtt x.annot` replaces x.annot by renaming a new file over it. With another
// process holding x.annot open, or a -wal left beside it by a killed writer, that rename is how
// SQLite files get corrupted ("How To Corrupt An SQLite Database File", §2). Each case below runs
// real processes in a real order, then asks SQLite whether the file is whole and checks that
// every write a server acknowledged is still there.

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** POSTs `count` words and returns the ids the server acknowledged (201). */
async function acknowledgedWrites(served: ServedCli, count: number, from = 0): Promise<string[]> {
  const ids: string[] = [];
  for (let i = from; i < from + count; i++) {
    const response = await fetch(`${served.url}/annotations`, json(wordInput(`w${i}`, 100_000 + i * 100, 100_000 + i * 100 + 50)));
    expect(response.status).toBe(201);
    ids.push(((await response.json()) as { id: string }).id);
  }
  return ids;
}

async function withWordsTier(served: ServedCli): Promise<void> {
  expect((await fetch(`${served.url}/tiers`, json(WORDS_TIER))).status).toBe(201);
}

describe('convert over an .annot that another process has open, or that a killed writer left', () => {
  const { dir, cleanup } = tempDir('annot-replace-');
  afterAll(cleanup);
  let n = 0;
  /** A fresh folder holding x.annot converted from a 50-cue WebVTT, and b.vtt of 70 cues to convert over it. */
  async function setUp(): Promise<{ folder: string; annot: string; vtt: string }> {
    const folder = join(dir, `case-${n++}`);
    const vtt = join(folder, 'b.vtt');
    const annot = join(folder, 'x.annot');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'a.vtt'), vttOfCues(50, 'old'));
    writeFileSync(vtt, vttOfCues(70, 'new'));
    const made = await runToEnd(['convert', join(folder, 'a.vtt'), annot]);
    expect(made.code).toBe(0);
    return { folder, annot, vtt };
  }

  it('serve, then convert: the convert is refused in one line, and every acknowledged write stays', async () => {
    const { annot, vtt } = await setUp();
    const served = await serveCli([annot]);
    try {
      await withWordsTier(served);
      const before = await acknowledgedWrites(served, 20);
      const convert = await runToEnd(['convert', vtt, annot]);
      expect(convert.code).toBe(1);
      expect(oneLine(convert.stderr)).toBe(`annot: ${annot} is open in another process (an annot serve, mcp or worker?): stop it, or write to another file; nothing was written [ANNOT_FILE_IN_USE]`);
      const after = await acknowledgedWrites(served, 20, 20);
      expect((await served.stop('SIGTERM')).code).toBe(0);
      expect(companionsOf(annot)).toEqual([]);
      expect(integrityOf(annot)).toBe('ok');
      const ids = annotationIds(annot);
      expect(ids.size).toBe(50 + 40);
      for (const id of [...before, ...after]) expect(ids.has(id)).toBe(true);
    } finally {
      served.child.kill('SIGKILL');
    }
  });

  it('convert running while serve starts: the convert is refused when it would replace the file, and the server keeps its writes', async () => {
    const { folder, annot } = await setUp();
    const big = join(folder, 'big.vtt');
    writeFileSync(big, vttOfCues(60_000, 'big'));
    const convert = startCli(['convert', big, annot]);
    convert.child.stdin.end();
    // Frozen once it writes its temporary file: the server then starts in the middle of the conversion.
    await waitFor(() => readdirSync(folder).some((entry) => entry.startsWith('.x.annot.') && sizeOf(join(folder, entry)) > 0), 'the conversion writing its temporary file');
    convert.child.kill('SIGSTOP');
    const served = await serveCli([annot]);
    try {
      await withWordsTier(served);
      const acknowledged = await acknowledgedWrites(served, 10);
      convert.child.kill('SIGCONT');
      const ended = await convert.exited;
      expect(ended.code).toBe(1);
      expect(oneLine(convert.stderr())).toMatch(/is open in another process .*nothing was written \[ANNOT_FILE_IN_USE\]$/);
      acknowledged.push(...(await acknowledgedWrites(served, 10, 10)));
      expect((await served.stop('SIGTERM')).code).toBe(0);
      expect(companionsOf(annot)).toEqual([]);
      expect(integrityOf(annot)).toBe('ok');
      const ids = annotationIds(annot);
      expect(ids.size).toBe(50 + 20);
      for (const id of acknowledged) expect(ids.has(id)).toBe(true);
    } finally {
      served.child.kill('SIGKILL');
      convert.child.kill('SIGKILL');
    }
  });

  it('a -wal left by a killed server: its acknowledged writes stay in the old file, and are never replayed into the new one', async () => {
    const { annot, vtt } = await setUp();
    const served = await serveCli([annot]);
    await withWordsTier(served);
    const acknowledged = await acknowledgedWrites(served, 30);
    served.child.kill('SIGKILL');
    await served.exited;
    expect(sizeOf(`${annot}-wal`)).toBeGreaterThan(0);

    // A conversion that fails (its input is not WebVTT) changes nothing, but the old file is whole
    // and holds every acknowledged write, with the stale WAL folded into it.
    writeFileSync(join(annot, '..', 'broken.vtt'), 'WEBVTT\n\nnot a cue\n00:00:01.000 --> banana\n');
    const failed = await runToEnd(['convert', join(annot, '..', 'broken.vtt'), annot, '--strict']);
    expect(failed.code).toBe(1);
    expect(integrityOf(annot)).toBe('ok');
    const old = annotationIds(annot);
    expect(old.size).toBe(50 + 30);
    for (const id of acknowledged) expect(old.has(id)).toBe(true);

    const converted = await runToEnd(['convert', vtt, annot]);
    expect(converted).toMatchObject({ code: 0, stderr: `wrote ${annot} (annot): 70 annotations in 1 tier\n` });
    expect(companionsOf(annot)).toEqual([]);
    expect(integrityOf(annot)).toBe('ok');
    const fresh = annotationIds(annot);
    expect(fresh.size).toBe(70);
    for (const id of acknowledged) expect(fresh.has(id)).toBe(false);
    const query = await runToEnd(['query', annot]);
    expect(query.stdout.trim().split('\n')).toHaveLength(70);
  });

  it('a -wal beside a deleted .annot is refused in one line: it may still be written by a process that has the deleted file open', async () => {
    const { annot, vtt } = await setUp();
    const served = await serveCli([annot]);
    await withWordsTier(served);
    await acknowledgedWrites(served, 3);
    served.child.kill('SIGKILL');
    await served.exited;
    rmSync(annot);
    const refused = await runToEnd(['convert', vtt, annot]);
    expect(refused.code).toBe(1);
    expect(oneLine(refused.stderr)).toMatch(new RegExp(`^annot: ${annot}-wal is beside a missing ${annot}: .*nothing was written \\[ANNOT_ORPHAN_JOURNAL\\]$`));
    expect(companionsOf(annot).sort()).toEqual(['x.annot-shm', 'x.annot-wal']);
    // annot serve would create the missing file: refused the same way.
    const serve = await runToEnd(['serve', annot]);
    expect(serve.code).toBe(1);
    expect(oneLine(serve.stderr)).toMatch(/\[ANNOT_ORPHAN_JOURNAL\]$/);
    expect(companionsOf(annot).sort()).toEqual(['x.annot-shm', 'x.annot-wal']);
  });

  it('a server opening the file while convert renames a new one over it ends up serving the new file, and leaves no side file of the old one', async () => {
    const { folder, annot, vtt } = await setUp();
    const replacement = join(folder, 'replacement.annot');
    expect((await runToEnd(['convert', vtt, replacement])).code).toBe(0);
    const oldInode = statSync(annot).ino;
    // A process that takes the old file's lock (as convert does right before its rename), renames on a line from stdin, then lets go.
    const holder = spawn(process.execPath, ['--input-type=module', '-e', HOLDER_SCRIPT, annot, replacement], { stdio: ['pipe', 'pipe', 'inherit'] });
    let holderOut = '';
    holder.stdout.on('data', (chunk: Buffer) => (holderOut += chunk.toString()));
    const holderDone = new Promise((resolve) => holder.on('close', resolve));
    await waitFor(() => holderOut.includes('locked'), 'the holder taking the lock');
    const serve = startCli(['serve', annot]);
    try {
      await waitFor(() => holdsInode(serve.child.pid!, oldInode), 'annot serve opening the old file (it then waits for the lock)');
      holder.stdin.end('go\n');
      await holderDone;
      expect(holderOut).toContain('replaced');
      await waitFor(() => /listening on (\S+)\n/.test(serve.stdout()), 'annot serve listening');
      const url = /listening on (\S+)\n/.exec(serve.stdout())![1];
      const served = { url } as ServedCli;
      await withWordsTier(served);
      const acknowledged = await acknowledgedWrites(served, 5);
      serve.child.kill('SIGTERM');
      expect((await serve.exited).code).toBe(0);
      expect(companionsOf(annot)).toEqual([]);
      expect(integrityOf(annot)).toBe('ok');
      const ids = annotationIds(annot);
      expect(ids.size).toBe(70 + 5);
      for (const id of acknowledged) expect(ids.has(id)).toBe(true);
    } finally {
      serve.child.kill('SIGKILL');
      holder.kill('SIGKILL');
    }
  });

  it('a server that passed its checks and waits to switch the old file into WAL mode when the rename lands opens the new file, and leaves no side file', async () => {
    const { folder, annot, vtt } = await setUp();
    const replacement = join(folder, 'replacement.annot');
    expect((await runToEnd(['convert', vtt, replacement])).code).toBe(0);
    const oldInode = statSync(annot).ino;
    // The old file out of WAL mode (as convert leaves it) and a write lock on it: readers pass, the server's switch into WAL mode waits.
    const holder = spawn(process.execPath, ['--input-type=module', '-e', RESERVED_HOLDER_SCRIPT, annot, replacement], { stdio: ['pipe', 'pipe', 'inherit'] });
    let holderOut = '';
    holder.stdout.on('data', (chunk: Buffer) => (holderOut += chunk.toString()));
    const holderDone = new Promise((resolve) => holder.on('close', resolve));
    await waitFor(() => holderOut.includes('locked'), 'the holder taking the write lock');
    const serve = startCli(['serve', annot]);
    try {
      // Its connection to the old file stays open while it waits for the write lock (its checks open the file only for a moment).
      await waitFor(() => holdsInode(serve.child.pid!, oldInode, 2), 'annot serve waiting on the old file');
      holder.stdin.end('go\n');
      await holderDone;
      expect(holderOut).toContain('replaced');
      await waitFor(() => /listening on (\S+)\n/.test(serve.stdout()), 'annot serve listening');
      const served = { url: /listening on (\S+)\n/.exec(serve.stdout())![1] } as ServedCli;
      await withWordsTier(served);
      const acknowledged = await acknowledgedWrites(served, 5);
      serve.child.kill('SIGTERM');
      expect((await serve.exited).code).toBe(0);
      expect(companionsOf(annot)).toEqual([]);
      expect(integrityOf(annot)).toBe('ok');
      const ids = annotationIds(annot);
      expect(ids.size).toBe(70 + 5);
      for (const id of acknowledged) expect(ids.has(id)).toBe(true);
    } finally {
      serve.child.kill('SIGKILL');
      holder.kill('SIGKILL');
    }
  });
});

const LOCK_MODULE = fileURLToPath(new URL('../../dist/src/io/sqlite-target.js', import.meta.url));

const HOLDER_SCRIPT = `
import { renameSync } from 'node:fs';
import { createInterface } from 'node:readline';
const { lockSqliteTarget } = await import(${JSON.stringify(LOCK_MODULE)});
const [target, replacement] = process.argv.slice(1);
const lock = await lockSqliteTarget(target);
process.stdout.write('locked\\n');
for await (const line of createInterface({ input: process.stdin })) if (line === 'go') break;
renameSync(replacement, target);
lock.release();
process.stdout.write('replaced\\n');
`;

const SQLITE_MODULE = fileURLToPath(new URL('../../node_modules/better-sqlite3/lib/index.js', import.meta.url));

const RESERVED_HOLDER_SCRIPT = `
import { renameSync } from 'node:fs';
import { createInterface } from 'node:readline';
const { default: Database } = await import(${JSON.stringify(SQLITE_MODULE)});
const [target, replacement] = process.argv.slice(1);
const db = new Database(target);
db.pragma('journal_mode = DELETE');
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\\n');
for await (const line of createInterface({ input: process.stdin })) if (line === 'go') break;
renameSync(replacement, target);
db.exec('ROLLBACK');
db.close();
process.stdout.write('replaced\\n');
`;

/**
 * Whether process `pid` has a descriptor open on the inode `ino` (Linux /proc); with `times`, on
 * that many looks 50 ms apart, so a file opened for a moment does not count.
 */
function holdsInode(pid: number, ino: number, times = 1): boolean {
  for (let look = 0; look < times; look++) {
    if (look > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      return false;
    }
    const open = fds.some((fd) => {
      try {
        return statSync(`/proc/${pid}/fd/${fd}`).ino === ino;
      } catch {
        return false;
      }
    });
    if (!open) return false;
  }
  return true;
}

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTier } from '../../src/model/tier.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { tempDir } from '../support/sample-annot.js';
import { describeOpLogContract } from './contract.js';

const files = tempDir('annot-oplog-');
afterAll(files.cleanup);
let n = 0;

describeOpLogContract('SqliteStore file', async () => SqliteStore.open(join(files.dir, `log-${n++}.annot`), { create: true }));
describeOpLogContract('SqliteStore :memory:', async () => SqliteStore.open(':memory:'));

describe('SqliteStore op-log across processes', () => {
  it('keeps the log in the file: a reopened store continues the clock', async () => {
    const path = join(files.dir, 'reopen.annot');
    const first = await SqliteStore.open(path, { create: true });
    await first.applyLogged([{ kind: 'add_tier', tier: makeTier({ name: 'words' }) }], { actor: 'a', receivedAt: new RationalTime(1, 1000) });
    await first.close();
    const second = await SqliteStore.open(path);
    expect(await second.latestClock()).toBe(1);
    const [entry] = await second.applyLogged([{ kind: 'set_meta', key: 'k', value: 'v' }], { actor: 'b', receivedAt: new RationalTime(2, 1000) });
    expect(entry.clock).toBe(2);
    await second.close();
  });

  it('never hands out one clock twice when two processes append to one file at once', async () => {
    const path = join(files.dir, 'shared.annot');
    const setup = await SqliteStore.open(path, { create: true });
    await setup.close();
    const storeModule = fileURLToPath(new URL('../../dist/src/store/sqlite.js', import.meta.url));
    const writer = (actor: string) =>
      new Promise<void>((resolve, reject) => {
        const script = `
          const { SqliteStore } = await import(${JSON.stringify(storeModule)});
          const { RationalTime } = await import(${JSON.stringify(storeModule.replace('store/sqlite.js', 'time/rational-time.js'))});
          const store = await SqliteStore.open(${JSON.stringify(path)});
          // Write for a while rather than a fixed count, so the two writers surely overlap in time.
          const until = Date.now() + 600;
          for (let i = 0; Date.now() < until; i++) {
            await store.applyLogged([{ kind: 'set_meta', key: ${JSON.stringify(actor)} + i, value: String(i) }], { actor: ${JSON.stringify(actor)}, receivedAt: RationalTime.now(1000) });
          }
          await store.close();`;
        const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (chunk) => (stderr += chunk));
        child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`writer ${actor} exited ${code}: ${stderr}`))));
      });
    await Promise.all([writer('serve'), writer('mcp')]);
    const store = await SqliteStore.open(path, { readonly: true });
    const log = await store.readOpLog();
    await store.close();
    expect(log.map((e) => e.clock)).toEqual(Array.from({ length: log.length }, (_, i) => i + 1));
    const actors = log.map((e) => e.actor);
    const switches = actors.filter((actor, i) => i > 0 && actor !== actors[i - 1]).length;
    expect(new Set(actors)).toEqual(new Set(['serve', 'mcp']));
    expect(switches).toBeGreaterThan(1); // interleaved, not one process after the other
  });
});

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

/** A generous deadline for an event, so a test that waits on one fails with a message rather than jest's timeout. */
async function withDeadline<T>(event: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`not within ${ms} ms: ${what}`)), ms)));
  try {
    return await Promise.race([event, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

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
    // Each writer opens the store, says "ready" and waits for "go", so neither starts before the
    // other has finished starting up. Then it appends until told to stop, and says "interleaved"
    // once one of its own appends got a clock more than one past its previous one: the other
    // process wrote in between. The test stops both at that event, not after a span of time.
    const script = `
      const { SqliteStore } = await import(${JSON.stringify(storeModule)});
      const { RationalTime } = await import(${JSON.stringify(storeModule.replace('store/sqlite.js', 'time/rational-time.js'))});
      const actor = process.argv[1];
      const store = await SqliteStore.open(${JSON.stringify(path)});
      let go = false, stop = false;
      process.stdin.setEncoding('utf8');
      process.stdin.on('data', (text) => { go ||= text.includes('go'); stop ||= text.includes('stop'); });
      process.stdin.on('end', () => { go = true; stop = true; });
      process.stdout.write('ready\\n');
      while (!go) await new Promise((resolve) => setImmediate(resolve));
      let previous = 0, told = false;
      for (let i = 0; !stop; i++) {
        const [entry] = await store.applyLogged([{ kind: 'set_meta', key: actor + i, value: String(i) }], { actor, receivedAt: RationalTime.now(1000) });
        if (previous > 0 && entry.clock > previous + 1 && !told) { told = true; process.stdout.write('interleaved\\n'); }
        previous = entry.clock;
        await new Promise((resolve) => setImmediate(resolve)); // lets "stop" arrive
      }
      await store.close();`;
    const writers = ['serve', 'mcp'].map((actor) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script, actor], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8');
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const said = (word: string) =>
        new Promise<void>((resolve, reject) => {
          const check = () => (stdout.includes(word) ? resolve() : undefined);
          child.stdout.on('data', (chunk) => ((stdout += chunk), check()));
          child.on('close', (code) => reject(new Error(`writer ${actor} exited ${code} before saying ${word}: ${stderr}`)));
          check();
        });
      const closed = new Promise<void>((resolve, reject) =>
        child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`writer ${actor} exited ${code}: ${stderr}`)))),
      );
      const ready = said('ready');
      const interleaved = said('interleaved');
      // Only one writer needs to say "interleaved"; the other's promise rejects when it is stopped.
      interleaved.catch(() => undefined);
      return { child, ready, interleaved, closed };
    });
    try {
      await Promise.all(writers.map((w) => w.ready));
      for (const w of writers) w.child.stdin.write('go\n');
      // Either writer seeing the other's clock between two of its own is the overlap this test needs.
      await withDeadline(Promise.any(writers.map((w) => w.interleaved)), 20_000, 'the two writers never interleaved');
    } finally {
      for (const w of writers) w.child.stdin.end('stop\n');
      await Promise.allSettled(writers.map((w) => w.closed));
    }
    await Promise.all(writers.map((w) => w.closed));
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

import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import pg from 'pg';
import { PostgresStore } from '../../src/store/postgres.js';
import { existingOutput, OUTPUT_EXTENSIONS, stateOf, untouched, type ExistingOutput } from '../support/existing-output.js';
import { oneLine, runToEnd, sizeOf, srtOfCues, startCli, temporariesIn, waitFor, type RunningCli } from '../support/file-safety.js';
import { describeWithPostgres, POSTGRES_URL, postgresUnreachable } from '../support/postgres.js';
import { tempDir } from '../support/sample-annot.js';

// kill -9 and Ctrl-C in the middle of a conversion over an existing output: the output stays as it
// was, bytes and modification time alike (a `.annot` too: its lock is taken without writing to it).
// Each case waits for the event that proves the conversion is under way (its temporary file is
// there, and, where the writer writes as it reads, has bytes in it), freezes the child with SIGSTOP
// so the signal lands mid-conversion whatever the machine's speed, sends the signal and lets it go
// on. Ctrl-C leaves no temporary; kill -9 cannot remove its own, which the next write of the same
// target removes (stale-temporaries.ts), here a refused one that leaves the output as it was too.

const CUES = 150_000;
const { dir, cleanup } = tempDir('annot-existing-interrupted-');
afterAll(cleanup);
const inputs = join(dir, 'inputs');
mkdirSync(inputs);
const BIG = join(inputs, 'big.srt');
writeFileSync(BIG, srtOfCues(CUES));
const BAD_EAF = join(inputs, 'bad.eaf');
writeFileSync(BAD_EAF, '<?xml version="1.0" encoding="UTF-8"?>\n<ANNOTATION_DOCUMENT><oops\n');
/** Writers that write as they read: their temporary has bytes in it mid-conversion. The others write once everything is read. */
const WRITES_AS_IT_READS = new Set(['srt', 'vtt', 'ass', 'sbv', 'TextGrid', 'annot']);

let n = 0;
const folder = () => join(dir, `case-${n++}`);

/** The conversion under way: its temporary of `target` is there (with bytes in it, when `filling`). */
function underWay(target: string, filling: boolean): () => boolean {
  return () => temporariesIn(dirname(target)).some((name) => name.startsWith(`.${basename(target)}.`) && !/-(wal|shm|journal)$/.test(name) && (!filling || sizeOf(join(dirname(target), name)) > 0));
}

/** Freezes the child once `ready` holds, sends `signal`, lets it go on, and waits for its exit. */
async function interrupt(running: RunningCli, ready: () => boolean, what: string, signal: NodeJS.Signals) {
  await waitFor(ready, what, 60_000);
  running.child.kill('SIGSTOP');
  running.child.kill(signal);
  running.child.kill('SIGCONT');
  return running.exited;
}

/** After kill -9: only the killed run's temporaries beside the output, which a refused run into the same target removes, the output still as it was. */
async function expectKilledRunCleanedUp(existing: ExistingOutput, pid: number): Promise<void> {
  const left = stateOf(existing).folder.filter((name) => name !== basename(existing.path));
  expect(left.every((name) => name.startsWith(`.${basename(existing.path)}.${pid}.`))).toBe(true);
  const refused = await runToEnd(['convert', BAD_EAF, existing.path]);
  expect(refused.code).toBe(1);
  expect(oneLine(refused.stderr)).toMatch(/\[ANNOT_FORMAT_PARSE\]$/);
  expect(stateOf(existing)).toEqual(untouched(existing));
}

describe('an interrupted conversion leaves an existing output as it was, bytes and modification time', () => {
  it.each(OUTPUT_EXTENSIONS)('kill -9 mid-conversion into .%s', async (extension) => {
    const existing = await existingOutput(folder(), extension);
    const running = startCli(['convert', BIG, existing.path]);
    running.child.stdin.end();
    const ended = await interrupt(running, underWay(existing.path, WRITES_AS_IT_READS.has(extension)), 'the conversion under way', 'SIGKILL');
    expect(ended).toEqual({ code: null, signal: 'SIGKILL' });
    const { sameBytes, sameTime } = stateOf(existing);
    expect({ sameBytes, sameTime }).toEqual({ sameBytes: true, sameTime: true });
    await expectKilledRunCleanedUp(existing, running.child.pid!);
  });

  it.each(OUTPUT_EXTENSIONS)('Ctrl-C mid-conversion into .%s', async (extension) => {
    const existing = await existingOutput(folder(), extension);
    const running = startCli(['convert', BIG, existing.path]);
    running.child.stdin.end();
    const ended = await interrupt(running, underWay(existing.path, WRITES_AS_IT_READS.has(extension)), 'the conversion under way', 'SIGINT');
    expect(ended).toEqual({ code: 130, signal: null });
    expect(running.stderr()).toBe('annot: interrupted: nothing written\n');
    expect(stateOf(existing)).toEqual(untouched(existing));
  });

  it('kill -9 and Ctrl-C mid-conversion of an .annot read in place, into .vtt and .annot', async () => {
    const source = join(inputs, 'big.annot');
    expect((await runToEnd(['convert', BIG, source])).code).toBe(0);
    for (const [extension, signal] of [['vtt', 'SIGKILL'], ['annot', 'SIGKILL'], ['vtt', 'SIGINT'], ['annot', 'SIGINT']] as const) {
      const existing = await existingOutput(folder(), extension);
      const running = startCli(['convert', source, existing.path]);
      running.child.stdin.end();
      const ended = await interrupt(running, underWay(existing.path, extension === 'vtt'), 'the conversion under way', signal);
      expect(ended).toEqual(signal === 'SIGKILL' ? { code: null, signal } : { code: 130, signal: null });
      if (signal === 'SIGKILL') await expectKilledRunCleanedUp(existing, running.child.pid!);
      else expect(stateOf(existing)).toEqual(untouched(existing));
    }
  });

  it('Ctrl-C mid-way through the batch form: every existing output as it was', async () => {
    const out = folder();
    const second = join(inputs, 'big2.srt');
    writeFileSync(second, srtOfCues(CUES, 'second'));
    const outputs = [await existingOutput(out, 'annot', 'big'), await existingOutput(out, 'annot', 'big2')];
    const running = startCli(['convert', BIG, second, '--out-dir', out, '--to', 'annot', '--jobs', '2']);
    running.child.stdin.end();
    const ended = await interrupt(running, () => outputs.every((output) => underWay(output.path, true)()), 'both conversions under way', 'SIGINT');
    expect(ended).toEqual({ code: 130, signal: null });
    for (const output of outputs) expect(stateOf(output)).toEqual({ ...untouched(output), folder: ['big.annot', 'big2.annot'] });
  });
});

describeWithPostgres('an interrupted conversion into a PostgreSQL project leaves the project as it was', await postgresUnreachable(), () => {
  const project = `jest-existing-interrupted-${process.pid}`;
  const url = `${POSTGRES_URL}?project=${project}`;
  let before: ProjectState;

  beforeAll(async () => {
    const previous = join(inputs, 'previous.srt');
    writeFileSync(previous, srtOfCues(3, 'previous'));
    expect((await runToEnd(['convert', previous, url])).code).toBe(0);
    before = await projectState(url);
    expect(before.count).toBe(3);
  });
  afterAll(async () => (await PostgresStore.open(url)).dropProject());

  it.each(['SIGKILL', 'SIGINT'] as const)('%s while the conversion\'s one transaction is open', async (signal) => {
    const running = startCli(['convert', BIG, url]);
    running.child.stdin.end();
    const ended = await interrupt(running, transactionOpen(project, running), 'the conversion holding the project in its transaction', signal);
    expect(ended).toEqual(signal === 'SIGKILL' ? { code: null, signal } : { code: 130, signal: null });
    // The server rolls the transaction back once it sees the connection gone.
    await waitForAsync(async () => !(await locked(project)), 'the transaction rolled back');
    expect(await projectState(url)).toEqual(before);
  });
});

interface ProjectState {
  count: number;
  clock: number;
  log: number;
}

async function projectState(url: string): Promise<ProjectState> {
  const store = await PostgresStore.open(url, { create: false });
  try {
    return { count: await store.count(), clock: await store.latestClock(), log: (await store.readOpLog()).length };
  } finally {
    await store.close();
  }
}

/**
 * Whether another session holds the project's row lock: a conversion into a project takes it
 * first thing in its one transaction (PostgresStore.applyLogged), and keeps it to the commit.
 */
async function locked(project: string): Promise<boolean> {
  const client = new pg.Client(POSTGRES_URL);
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT 1 FROM annot.projects WHERE name = $1 FOR UPDATE NOWAIT', [project]);
    return false;
  } catch (error) {
    if ((error as { code?: string }).code === '55P03') return true;
    throw error;
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    await client.end();
  }
}

/** A check for `interrupt`: polled in the background until the project is locked or the child is gone. */
function transactionOpen(project: string, running: RunningCli): () => boolean {
  let open = false;
  let exited = false;
  void running.exited.then(() => (exited = true));
  const poll = async (): Promise<void> => {
    while (!open && !exited) {
      open = await locked(project);
      if (!open) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  void poll();
  return () => open;
}

async function waitForAsync(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

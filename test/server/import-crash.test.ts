import Database from 'better-sqlite3';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { PG_SCHEMA } from '../../src/store/postgres-schema.js';
import { PostgresStore } from '../../src/store/postgres.js';
import { serveCli, type ServedCli } from '../support/serve-cli.js';
import { annotationIds, integrityOf, sizeOf, srtOfCues, waitFor } from '../support/file-safety.js';
import { describeWithPostgres, POSTGRES_URL, postgresUnreachable } from '../support/postgres.js';
import { tempDir } from '../support/sample-annot.js';

// POST /import is all or nothing (its OpenAPI description says so). Each case kills the server
// with SIGKILL at a moment proven to be inside the import (the upload arriving, or the import's
// transaction holding the store's write lock), starts it again, and finds all of the import or
// none of it, with an op-log that says the same.

const CUES = 100_000;
const upload = Buffer.from(srtOfCues(CUES));

/** Sends the whole upload; the answer (or the connection dying with the server) is the returned promise's. */
function postImport(served: ServedCli): Promise<number> {
  return fetch(`${served.url}/import?format=srt`, { method: 'POST', body: upload })
    .then((response) => response.status)
    .catch(() => -1);
}

async function restartAndStop(args: string[]): Promise<void> {
  const again = await serveCli(args);
  expect((await again.stop('SIGTERM')).code).toBe(0);
}

describe('POST /import killed midway leaves all of it or none of it (.annot)', () => {
  const { dir, cleanup } = tempDir('annot-import-crash-');
  afterAll(cleanup);

  /** The latest clock and the annotation count of a file, read once no server has it open. */
  function stateOf(annot: string): { clock: number; annotations: number } {
    const db = new Database(annot, { fileMustExist: true });
    try {
      return {
        clock: (db.prepare('SELECT coalesce(max(clock), 0) FROM oplog').pluck().get() as number) ?? 0,
        annotations: db.prepare('SELECT count(*) FROM annotations').pluck().get() as number,
      };
    } finally {
      db.close();
    }
  }

  it('killed while its transaction holds the write lock', async () => {
    const annot = join(dir, 'locked.annot');
    const served = await serveCli([annot]);
    const answered = postImport(served);
    // The import's transaction is open when another connection cannot take the write lock.
    const probe = new Database(annot, { fileMustExist: true });
    probe.pragma('busy_timeout = 0');
    const importHoldsTheLock = () => {
      try {
        probe.exec('BEGIN IMMEDIATE');
        probe.exec('ROLLBACK');
        return false;
      } catch (error) {
        if ((error as { code?: string }).code === 'SQLITE_BUSY') return true;
        throw error;
      }
    };
    try {
      await waitFor(importHoldsTheLock, 'the import holding the write lock', 60_000);
    } finally {
      probe.close();
    }
    served.child.kill('SIGKILL');
    await served.exited;
    await answered;
    await restartAndStop([annot]);
    expect(integrityOf(annot)).toBe('ok');
    const { clock, annotations } = stateOf(annot);
    expect([0, CUES]).toContain(annotations);
    // One entry per annotation and one for the tier the import added: the op-log agrees with the data.
    expect(clock).toBe(annotations === 0 ? 0 : CUES + 1);
  });

  it('killed while the upload is still arriving', async () => {
    const annot = join(dir, 'arriving.annot');
    const scratch = join(dir, 'tmp');
    mkdirSync(scratch);
    const served = await serveCli([annot], { env: { TMPDIR: scratch } });
    const { hostname, port } = new URL(served.url);
    const socket = connect(Number(port), hostname);
    socket.on('error', () => undefined);
    socket.write(`POST /import?format=srt HTTP/1.1\r\nhost: ${hostname}\r\ncontent-length: ${upload.length}\r\n\r\n`);
    socket.write(upload.subarray(0, upload.length / 2));
    const spooled = () => readdirSync(scratch).some((folder) => readdirSync(join(scratch, folder)).some((file) => file.startsWith('upload-') && sizeOf(join(scratch, folder, file)) > 0));
    await waitFor(spooled, 'the server spooling the upload');
    served.child.kill('SIGKILL');
    await served.exited;
    socket.destroy();
    await restartAndStop([annot]);
    expect(integrityOf(annot)).toBe('ok');
    expect(stateOf(annot)).toEqual({ clock: 0, annotations: 0 });
    expect(annotationIds(annot).size).toBe(0);
  });

  it('an import that completes is all there after a kill -9 right after its answer', async () => {
    const annot = join(dir, 'answered.annot');
    writeFileSync(join(dir, 'small.srt'), srtOfCues(500));
    const served = await serveCli([annot]);
    const response = await fetch(`${served.url}/import?format=srt`, { method: 'POST', body: srtOfCues(500) });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ annotations_added: 500, tiers_added: 1, clock: 501 });
    served.child.kill('SIGKILL');
    await served.exited;
    await restartAndStop([annot]);
    expect(integrityOf(annot)).toBe('ok');
    expect(stateOf(annot)).toEqual({ clock: 501, annotations: 500 });
  });
});

const unreachable = await postgresUnreachable();

describeWithPostgres('POST /import killed midway leaves all of it or none of it (PostgreSQL)', unreachable, () => {
  const project = `import_crash_${process.pid}`;
  const url = `${POSTGRES_URL}?project=${project}`;
  afterAll(async () => (await PostgresStore.open(url)).dropProject());

  it('killed while its transaction holds the project clock', async () => {
    const served = await serveCli(['--store', url]);
    const answered = postImport(served);
    // The import's transaction holds the project's clock row (applyLogged locks it first): another transaction cannot.
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    const importHoldsTheClock = async () => {
      await client.query('BEGIN');
      try {
        await client.query(`SELECT clock FROM ${PG_SCHEMA}.projects WHERE name = $1 FOR UPDATE NOWAIT`, [project]);
        return false;
      } catch (error) {
        if ((error as { code?: string }).code === '55P03') return true;
        throw error;
      } finally {
        await client.query('ROLLBACK');
      }
    };
    try {
      const deadline = Date.now() + 60_000;
      while (!(await importHoldsTheClock())) {
        if (Date.now() > deadline) throw new Error('the import never held the project clock');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    } finally {
      await client.end();
    }
    served.child.kill('SIGKILL');
    await served.exited;
    await answered;
    await restartAndStop(['--store', url]);
    const store = await PostgresStore.open(url);
    try {
      const annotations = await store.count();
      expect([0, CUES]).toContain(annotations);
      expect(await store.latestClock()).toBe(annotations === 0 ? 0 : CUES + 1);
    } finally {
      await store.close();
    }
  });
});

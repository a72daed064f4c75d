import { jest } from '@jest/globals';
import { existsSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Queue } from 'bullmq';
import { connectRedis, enqueueProcessorJob, getJobStatus, obliterateQueue, redisUrlFrom } from '../../src/processors/queue.js';
import { startProcessorWorker } from '../../src/processors/worker.js';
import {
  ProjectNotFoundError,
  StoreAuthenticationError,
  StoreDatabaseNotFoundError,
  StorePermissionError,
  StoreRoleNotFoundError,
  StoreUnreachableError,
} from '../../src/store/errors.js';
import { PostgresStore } from '../../src/store/postgres.js';
import { withSpan } from '../../src/telemetry/tracing.js';
import { describeWithPostgres, POSTGRES_URL, postgresUnreachable } from '../support/postgres.js';
import { runCli, type CliResult } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';
import { describeWithScratchPostgres, freePort, startScratchPostgres } from '../support/scratch-postgres.js';
import { eventually, serveCli } from '../support/serve-cli.js';
import { recordSpans } from '../telemetry/span-recorder.js';

jest.setTimeout(120_000);

const TALK = fileURLToPath(new URL('../../fixtures/talk.vtt', import.meta.url));
const PASSWORD = 'Pw-7f3c!sekret';
const WRONG = 'Wrong-9d1e!guess';
const RUN = `jest-conn-${process.pid}`;

/** A failed run: exit 1, one line on stderr ending in the code, nothing on stdout, no password anywhere. */
function expectOneLineFailure(result: CliResult, code: string, ...secrets: string[]): string {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^annot: .* \\[${code}\\]$`));
  for (const secret of secrets) expect(result.stderr + result.stdout).not.toContain(secret);
  return lines[0];
}

/** The main server's URL with a user and a password put in (trust ignores it; it must still never be shown). */
function withPassword(url: string, user: string, password: string, project: string): string {
  const parsed = new URL(url);
  parsed.username = user;
  parsed.password = password;
  parsed.searchParams.set('project', project);
  return parsed.toString();
}

describeWithPostgres('PostgreSQL store URLs on the machine\'s server: no password shown, no project made by a read', await postgresUnreachable(), () => {
  const { dir, cleanup } = tempDir('annot-pg-conn-');
  const project = (name: string) => `${RUN}-${name}`;
  const url = (name: string) => withPassword(POSTGRES_URL, new URL(POSTGRES_URL).username || 'postgres', PASSWORD, project(name));
  const projectNames = async (): Promise<string[]> => {
    const client = new pg.Client(POSTGRES_URL);
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>("SELECT name FROM annot.projects WHERE name LIKE $1 ORDER BY name", [`${RUN}-%`]);
      return rows.map((row) => row.name);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    const into = await runCli(['convert', TALK, url('talks'), '--tier', 'cues']);
    expect(into.stderr).not.toContain(PASSWORD);
    expect(into.stderr).toContain('postgres:***@');
    expect(into.code).toBe(0);
  });
  afterAll(async () => {
    for (const name of await projectNames()) await (await PostgresStore.open(POSTGRES_URL, { project: name })).dropProject();
    cleanup();
  });

  it('query and validate read a project through a URL with a password, and never print it', async () => {
    const query = await runCli(['query', url('talks'), '--start', '11.125', '--end', '15']);
    expect(query.code).toBe(0);
    expect(query.stdout + query.stderr).not.toContain(PASSWORD);
    expect(query.stdout).toContain('The lamp turned once every twelve seconds.');
    const validate = await runCli(['validate', url('talks')]);
    expect(validate.code).toBe(0);
    expect(validate.stdout + validate.stderr).not.toContain(PASSWORD);
    expect(validate.stdout).toMatch(/^postgres:\/\/\S+:\*\*\*@\S+ \(postgres\): valid, 0 errors/);
    expect(validate.stdout).toContain('annotations in 1 tier');
    const json = await runCli(['validate', url('talks'), '--format', 'json']);
    expect(json.stdout).not.toContain(PASSWORD);
    expect(JSON.parse(json.stdout)).toMatchObject({ format: 'postgres', valid: true });
  });

  it('a project that does not exist is an error with a did-you-mean, and no read creates it', async () => {
    const before = await projectNames();
    const typo = url('talk');
    for (const args of [['query', typo], ['query', typo, '--start', '0', '--end', '5'], ['validate', typo], ['convert', typo, join(dir, 'out.vtt')], ['diff', typo, url('talks')]]) {
      const result = await runCli(args);
      const line = expectOneLineFailure(result, 'ANNOT_PROJECT_NOT_FOUND', PASSWORD);
      expect(line).toContain(`no annot project "${project('talk')}"; did you mean "${project('talks')}"?`);
    }
    expect(existsSync(join(dir, 'out.vtt'))).toBe(false);
    expect(await projectNames()).toEqual(before);
    await expect(PostgresStore.open(POSTGRES_URL, { project: project('talk'), create: false })).rejects.toBeInstanceOf(ProjectNotFoundError);
    expect(await projectNames()).toEqual(before);
  });

  it('convert into the database and annot serve --store create a project; the served URL is shown redacted', async () => {
    const served = await serveCli(['--store', url('served'), '--port', '0']);
    try {
      expect(served.stderr()).not.toContain(PASSWORD);
      await eventually(() => served.stderr().includes('serving'), 'the serving line');
      expect(served.stderr()).toContain(':***@');
      const tiers = await fetch(`${served.url}/tiers`);
      expect(tiers.status).toBe(200);
    } finally {
      await served.stop();
    }
    expect(served.stderr()).not.toContain(PASSWORD);
    expect(await projectNames()).toContain(project('served'));
  });

  it('a database or a role that does not exist is a typed one-line error naming it', async () => {
    const noDatabase = new URL(url('talks'));
    noDatabase.pathname = `/annot_no_such_db_${process.pid}`;
    const missingDb = await runCli(['query', noDatabase.toString()]);
    expect(expectOneLineFailure(missingDb, 'ANNOT_STORE_DATABASE_NOT_FOUND', PASSWORD)).toContain(`database "annot_no_such_db_${process.pid}" does not exist`);
    const noRole = withPassword(POSTGRES_URL, `annot_no_such_role_${process.pid}`, PASSWORD, project('talks'));
    const missingRole = await runCli(['validate', noRole]);
    expect(expectOneLineFailure(missingRole, 'ANNOT_STORE_ROLE_NOT_FOUND', PASSWORD)).toContain(`role "annot_no_such_role_${process.pid}" does not exist`);
    await expect(PostgresStore.open(noDatabase.toString())).rejects.toBeInstanceOf(StoreDatabaseNotFoundError);
    await expect(PostgresStore.open(noRole)).rejects.toBeInstanceOf(StoreRoleNotFoundError);
  });

  it('records a failed open on its span without the password', async () => {
    const recorder = recordSpans();
    try {
      const noDatabase = new URL(url('talks'));
      noDatabase.pathname = '/annot_no_such_db_span';
      await expect(withSpan('open', {}, () => PostgresStore.open(`postgres://u:${PASSWORD}@127.0.0.1:1/x`))).rejects.toBeInstanceOf(StoreUnreachableError);
      await expect(withSpan('open', {}, () => PostgresStore.open(`not a url ${noDatabase.toString()}`))).rejects.toThrow(/is not a URL/);
    } finally {
      await recorder.stop();
    }
    const recorded = JSON.stringify(recorder.spans().map((span) => ({ status: span.status, events: span.events, attributes: span.attributes })));
    expect(recorded).toContain('ANNOT_STORE_UNREACHABLE');
    expect(recorded).not.toContain(PASSWORD);
  });
});

describe('PostgreSQL servers that cannot be reached', () => {
  it('a port nobody listens on: connection refused at host:port', async () => {
    const port = await freePort();
    const result = await runCli(['query', `postgres://someone:${PASSWORD}@127.0.0.1:${port}/db?project=x`]);
    expect(expectOneLineFailure(result, 'ANNOT_STORE_UNREACHABLE', PASSWORD)).toContain(`connection refused at 127.0.0.1:${port}`);
  });

  it('a server that accepts and never answers: a timeout after connect_timeout, not a hang', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const result = await runCli(['validate', `postgres://someone:${PASSWORD}@127.0.0.1:${port}/db?project=x&connect_timeout=1`]);
      expect(expectOneLineFailure(result, 'ANNOT_STORE_UNREACHABLE', PASSWORD)).toContain(`no answer from 127.0.0.1:${port} within 1 s`);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('a store URL that does not parse is refused without echoing its password', async () => {
    const result = await runCli(['query', `postgres://someone:${PASSWORD}@[not-a-host/db?project=x`]);
    expectOneLineFailure(result, 'ANNOT_INVALID_INPUT', PASSWORD);
  });
});

const cluster = await startScratchPostgres();

describeWithScratchPostgres('a PostgreSQL cluster that checks passwords (scram-sha-256)', cluster, (pgc) => {
  const { dir, cleanup } = tempDir('annot-pg-auth-');
  beforeAll(async () => {
    await pgc.sql(`CREATE ROLE annot_pw LOGIN PASSWORD '${PASSWORD}'`);
    await pgc.sql('CREATE DATABASE annot_auth OWNER annot_pw');
    await pgc.sql(`CREATE ROLE annot_ro LOGIN PASSWORD '${PASSWORD}'`);
    await pgc.sql('REVOKE CREATE ON SCHEMA public FROM PUBLIC; REVOKE ALL ON DATABASE annot_auth FROM PUBLIC; GRANT CONNECT ON DATABASE annot_auth TO annot_ro', 'annot_auth');
  });
  afterAll(() => {
    pgc.stop();
    cleanup();
  });
  const good = (project: string) => `${pgc.url('annot_pw', PASSWORD, 'annot_auth')}?project=${project}`;

  it('with the right password: convert in, query, validate, convert out; the password is never printed', async () => {
    const into = await runCli(['convert', TALK, good('talks')]);
    expect(into.code).toBe(0);
    const out = join(dir, 'back.vtt');
    const results = [into, await runCli(['query', good('talks')]), await runCli(['validate', good('talks')]), await runCli(['convert', good('talks'), out])];
    for (const result of results) {
      expect(result.code).toBe(0);
      expect(result.stdout + result.stderr).not.toContain(PASSWORD);
      expect(result.stdout + result.stderr).not.toContain(encodeURIComponent(PASSWORD));
    }
    expect(existsSync(out)).toBe(true);
  });

  it('a wrong password, or none, is an authentication failure that shows neither', async () => {
    const wrong = `${pgc.url('annot_pw', WRONG, 'annot_auth')}?project=talks`;
    for (const command of ['query', 'validate']) {
      const line = expectOneLineFailure(await runCli([command, wrong]), 'ANNOT_STORE_AUTH_FAILED', WRONG, encodeURIComponent(WRONG), PASSWORD);
      expect(line).toContain('password authentication failed for role "annot_pw"');
    }
    const none = await runCli(['query', `${pgc.url('annot_pw', null, 'annot_auth')}?project=talks`], { env: { PGPASSWORD: undefined } });
    expect(expectOneLineFailure(none, 'ANNOT_STORE_AUTH_FAILED')).toContain('the URL gives none');
    await expect(PostgresStore.open(wrong)).rejects.toBeInstanceOf(StoreAuthenticationError);
  });

  it('annot serve and annot mcp on a wrong password fail at start, in one line, without it', async () => {
    const wrong = `${pgc.url('annot_pw', WRONG, 'annot_auth')}?project=talks`;
    expectOneLineFailure(await runCli(['serve', '--store', wrong, '--port', '0']), 'ANNOT_STORE_AUTH_FAILED', WRONG, encodeURIComponent(WRONG));
    expectOneLineFailure(await runCli(['mcp', '--store', wrong]), 'ANNOT_STORE_AUTH_FAILED', WRONG, encodeURIComponent(WRONG));
  });

  it('a database that does not exist, and a role that may not create annot\'s schema, are named', async () => {
    const missing = expectOneLineFailure(await runCli(['query', `${pgc.url('annot_pw', PASSWORD, 'annot_nowhere')}?project=x`]), 'ANNOT_STORE_DATABASE_NOT_FOUND', PASSWORD);
    expect(missing).toContain('database "annot_nowhere" does not exist');
    // annot_ro may connect, but not create the schema annot's first write needs.
    const denied = await runCli(['convert', TALK, `${pgc.url('annot_ro', PASSWORD, 'annot_auth')}?project=ro&x=1`]);
    expect(expectOneLineFailure(denied, 'ANNOT_STORE_PERMISSION_DENIED', PASSWORD)).toContain('role "annot_ro" may not do this');
    await expect(PostgresStore.open(`${pgc.url('annot_ro', PASSWORD, 'annot_auth')}?project=ro`)).rejects.toBeInstanceOf(StorePermissionError);
  });

  it('a queued job keeps the password out of Redis, and the worker lends it the one of its own --store', async () => {
    if (await redisProblem()) {
      console.warn('!!! Redis unreachable: the queued-job part of the password test is skipped !!!');
      return;
    }
    const url = good('queued');
    expect((await runCli(['convert', TALK, url])).code).toBe(0);
    const queueName = `annot-test-pw-${process.pid}`;
    const worker = await startProcessorWorker({ queueName, store: url });
    try {
      const jobId = await enqueueProcessorJob({ processor: 'low_confidence_review', store: url, params: {} }, { queueName });
      const queue = new Queue(queueName, { connection: { url: redisUrlFrom() } });
      try {
        const job = await queue.getJob(jobId);
        expect(JSON.stringify(job?.data)).not.toContain(PASSWORD);
        expect(job?.data.store).toBe(`${pgc.url('annot_pw', null, 'annot_auth')}?project=queued`);
      } finally {
        await queue.close();
      }
      let status = await getJobStatus(jobId, { queueName });
      for (const until = Date.now() + 30_000; !['completed', 'failed'].includes(status.state) && Date.now() < until; ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = await getJobStatus(jobId, { queueName });
      }
      expect(status.state).toBe('completed');
    } finally {
      await worker.close();
      await obliterateQueue({ queueName });
    }
  });
});

async function redisProblem(): Promise<string | null> {
  try {
    const redis = await connectRedis(redisUrlFrom());
    await redis.quit();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

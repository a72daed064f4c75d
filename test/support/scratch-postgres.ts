import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A PostgreSQL cluster of its own, started in a temporary folder with password (SCRAM)
 * authentication on loopback: the machine's server may trust every local connection, and then a
 * wrong password is never checked. initdb refuses to run as root, so under root the cluster runs
 * as the `postgres` user. Takes a couple of seconds; `stop()` removes everything.
 */
export interface ScratchPostgres {
  readonly port: number;
  /** `postgres://user:password@127.0.0.1:port/database`, each part URL-encoded. */
  url(user: string, password: string | null, database: string): string;
  /** Runs SQL as the superuser `postgres` (password SUPERUSER_PASSWORD) in the database named. */
  sql(text: string, database?: string): Promise<void>;
  stop(): void;
}

export const SUPERUSER_PASSWORD = 'scratch-Superuser-pw';

/** The cluster, or the reason it cannot be started here (no PostgreSQL binaries, no postgres user under root). */
export async function startScratchPostgres(): Promise<ScratchPostgres | string> {
  const bin = postgresBin();
  if (bin === null) return 'no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql';
  const asRoot = process.getuid?.() === 0;
  if (asRoot && spawnSync('id', ['-u', 'postgres']).status !== 0) return 'running as root and there is no postgres user to run initdb as';
  const dir = mkdtempSync(join(tmpdir(), 'annot-scratch-pg-'));
  const run = (command: string, args: string[]) =>
    asRoot ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' }) : spawnSync(command, args, { encoding: 'utf8' });
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    const passwordFile = join(dir, 'pw');
    writeFileSync(passwordFile, SUPERUSER_PASSWORD + '\n');
    if (asRoot) {
      chmodSync(dir, 0o700);
      const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
      const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
      chownSync(dir, uid, gid);
      chownSync(passwordFile, uid, gid);
    }
    const data = join(dir, 'data');
    const init = run(join(bin, 'initdb'), ['-D', data, '-A', 'scram-sha-256', '-U', 'postgres', `--pwfile=${passwordFile}`, '--no-sync', '--no-instructions']);
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr.trim()}`);
    const port = await freePort();
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c shared_buffers=16MB -c max_connections=30`;
    const start = run(join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
    if (start.status !== 0) throw new Error(`pg_ctl start failed: ${start.stderr.trim() || start.stdout.trim()}`);
    const url = (user: string, password: string | null, database: string) =>
      `postgres://${encodeURIComponent(user)}${password === null ? '' : `:${encodeURIComponent(password)}`}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
    return {
      port,
      url,
      async sql(text, database = 'postgres') {
        const client = new pg.Client(url('postgres', SUPERUSER_PASSWORD, database));
        await client.connect();
        try {
          await client.query(text);
        } finally {
          await client.end();
        }
      },
      stop() {
        run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
        cleanup();
      },
    };
  } catch (error) {
    cleanup();
    return (error as Error).message;
  }
}

function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = join(root, version, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  return null;
}

/** A loopback port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/**
 * A describe block that needs the scratch cluster: skipped LOUDLY, saying why, where it cannot be
 * started (the machine's own server still serves every other PostgreSQL suite).
 */
export function describeWithScratchPostgres(name: string, cluster: ScratchPostgres | string, body: (cluster: ScratchPostgres) => void): void {
  if (typeof cluster !== 'string') {
    describe(name, () => body(cluster));
    return;
  }
  console.warn(`\n!!! no scratch PostgreSQL cluster (${cluster}): SKIPPING "${name}". !!!\n`);
  describe.skip(`${name} (no scratch PostgreSQL cluster)`, () => undefined);
}

import pg from 'pg';

/** The PostgreSQL the database suites use: ANNOT_PG_URL, else the machine's own. */
export const POSTGRES_URL = process.env.ANNOT_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Why PostgreSQL cannot be reached, or null when it can. */
export async function postgresUnreachable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 10_000 }); // a deadline for a busy machine
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * A describe block that needs PostgreSQL: without it, CI fails (the suites must run there) and a
 * developer's run skips LOUDLY, saying what to start.
 */
export function describeWithPostgres(name: string, unreachable: string | null, body: () => void): void {
  if (unreachable === null) {
    describe(name, body);
  } else if (process.env.CI === 'true') {
    describe(name, () => {
      it('needs the PostgreSQL server at ANNOT_PG_URL in CI', () => {
        throw new Error(`PostgreSQL at ${POSTGRES_URL} is unreachable (${unreachable}); CI must run the PostgreSQL tests`);
      });
    });
  } else {
    console.warn(`\n!!! PostgreSQL at ${POSTGRES_URL} is unreachable (${unreachable}): SKIPPING "${name}". Set ANNOT_PG_URL or start PostgreSQL. !!!\n`);
    describe.skip(`${name} (PostgreSQL unreachable)`, body);
  }
}

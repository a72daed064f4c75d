import { fileURLToPath } from 'node:url';
import { PostgresStore } from '../../src/store/postgres.js';
import { describeWithPostgres, POSTGRES_URL, postgresUnreachable } from '../support/postgres.js';
import { runCli } from '../support/run-cli.js';

const TALK = fileURLToPath(new URL('../../fixtures/talk.vtt', import.meta.url));

describeWithPostgres('annot retime on a PostgreSQL project', await postgresUnreachable(), () => {
  const project = `jest-cli-retime-${process.pid}`;
  const url = `${POSTGRES_URL}?project=${project}`;
  afterAll(async () => {
    await (await PostgresStore.open(url)).dropProject(); // closes the store
  });

  const starts = async (): Promise<string[]> => {
    const query = await runCli(['query', url]);
    expect(query.code).toBe(0);
    return query.stdout.trim().split('\n').map((line) => JSON.parse(line).reference.interval.start.s);
  };
  const rows = async () => {
    const store = await PostgresStore.open(url);
    try {
      return { clock: await store.latestClock(), annotations: await store.byTier('cues') };
    } finally {
      await store.close();
    }
  };

  it('retimes the project in place in one op-log batch (--store with --project), and a refusal changes no row', async () => {
    expect((await runCli(['convert', TALK, url, '--tier', 'cues'])).code).toBe(0);
    const before = await rows();
    const shifted = await runCli(['retime', '--store', POSTGRES_URL, '--project', project, '--shift', '2.5']);
    expect(shifted.stderr).toMatch(/^retimed 7 annotations in postgres:\/\/\S+project=jest-cli-retime-\d+: \+2\.5 s\n$/);
    expect(shifted.code).toBe(0);
    expect(await starts()).toEqual(['2.5', '5.75', '10.3', '13.625', '17.5', '21.98', '24.5']);
    const after = await rows();
    const store = await PostgresStore.open(url);
    try {
      const entries = await store.readOpLog({ fromClock: before.clock + 1 });
      expect(entries.map((entry) => [entry.kind, entry.actor])).toEqual(Array(7).fill(['update_annotation', 'cli:retime']));
    } finally {
      await store.close();
    }

    const refused = await runCli(['retime', url, '--shift=-10', '--strict']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--strict refuses to drop it .*\[ANNOT_RETIME_BEFORE_ZERO\]\n$/);
    expect(await rows()).toEqual(after);

    const dropped = await runCli(['retime', url, '--shift=-10', '--json']);
    expect(dropped.code).toBe(0);
    expect(JSON.parse(dropped.stdout)).toMatchObject({ moved: 7, cut: 1, dropped: 1 });
    expect(await starts()).toEqual(['0', '0.3', '3.625', '7.5', '11.98', '14.5']);
  }, 120_000);
});

import { fileURLToPath } from 'node:url';
import { PostgresStore } from '../../src/store/postgres.js';
import { describeWithPostgres, POSTGRES_URL, postgresUnreachable } from '../support/postgres.js';
import { runCli } from '../support/run-cli.js';

const TALK = fileURLToPath(new URL('../../fixtures/talk.vtt', import.meta.url));

describeWithPostgres('annot query on a PostgreSQL project URL', await postgresUnreachable(), () => {
  const project = `jest-cli-query-${process.pid}`;
  const url = `${POSTGRES_URL}?project=${project}`;
  afterAll(async () => {
    await (await PostgresStore.open(url)).dropProject(); // closes the store
  });

  it('reads the project convert wrote, as it reads the file', async () => {
    const into = await runCli(['convert', TALK, url, '--tier', 'cues']);
    expect(into.code).toBe(0);
    const fromDatabase = await runCli(['query', url, '--start', '11.125', '--end', '15']);
    expect(fromDatabase.stderr).toBe('');
    expect(fromDatabase.code).toBe(0);
    const fromFile = await runCli(['query', TALK, '--start', '11.125', '--end', '15']);
    const texts = (stdout: string) => stdout.trim().split('\n').map((line) => JSON.parse(line).body.text);
    expect(texts(fromDatabase.stdout)).toEqual(texts(fromFile.stdout));
    expect(texts(fromDatabase.stdout)).toEqual(['The lamp turned once every twelve seconds.']);

    const typo = await runCli(['query', url, '--tier', 'cue']);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('has no tier "cue"; did you mean "cues"?');
  }, 120_000);
});

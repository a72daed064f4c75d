import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PostgresStore } from '../../src/store/postgres.js';
import { describeWithPostgres, POSTGRES_URL, postgresUnreachable } from '../support/postgres.js';
import { runCli } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';

const EAF = fileURLToPath(new URL('../../fixtures/eaf/all-stereotypes.eaf', import.meta.url));
const TALK = fileURLToPath(new URL('../../fixtures/talk.vtt', import.meta.url));

describeWithPostgres('annot convert to and from a PostgreSQL project', await postgresUnreachable(), () => {
  const { dir, cleanup } = tempDir();
  const projects: string[] = [];
  const projectUrl = (name: string) => {
    const project = `jest-convert-${process.pid}-${name}`;
    projects.push(project);
    return `${POSTGRES_URL}?project=${project}`;
  };
  afterAll(async () => {
    for (const url of projects.map((p) => `${POSTGRES_URL}?project=${p}`)) await (await PostgresStore.open(url)).dropProject();
    cleanup();
  });

  it('moves an ELAN file into the database and back to .annot and EAF without losing tiers, references or values', async () => {
    const url = projectUrl('eaf');
    const into = await runCli(['convert', EAF, url]);
    expect(into.stderr).toContain('10 annotations');
    expect(into.code).toBe(0);

    const store = await PostgresStore.open(url);
    try {
      expect((await store.listTiers()).map((t) => [t.name, t.stereotype, t.parent])).toEqual([
        ['A-utt', 'NONE', null],
        ['A-words', 'TIME_SUBDIVISION', 'A-utt'],
        ['A-gesture', 'INCLUDED_IN', 'A-utt'],
        ['A-morph', 'SYMBOLIC_SUBDIVISION', 'A-words'],
        ['A-translation', 'SYMBOLIC_ASSOCIATION', 'A-utt'],
        ['empty', 'NONE', null],
      ]);
      // The import is in the op-log like any other: one entry per tier, metadata key and annotation.
      const log = await store.readOpLog();
      expect(log.filter((e) => e.kind === 'add_annotation')).toHaveLength(10);
      expect(new Set(log.map((e) => e.actor))).toEqual(new Set(['cli:convert']));
    } finally {
      await store.close();
    }

    const annot = join(dir, 'from-db.annot');
    const out = await runCli(['convert', url, annot, '--to', 'annot']);
    expect(out.code).toBe(0);
    const eaf = join(dir, 'from-db.eaf');
    expect((await runCli(['convert', annot, eaf])).code).toBe(0);
    const original = await runCli(['query', EAF]);
    const back = await runCli(['query', eaf]);
    const strip = (stdout: string) =>
      stdout.trim().split('\n').map((line) => {
        const { tier, reference, body } = JSON.parse(line);
        return { tier, reference: reference.kind === 'media' ? reference.interval : 'symbolic', text: body.text };
      });
    expect(strip(back.stdout)).toEqual(strip(original.stdout));
  });

  it('writes nothing to the database when the input is malformed', async () => {
    const url = projectUrl('broken');
    const broken = join(dir, 'broken.vtt');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(broken, readFileSync(TALK, 'utf8').replace('00:00:07.800 --> 00:00:11.125', '00:00:07.800 -> 00:00:11.125').replace('WEBVTT', 'WEBVTX'));
    const result = await runCli(['convert', broken, url, '--from', 'webvtt']);
    expect(result.code).toBe(1);
    const store = await PostgresStore.open(url);
    try {
      expect(await store.count()).toBe(0);
      expect(await store.latestClock()).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('refuses a second copy of the same annotations as one transaction: the project stays as it was', async () => {
    const url = projectUrl('twice');
    const annot = join(dir, 'talk.annot');
    expect((await runCli(['convert', TALK, annot])).code).toBe(0);
    expect((await runCli(['convert', annot, url])).code).toBe(0);
    const store = await PostgresStore.open(url);
    const before = { count: await store.count(), clock: await store.latestClock() };
    await store.close();
    const again = await runCli(['convert', annot, url]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already in the store.*nothing was written/);
    const after = await PostgresStore.open(url);
    try {
      expect({ count: await after.count(), clock: await after.latestClock() }).toEqual(before);
    } finally {
      await after.close();
    }
  });

  it('retimes on the way in and on the way out, leaving the project itself as it was on the way out', async () => {
    const url = projectUrl('retime');
    const into = await runCli(['convert', TALK, url, '--shift', '1.5']);
    expect(into.code).toBe(0);
    expect(into.stderr).toContain('retimed 7 annotations (+1.5 s)');
    const out = join(dir, 'retimed-from-db.srt');
    const back = await runCli(['convert', url, out, '--shift', '-1.5']);
    expect(back.code).toBe(0);
    expect(back.stderr).toContain('retimed 7 annotations (-1.5 s)');
    // Into the database and out again by the opposite shift: the times are the file's own.
    expect(readFileSync(out, 'utf8')).toContain('1\n00:00:00,000 --> 00:00:03,250\n');
    const store = await PostgresStore.open(url);
    try {
      const starts = [];
      for await (const annotation of store.all()) if (annotation.reference.kind === 'media') starts.push(annotation.reference.interval.start.toSecondsString());
      expect(starts[0]).toBe('1.5');
    } finally {
      await store.close();
    }
  });
});

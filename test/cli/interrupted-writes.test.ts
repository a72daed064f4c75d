import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveCli } from '../support/serve-cli.js';
import { companionsOf, integrityOf, runToEnd, sizeOf, srtOfCues, startCli, temporariesIn, waitFor, type RunningCli } from '../support/file-safety.js';
import { tempDir } from '../support/sample-annot.js';

// Ctrl-C, SIGTERM and kill -9 in the middle of a write. Each case waits for the event that proves
// the write is under way (its temporary file appears, or grows), freezes the child with SIGSTOP so
// the signal lands mid-write whatever the machine's speed, sends the signal, lets the child go on,
// and then looks at the folder: the target as it was, and no temporary left behind.

const BIG_CUES = 150_000;

describe('interrupted writes leave no temporary file, and say so', () => {
  const { dir, cleanup } = tempDir('annot-interrupt-');
  afterAll(cleanup);
  const big = join(dir, 'big.srt');
  beforeAll(() => writeFileSync(big, srtOfCues(BIG_CUES)));
  let n = 0;
  const folder = () => {
    const path = join(dir, `case-${n++}`);
    mkdirSync(path);
    return path;
  };

  /** Freezes the child once `ready` holds, sends `signal`, lets it go on, and waits for its exit. */
  async function interrupt(running: RunningCli, ready: () => boolean, what: string, signal: NodeJS.Signals) {
    await waitFor(ready, what);
    running.child.kill('SIGSTOP');
    running.child.kill(signal);
    running.child.kill('SIGCONT');
    return running.exited;
  }

  const writing = (path: string, name: string) => () => readdirSync(path).some((entry) => entry.startsWith(`.${name}.`) && sizeOf(join(path, entry)) > 0);

  it.each([
    ['SIGINT', 'vtt', 130],
    ['SIGTERM', 'vtt', 143],
    ['SIGINT', 'annot', 130],
    ['SIGTERM', 'textgrid', 143],
  ] as const)('%s during a conversion into .%s: exit %i, "interrupted: nothing written", the old file as it was', async (signal, extension, status) => {
    const out = folder();
    const target = join(out, `big.${extension}`);
    writeFileSync(target, 'the previous output, kept');
    const running = startCli(['convert', big, target]);
    running.child.stdin.end();
    const ended = await interrupt(running, writing(out, `big.${extension}`), 'the conversion writing its temporary file', signal);
    expect(ended).toEqual({ code: status, signal: null });
    expect(running.stderr()).toBe('annot: interrupted: nothing written\n');
    expect(readdirSync(out)).toEqual([`big.${extension}`]);
    expect(readFileSync(target, 'utf8')).toBe('the previous output, kept');
  });

  it('SIGTERM during a conversion to standard output removes its scratch folder', async () => {
    const scratch = folder();
    const running = startCli(['convert', big, '-', '--to', 'vtt'], { env: { TMPDIR: scratch } });
    running.child.stdin.end();
    const spooling = () => readdirSync(scratch).some((entry) => entry.startsWith('annot-convert-') && sizeOf(join(scratch, entry, 'out.vtt')) > 0);
    const ended = await interrupt(running, spooling, 'the conversion writing its scratch copy', 'SIGTERM');
    expect(ended).toEqual({ code: 143, signal: null });
    expect(running.stderr()).toBe('annot: interrupted\n');
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('SIGINT while standard input is still arriving removes the spooled copy', async () => {
    const scratch = folder();
    const out = folder();
    const running = startCli(['convert', '-', join(out, 'x.vtt'), '--from', 'srt'], { env: { TMPDIR: scratch } });
    running.child.stdin.write(srtOfCues(1000));
    const spooled = () => readdirSync(scratch).some((entry) => sizeOf(join(scratch, entry, 'stdin')) > 0);
    const ended = await interrupt(running, spooled, 'standard input being spooled', 'SIGINT');
    expect(ended).toEqual({ code: 130, signal: null });
    expect(readdirSync(scratch)).toEqual([]);
    expect(readdirSync(out)).toEqual([]);
  });

  it('kill -9 leaves the temporary; the next write of the same target removes it and writes the file', async () => {
    const out = folder();
    const target = join(out, 'big.annot');
    const running = startCli(['convert', big, target]);
    running.child.stdin.end();
    await interrupt(running, writing(out, 'big.annot'), 'the conversion writing its temporary file', 'SIGKILL');
    const left = temporariesIn(out);
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((name) => name.startsWith(`.big.annot.${running.child.pid}.`))).toBe(true);
    writeFileSync(join(out, 'small.srt'), srtOfCues(10));
    const again = await runToEnd(['convert', join(out, 'small.srt'), target]);
    expect(again).toMatchObject({ code: 0, stderr: `wrote ${target} (annot): 10 annotations in 1 tier\n` });
    expect(temporariesIn(out)).toEqual([]);
    expect(companionsOf(target)).toEqual([]);
    expect(integrityOf(target)).toBe('ok');
  });

  it("a temporary is another run's only while its pid lives and started before the temporary was written", async () => {
    const out = folder();
    writeFileSync(join(out, 'small.srt'), srtOfCues(3));
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    const names = {
      // This test's own process: alive, and started before the file was written: a writer at work.
      live: `.x.vtt.${process.pid}.0badc0de.tmp`,
      // The same pid, but the file is older than the process: the pid was reused, the writer is gone.
      reused: `.x.vtt.${process.pid}.00c0ffee.tmp`,
      // A process that has exited.
      dead: `.x.vtt.${gone}.deadbeef.tmp`,
      deadJournal: `.x.vtt.${gone}.deadbeef.tmp-journal`,
      // Another target's temporary, and a file that only looks like one.
      otherTarget: `.y.vtt.${gone}.deadbeef.tmp`,
      notOurs: `.x.vtt.notapid.tmp`,
    };
    for (const name of Object.values(names)) writeFileSync(join(out, name), 'partial');
    const longAgo = new Date('2001-01-01T00:00:00Z');
    utimesSync(join(out, names.reused), longAgo, longAgo);
    const converted = await runToEnd(['convert', join(out, 'small.srt'), join(out, 'x.vtt')]);
    expect(converted.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual([names.live, names.notOurs, names.otherTarget, 'small.srt', 'x.vtt'].sort());
  });

  it("annot serve's next save removes a temporary a killed save left beside the served file", async () => {
    const out = folder();
    const vtt = join(out, 'talk.vtt');
    writeFileSync(vtt, 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhello\n');
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(join(out, `.talk.vtt.${gone}.0123abcd.tmp`), 'WEBVTT\n\npartial');
    const served = await serveCli([vtt, '--save-delay', '0']);
    try {
      const created = await fetch(`${served.url}/annotations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tier: 'cues', reference: { kind: 'media', asset_id: 'webvtt:unspecified', interval: { start: { v: 3, r: 1 }, end: { v: 4, r: 1 } } }, body: { text: 'again' }, body_schema_uri: 'annot://schema/label/v1' }),
      });
      expect(created.status).toBe(201);
      await waitFor(() => served.stderr().includes('annot serve: saved'), 'the save');
      expect(readdirSync(out)).toEqual(['talk.vtt']);
      expect(readFileSync(vtt, 'utf8')).toContain('again');
    } finally {
      await served.stop('SIGTERM');
    }
    expect(existsSync(join(out, `.talk.vtt.${gone}.0123abcd.tmp`))).toBe(false);
  });
});

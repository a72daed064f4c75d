import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { toneWav } from '../live/browser.js';
import { connectTools } from '../mcp/mcp-client.js';
import { runCli } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';
import { eventually, serveCli } from '../support/serve-cli.js';

// `annot serve FILE` on a file in another format than .annot: the built CLI in a child process,
// edits over real HTTP, and the file on disk read back.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TALK = join(ROOT, 'fixtures/talk.vtt');

interface Wire {
  id: string;
  reference: { interval: { start: { v: number; r: number }; end: { v: number; r: number } } };
  body: Record<string, unknown>;
}

const cue = (start: number, end: number, text: string, extra: Record<string, unknown> = {}) => ({
  tier: 'cues',
  reference: { kind: 'media', asset_id: 'webvtt:unspecified', interval: { start: { v: start, r: 1 }, end: { v: end, r: 1 } } },
  body: { text },
  body_schema_uri: 'annot://schema/label/v1',
  ...extra,
});

async function call(url: string, method: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, etag: response.headers.get('etag'), json: text === '' ? undefined : JSON.parse(text) };
}

describe('annot serve FILE.vtt (any format, saved back)', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);
  let n = 0;
  const copyOfTalk = () => {
    const folder = join(dir, `case-${n++}`);
    mkdirSync(folder);
    const path = join(folder, 'talk.vtt');
    copyFileSync(TALK, path);
    return path;
  };

  it('says what a save drops, and writes an annotation added over HTTP to the .vtt, then a retime', async () => {
    const file = copyOfTalk();
    const served = await serveCli([file]);
    try {
      expect(served.stderr()).toContain(`edits are saved back to ${file} (webvtt); webvtt keeps no provenance, no annotation ids; --no-save keeps them in memory only`);
      const added = await call(`${served.url}/annotations`, 'POST', cue(27, 29, 'added over HTTP', { confidence: 0.5 }));
      expect(added.status).toBe(201);
      await eventually(() => readFileSync(file, 'utf8').includes('00:00:27.000 --> 00:00:29.000\nadded over HTTP\n'), 'the new cue in talk.vtt');
      // What the format could not keep of that edit is told once, at the save that met it.
      await eventually(() => served.stderr().includes(`${file} keeps no confidence: dropped for 1 annotation in the saved file`), 'the confidence loss on stderr');

      const current = await call(`${served.url}/annotations/${added.json.id}`, 'GET');
      const retimed = await call(`${served.url}/annotations/${added.json.id}`, 'PATCH', { reference: { kind: 'media', asset_id: 'webvtt:unspecified', interval: { start: { v: 30, r: 1 }, end: { v: 63, r: 2 } } } }, { 'if-match': current.etag! });
      expect(retimed.status).toBe(200);
      await eventually(() => readFileSync(file, 'utf8').includes('00:00:30.000 --> 00:00:31.500\nadded over HTTP\n'), 'the retimed cue in talk.vtt');
      expect(readFileSync(file, 'utf8')).not.toContain('00:00:27.000');
      // The cues the file had are all still there, and it reads back as a valid WebVTT file.
      const validated = await runCli(['validate', file]);
      expect(validated.code).toBe(0);
      expect(validated.stdout).toContain('8 annotations in 1 tier');
    } finally {
      expect(await served.stop()).toEqual({ code: 0, signal: null });
    }
  });

  it('saves an annotation an agent adds over MCP (--mcp) like any other edit', async () => {
    const file = copyOfTalk();
    const served = await serveCli([file, '--mcp']);
    const tools = await connectTools(new StreamableHTTPClientTransport(new URL('/mcp', served.url)));
    try {
      await tools.ok('add_annotation', { tier: 'cues', asset_id: 'webvtt:unspecified', start_seconds: 27, end_seconds: '00:00:29.500', body: { text: 'added by an agent' }, actor: 'agent:test' });
      await eventually(() => readFileSync(file, 'utf8').includes('00:00:27.000 --> 00:00:29.500\nadded by an agent\n'), 'the agent\'s cue in talk.vtt');
    } finally {
      await tools.close();
      expect(await served.stop()).toEqual({ code: 0, signal: null });
    }
  });

  it('with --no-save keeps the edits in memory and leaves the file byte-identical', async () => {
    const file = copyOfTalk();
    const before = readFileSync(file);
    const served = await serveCli([file, '--no-save', '--save-delay', '0']);
    expect(served.stderr()).toContain(`edits stay in memory (--no-save): ${file} is not written`);
    expect((await call(`${served.url}/annotations`, 'POST', cue(27, 29, 'in memory only'))).status).toBe(201);
    const listed = await call(`${served.url}/annotations?start=27&end=30`, 'GET');
    expect((listed.json as Wire[]).map((a) => a.body.text)).toEqual(['in memory only']);
    expect(await served.stop('SIGINT')).toEqual({ code: 0, signal: null });
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('writes a save still pending on SIGTERM before it exits', async () => {
    const file = copyOfTalk();
    const before = readFileSync(file);
    // Ten minutes: the save is surely still waiting when the signal comes.
    const served = await serveCli([file, '--save-delay', '600000']);
    expect((await call(`${served.url}/annotations`, 'POST', cue(27, 29, 'saved at shutdown'))).status).toBe(201);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(await served.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(readFileSync(file, 'utf8')).toContain('00:00:27.000 --> 00:00:29.000\nsaved at shutdown\n');
    expect(served.stderr()).toContain('saving the last edits');
  });

  it('reports a failed save on stderr, keeps the edit in memory, and saves it with the next edit once it can', async () => {
    const file = copyOfTalk();
    const served = await serveCli([file, '--save-delay', '0']);
    try {
      // A directory where the file was: the rename onto it fails (as root, permissions would not).
      rmSync(file);
      mkdirSync(file);
      writeFileSync(join(file, 'keep'), '');
      expect((await call(`${served.url}/annotations`, 'POST', cue(27, 29, 'first'))).status).toBe(201);
      await eventually(() => /could not save the edits up to clock 1 as webvtt: .*the edits stay in memory.*\[ANNOT_SAVE_FAILED\]/.test(served.stderr()), 'the failure on stderr');
      expect(((await call(`${served.url}/annotations?start=27&end=30`, 'GET')).json as Wire[]).map((a) => a.body.text)).toEqual(['first']);

      rmSync(file, { recursive: true });
      expect((await call(`${served.url}/annotations`, 'POST', cue(30, 31, 'second'))).status).toBe(201);
      await eventually(() => existsSync(file) && readFileSync(file, 'utf8').includes('second'), 'the next save');
      const text = readFileSync(file, 'utf8');
      expect(text).toContain('00:00:27.000 --> 00:00:29.000\nfirst\n');
      expect(text).toContain('Good evening, and welcome to the harbour.');
    } finally {
      expect(await served.stop()).toEqual({ code: 0, signal: null });
    }
  });

  it('does not save over a file another program changed: refuses, says so once, keeps the edits, writes them beside it at SIGTERM and exits 1', async () => {
    const file = copyOfTalk();
    const beside = file.replace(/\.vtt$/, '.unsaved.vtt');
    const served = await serveCli([file, '--save-delay', '0']);
    expect((await call(`${served.url}/annotations`, 'POST', cue(27, 29, 'saved first'))).status).toBe(201);
    await eventually(() => readFileSync(file, 'utf8').includes('\nsaved first\n'), 'the first edit in talk.vtt');

    // Another writer replaces the file (an editor saving its own version).
    const theirs = `${readFileSync(TALK, 'utf8')}\n00:01:00.000 --> 00:01:02.000\nwritten elsewhere\n`;
    writeFileSync(file, theirs);
    expect((await call(`${served.url}/annotations`, 'POST', cue(30, 31, 'refused save'))).status).toBe(201);
    await eventually(() => served.stderr().includes('[ANNOT_FILE_CHANGED_ON_DISK]'), 'the refusal on stderr');
    const line = served.stderr().split('\n').find((text) => text.includes('ANNOT_FILE_CHANGED_ON_DISK'))!;
    expect(line).toMatch(new RegExp(`^annot serve: ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} was changed on disk by another program since annot serve saved it \\(edits up to clock 1\\) \\(\\d+ → \\d+ bytes, modified .*\\), so the edits up to clock 2 are not saved over it; they stay in memory, .*Stop the server \\(Ctrl-C\\) to write them to .*talk\\.unsaved\\.vtt instead`));
    expect(readFileSync(file, 'utf8')).toBe(theirs);
    // Still refused with the next edit, and told once; the edits are served from memory.
    expect((await call(`${served.url}/annotations`, 'POST', cue(32, 33, 'also in memory'))).status).toBe(201);
    expect(((await call(`${served.url}/annotations?start=27&end=40`, 'GET')).json as Wire[]).map((a) => a.body.text)).toEqual(['saved first', 'refused save', 'also in memory']);

    const stopped = await served.stop('SIGTERM');
    expect(stopped.code).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe(theirs);
    expect(served.stderr().split('\n').filter((text) => text.includes('ANNOT_FILE_CHANGED_ON_DISK') && text.startsWith('annot serve:'))).toHaveLength(1);
    expect(served.stderr()).toContain(`${file} was changed on disk by another program, so the edits up to clock 3 were not saved over it: they are in ${beside}`);
    const kept = readFileSync(beside, 'utf8');
    for (const text of ['saved first', 'refused save', 'also in memory', 'Good evening, and welcome to the harbour.']) expect(kept).toContain(text);
    expect(kept).not.toContain('written elsewhere');
  });

  it('saves over a file that was only touched, or put back as it was saved', async () => {
    const file = copyOfTalk();
    const served = await serveCli([file, '--save-delay', '0']);
    try {
      const later = new Date(Date.now() + 60_000);
      utimesSync(file, later, later);
      expect((await call(`${served.url}/annotations`, 'POST', cue(27, 29, 'after a touch'))).status).toBe(201);
      await eventually(() => readFileSync(file, 'utf8').includes('\nafter a touch\n'), 'the save after a touch');

      const saved = readFileSync(file);
      writeFileSync(file, 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nsomeone else\n');
      expect((await call(`${served.url}/annotations`, 'POST', cue(30, 31, 'waits'))).status).toBe(201);
      await eventually(() => served.stderr().includes('[ANNOT_FILE_CHANGED_ON_DISK]'), 'the refusal');
      writeFileSync(file, saved);
      expect((await call(`${served.url}/annotations`, 'POST', cue(32, 33, 'saved again'))).status).toBe(201);
      await eventually(() => readFileSync(file, 'utf8').includes('\nsaved again\n'), 'the save once the file is back');
      expect(readFileSync(file, 'utf8')).toContain('\nwaits\n');
    } finally {
      expect(await served.stop()).toEqual({ code: 0, signal: null });
    }
  });

  it('plays the media file named like the served file, when nothing else names one', async () => {
    const file = copyOfTalk();
    const wav = toneWav(1);
    writeFileSync(file.replace(/\.vtt$/, '.wav'), wav);
    const served = await serveCli([file, '--no-save']);
    try {
      expect(served.stderr()).toContain(`the page plays ${file.replace(/\.vtt$/, '.wav')} (named like ${file}; --media chooses another)`);
      const media = await fetch(`${served.url}/media`);
      expect(media.status).toBe(200);
      expect(Buffer.from(await media.arrayBuffer()).equals(wav)).toBe(true);
    } finally {
      await served.stop();
    }
  });

  it('refuses a malformed file with its file and line, and a missing one that is not .annot, exiting 1', async () => {
    const bad = join(dir, 'bad.vtt');
    writeFileSync(bad, 'NOT A VTT\n\n00:00:01.000 --> 00:00:02.000\nhello\n');
    const malformed = await runCli(['serve', bad]);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain(`annot: ${bad}:1:1: expected the WebVTT signature "WEBVTT" at the start of the file`);
    expect(malformed.stdout).toBe('');

    const truncated = join(dir, 'truncated.eaf');
    writeFileSync(truncated, readFileSync(join(ROOT, 'fixtures/tour/interview.eaf')).subarray(0, 400));
    const cut = await runCli(['serve', truncated]);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(new RegExp(`^annot: ${truncated.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3:\\d+ .*\\[ANNOT_FORMAT_PARSE\\]`, 'm'));

    const missing = await runCli(['serve', join(dir, 'missing.vtt')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`annot: ${join(dir, 'missing.vtt')}: no such file (annot serve creates a missing file only when its name ends in .annot) [ANNOT_NOT_FOUND]`);
    expect(existsSync(join(dir, 'missing.vtt'))).toBe(false);

    const noFile = await runCli(['serve', '--from', 'webvtt']);
    expect(noFile.code).toBe(1);
    expect(noFile.stderr).toContain('--from names the format of the FILE to serve; give a file');
  });

  it('reads a file whose extension says nothing with --from (or by its content)', async () => {
    const file = join(dir, 'talk.txt');
    copyFileSync(TALK, file);
    const served = await serveCli([file, '--from', 'vtt', '--save-delay', '0']);
    try {
      expect(served.stderr()).toContain(`edits are saved back to ${file} (webvtt)`);
      expect((await call(`${served.url}/annotations`, 'POST', cue(27, 29, 'in a .txt'))).status).toBe(201);
      await eventually(() => readFileSync(file, 'utf8').includes('\nin a .txt\n'), 'the cue in talk.txt');
    } finally {
      expect(await served.stop()).toEqual({ code: 0, signal: null });
    }
  });

  it('still creates a missing .annot file and refuses --no-save for it', async () => {
    const annot = join(dir, 'new.annot');
    const refused = await runCli(['serve', annot, '--no-save']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--no-save is for files in other formats');
    const served = await serveCli([annot]);
    expect(existsSync(annot)).toBe(true);
    expect(await served.stop()).toEqual({ code: 0, signal: null });
  });
});

import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';

/**
 * A file that is not what its name says (issue 21): read as its extension asks, but told what the
 * content looks like and the flag that reads it, as a warning (so --strict refuses) and after
 * the reader's error when it fails.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const TALK = join(ROOT, 'fixtures', 'talk.vtt');
const EAF = join(ROOT, 'fixtures', 'eaf', 'all-stereotypes.eaf');
const TEXTGRID = join(ROOT, 'fixtures', 'textgrid', 'mfa_michael.TextGrid');
const SRT = '1\n00:00:01,000 --> 00:00:02,000\nhello\n';

describe('a file whose content looks like another format than its extension says', () => {
  const { dir, cleanup } = tempDir('annot-mismatch-');
  afterAll(cleanup);
  const file = (name: string, from: string | { text: string }): string => {
    const path = join(dir, name);
    if (typeof from === 'string') copyFileSync(from, path);
    else writeFileSync(path, from.text);
    return path;
  };
  const convert = async (path: string, ...flags: string[]) => {
    const out = join(dir, `out-${Math.random().toString(36).slice(2)}.annot`);
    const result = await runCli(['convert', path, out, ...flags]);
    return { ...result, wrote: existsSync(out) };
  };

  it('WebVTT in a .srt: read as SRT, with a warning that names WebVTT and --from vtt before what the SRT reader dropped', async () => {
    const path = file('talk.srt', TALK);
    const result = await convert(path);
    expect(result.code).toBe(0);
    const lines = result.stderr.split('\n');
    expect(lines[0]).toBe(`${path}: warning: the content looks like WebVTT, not SRT: read as SRT because of its extension; --from vtt (?format=webvtt over HTTP) reads it as WebVTT [content_mismatch]`);
    expect(lines[1]).toContain('[block_dropped]');
    expect((await convert(path, '--strict')).code).toBe(1);
    // As told: --from vtt reads it, with nothing to say.
    const asked = await convert(path, '--from', 'vtt');
    expect([asked.code, asked.stderr.includes('warning')]).toEqual([0, false]);
  });

  it('JSON in a .eaf: the error says what was expected and that the content is JSON', async () => {
    const path = file('plain.eaf', { text: '{"annotations": [1, 2]}\n' });
    const result = await convert(path);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`annot: ${path}:1:1: expected an XML element ("<ANNOTATION_DOCUMENT ...>") (this looks like JSON) [ANNOT_FORMAT_PARSE]`);
    expect(result.wrote).toBe(false);
  });

  it('OpenTimelineIO in a .eaf: the error names the format and the flag', async () => {
    const path = file('timeline.eaf', { text: '{"OTIO_SCHEMA": "Timeline.1", "tracks": {"OTIO_SCHEMA": "Stack.1", "children": []}}\n' });
    const result = await convert(path);
    expect(result.stderr).toContain(`annot: ${path}:1:1: expected an XML element ("<ANNOTATION_DOCUMENT ...>") (this looks like OpenTimelineIO: use --from otio (?format=otio over HTTP)) [ANNOT_FORMAT_PARSE]`);
  });

  it('SRT in a .vtt: the WebVTT signature error says it looks like SRT and to use --from srt', async () => {
    const path = file('subs.vtt', { text: SRT });
    const result = await convert(path);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`annot: ${path}:1:1: expected the WebVTT signature "WEBVTT" at the start of the file, found "1" (this looks like SRT: use --from srt (?format=srt over HTTP)) [ANNOT_FORMAT_PARSE]`);
  });

  it('XML in a .json: the format cannot be told, and the message names the one the content looks like', async () => {
    const path = file('interview.json', EAF);
    const result = await convert(path);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`it could be web_annotation or jams or label_studio but its content matches none (its content looks like ELAN EAF: use --from eaf (?format=eaf over HTTP))`);
  });

  it('a TextGrid in a .txt (an extension no format claims): read by its content, nothing to say', async () => {
    const result = await convert(file('grid.txt', TEXTGRID));
    expect([result.code, result.stderr.includes('warning')]).toEqual([0, false]);
    expect(result.stderr).toContain('21 annotations in 2 tiers');
  });

  it.each([
    ['a TextGrid in a .srt', 'grid.srt', TEXTGRID, 'expected a sequence number or a timing line', 'this looks like Praat TextGrid: use --from textgrid'],
    ['SRT in a .TextGrid', 'subs.TextGrid', { text: SRT }, 'expected the file type "ooTextFile", found number "1"', 'this looks like SRT: use --from srt'],
    ['EAF in a .vtt', 'interview.vtt', EAF, 'expected the WebVTT signature "WEBVTT"', 'this looks like ELAN EAF: use --from eaf'],
    ['WebVTT in a .TextGrid', 'talk.TextGrid', TALK, 'expected the file type "ooTextFile"', 'this looks like WebVTT: use --from vtt'],
  ])('%s', async (_, name, from, expected, hint) => {
    const path = file(name, from);
    const result = await convert(path);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[content_mismatch]');
    expect(result.stderr).toMatch(new RegExp(`^annot: ${path.replace(/\./g, '\\.')}:\\d+:\\d+: ${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.* \\(${hint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(\\?format=\\w+ over HTTP\\)\\) \\[ANNOT_FORMAT_PARSE\\]$`, 'm'));
  });

  it('validate lists the mismatch as a warning finding', async () => {
    const result = await runCli(['validate', file('listed.srt', TALK), '--format', 'json']);
    expect(JSON.parse(result.stdout).findings[0]).toMatchObject({ code: 'content_mismatch', severity: 'warning' });
  });
});

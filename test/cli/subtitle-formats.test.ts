import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';
import { serveCli } from '../support/serve-cli.js';

/** ASS/SSA, TTML/IMSC/DFXP and SBV on the command line: list-formats, convert, validate and serve. */
const fixture = (...path: string[]): string => fileURLToPath(new URL(`../../fixtures/${path.join('/')}`, import.meta.url));

describe('the subtitle formats of issue 22 in the CLI', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it('list-formats lists ass (ssa), ttml (dfxp, imsc) and sbv with their extensions', async () => {
    const json = await runCli(['list-formats', '--json']);
    const formats = JSON.parse(json.stdout) as Array<{ name: string; extensions: string[]; aliases: string[]; media_types: string[] }>;
    const byName = Object.fromEntries(formats.map((format) => [format.name, format]));
    expect(byName.ass).toMatchObject({ extensions: ['.ass', '.ssa'], aliases: ['ssa'], media_types: ['text/x-ssa', 'text/x-ass'] });
    expect(byName.ttml).toMatchObject({ extensions: ['.ttml', '.dfxp', '.xml'], aliases: ['dfxp', 'imsc'], media_types: ['application/ttml+xml'] });
    expect(byName.sbv).toMatchObject({ extensions: ['.sbv'], aliases: [] });
    const text = await runCli(['list-formats']);
    expect(text.stdout).toMatch(/^ttml\s+\.ttml, \.dfxp, \.xml\s+\(also: dfxp, imsc\)$/m);
  });

  it('converts ASS to SRT, TTML to WebVTT and SBV to SRT, by extension and by alias', async () => {
    const srt = join(dir, 'features.srt');
    const fromAss = await runCli(['convert', fixture('ass', 'features.ass'), srt]);
    expect(fromAss.code).toBe(0);
    expect(fromAss.stderr).toContain('wrote');
    expect(readFileSync(srt, 'utf8')).toMatch(/^1\n00:00:01,000 --> 00:00:03,500\nWhere were you, <i>exactly<\/i>\?\n\n2\n/);
    const vtt = await runCli(['convert', fixture('ttml', 'features.ttml'), '-', '--to', 'vtt']);
    expect(vtt.code).toBe(0);
    expect(vtt.stdout).toContain('c1\n00:00:01.000 --> 00:00:03.500\n<v Mara Lind>Where were you, <i>exactly</i>?\n');
    const sbv = await runCli(['convert', '-', '-', '--from', 'sbv', '--to', 'srt'], { input: '0:00:01.000,0:00:03.500\nHello\n' });
    expect(sbv.stdout).toBe('1\n00:00:01,000 --> 00:00:03,500\nHello\n\n');
    const dfxp = await runCli(['convert', '-', '-', '--from', 'ssa', '--to', 'dfxp'], { input: readFileSync(fixture('ass', 'pysubs2', 'simple.ssa')) });
    expect(dfxp.code).toBe(0);
    expect(dfxp.stdout).toContain('ttp:contentProfiles="http://www.w3.org/ns/ttml/profile/imsc1.1/text"');
  });

  it('ASS -> .annot -> ASS gives the file back byte for byte; TTML -> .annot -> TTML keeps every paragraph', async () => {
    const annot = join(dir, 'features.annot');
    expect((await runCli(['convert', fixture('ass', 'features.ass'), annot])).code).toBe(0);
    const back = join(dir, 'features-back.ass');
    expect((await runCli(['convert', annot, back])).code).toBe(0);
    expect(readFileSync(back, 'utf8')).toBe(readFileSync(fixture('ass', 'features.ass'), 'utf8').replace(/^\ufeff/, ''));
    const ttmlAnnot = join(dir, 'features-ttml.annot');
    expect((await runCli(['convert', fixture('ttml', 'features.ttml'), ttmlAnnot])).code).toBe(0);
    const ttml = await runCli(['convert', ttmlAnnot, '-', '--to', 'ttml']);
    expect(ttml.stdout.match(/<p /g)).toHaveLength(6);
    expect(ttml.stdout).toContain('<p begin="2000t" end="7001t" xml:id="c1" region="bottom" style="base" ttm:agent="mara">Where were you,\n        <span style="quiet">exactly</span>?</p>');
  });

  it('reads a .xml file as TTML only when its content is TTML', async () => {
    const ttml = join(dir, 'captions.xml');
    copyFileSync(fixture('ttml', 'pysubs2', 'ttml_example.ttml'), ttml);
    const asTtml = await runCli(['convert', ttml, join(dir, 'captions.srt')]);
    expect(asTtml.stderr).toContain('(srt): 11 annotations');
    const eaf = join(dir, 'elan.xml');
    copyFileSync(fixture('eaf', 'all-stereotypes.eaf'), eaf);
    const asEaf = await runCli(['convert', eaf, join(dir, 'elan.annot')]);
    expect(asEaf.code).toBe(0);
    const other = join(dir, 'other.xml');
    writeFileSync(other, '<?xml version="1.0"?><config/>');
    const neither = await runCli(['convert', other, join(dir, 'other.srt')]);
    expect(neither.code).toBe(1);
    expect(neither.stderr).toContain('cannot tell the format of');
  });

  it('validate reports an ASS event that ends before it starts, with its line, and passes a clean TTML document', async () => {
    const broken = join(dir, 'broken.ass');
    writeFileSync(broken, '[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:02.00,0:00:01.00,Default,,0,0,0,,backwards\n');
    const result = await runCli(['validate', broken]);
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toMatch(/broken\.ass:6:1: error: cue ends at 0:00:01\.00, before its start 0:00:02\.00; read as a point at its start \[cue_end_before_start\]/);
    expect((await runCli(['validate', fixture('ttml', 'features.ttml')])).code).toBe(0);
    expect((await runCli(['validate', fixture('sbv', 'webvtt-py', 'two_captions.sbv')])).code).toBe(0);
  });

  it('serves an ASS file and saves an edit back as ASS, the other events untouched', async () => {
    const file = join(dir, 'served.ass');
    copyFileSync(fixture('ass', 'features.ass'), file);
    const served = await serveCli([file, '--port', '0']);
    try {
      const annotations = (await (await fetch(`${served.url}/annotations`)).json()) as Array<{ id: string; body: Record<string, unknown> }>;
      expect(annotations).toHaveLength(7);
      const first = annotations[0];
      const response = await fetch(`${served.url}/annotations/${first.id}`);
      const etag = response.headers.get('etag') as string;
      const patched = await fetch(`${served.url}/annotations/${first.id}`, { method: 'PATCH', headers: { 'content-type': 'application/json', 'if-match': etag }, body: JSON.stringify({ body: { ...first.body, text: 'Where were you?', raw: 'Where were you?' } }) });
      expect(patched.status).toBe(200);
    } finally {
      await served.stop();
    }
    const saved = readFileSync(file, 'utf8');
    expect(saved).toContain('Dialogue: 0,0:00:01.00,0:00:03.50,Default,Mara,0,0,0,,Where were you?\n');
    expect(saved).toContain('Dialogue: 1,0:00:03.50,0:00:06.25,Default,Joe,12,34,56,Banner;20,{\\an8\\pos(320,40)}On the roof\\Nall night\n');
  });
});

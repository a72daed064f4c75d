import { runCli } from '../support/run-cli.js';

describe('annot list-formats', () => {
  it('lists every registered format with its extensions and description', async () => {
    const result = await runCli(['list-formats']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^annot\s+\.annot$/m);
    expect(result.stdout).toContain('Lossless');
  });

  it('prints JSON with --json', async () => {
    const result = await runCli(['list-formats', '--json']);
    expect(result.code).toBe(0);
    const formats = JSON.parse(result.stdout) as Array<{ name: string; extensions: string[]; description: string }>;
    expect(formats.find((f) => f.name === 'annot')).toMatchObject({ extensions: ['.annot'], media_types: ['application/x-annot+sqlite'] });
    for (const format of formats) expect(format.description.length).toBeGreaterThan(20);
  });
});

describe('format aliases', () => {
  it('are shown by list-formats', async () => {
    const result = await runCli(['list-formats', '--json']);
    const formats = JSON.parse(result.stdout) as Array<{ name: string; aliases: string[] }>;
    const aliases = Object.fromEntries(formats.map((f) => [f.name, f.aliases]));
    expect(aliases).toMatchObject({
      webvtt: ['vtt'],
      textgrid: expect.arrayContaining(['tg', 'praat']),
      eaf: ['elan'],
      label_studio: expect.arrayContaining(['ls']),
      web_annotation: expect.arrayContaining(['wa', 'w3c']),
      otio: [],
      jams: [],
      ass: ['ssa'],
      ttml: ['dfxp', 'imsc'],
      sbv: [],
    });
    const text = await runCli(['list-formats']);
    expect(text.stdout).toMatch(/^webvtt\s+\.vtt\s+\(also: vtt\)$/m);
  });

  it('are accepted by --from and --to', async () => {
    const vtt = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhello\n';
    const toPraat = await runCli(['convert', '-', '-', '--from', 'vtt', '--to', 'praat'], { input: vtt });
    expect(toPraat.code).toBe(0);
    expect(toPraat.stdout).toContain('ooTextFile');
    const toW3c = await runCli(['convert', '-', '-', '--from', 'VTT', '--to', 'w3c'], { input: vtt });
    expect(toW3c.code).toBe(0);
    expect(JSON.parse(toW3c.stdout)).toBeTruthy();
  }, 90_000);

  it('are listed beside the names when a name is unknown', async () => {
    const result = await runCli(['convert', '-', '-', '--from', 'vtx', '--to', 'srt'], { input: 'WEBVTT\n' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('unknown format "vtx"');
    expect(result.stderr).toContain('webvtt (vtt)');
  });
});

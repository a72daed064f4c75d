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

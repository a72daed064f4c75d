import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';

describe('help and completion (oclif plugins)', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it.each([[['-h']], [['--help']], [['help']]])('annot %j lists the commands', async (args) => {
    const result = await runCli(args);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('USAGE');
    expect(result.stdout).toMatch(/^\s+validate\s/m);
    expect(result.stdout).toMatch(/^\s+convert\s/m);
  });

  it.each([[['help', 'convert']], [['convert', '-h']], [['convert', '--help']]])('annot %j shows the convert usage', async (args) => {
    const result = await runCli(args);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('$ annot convert INPUT OUTPUT');
    expect(result.stdout).toContain('--strict');
  });

  const cacheEnv = { HOME: dir, XDG_CACHE_HOME: join(dir, 'cache') };

  it.each([
    ['bash', 'functions/bash/annot.bash'],
    ['zsh', 'functions/zsh/_annot'],
  ])('annot autocomplete %s writes a completion for every command', async (shell, file) => {
    const result = await runCli(['autocomplete', shell], { env: cacheEnv, timeoutMs: 60000 });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`annot autocomplete script ${shell}`);
    const completion = join(dir, 'cache', 'annot', 'autocomplete', file);
    expect(existsSync(completion)).toBe(true);
    const text = readFileSync(completion, 'utf8');
    for (const command of ['validate', 'convert', 'query', 'list-formats']) expect(text).toContain(command);
    const script = await runCli(['autocomplete', 'script', shell], { env: cacheEnv });
    expect(script.code).toBe(0);
    expect(script.stdout).toContain('ANNOT_AC_');
  }, 90_000);

  // Needs the regenerated oclif.manifest.json (new command autocomplete:fish).
  it('annot autocomplete fish prints a fish completion script', async () => {
    const result = await runCli(['autocomplete', 'fish']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("complete -c annot -n '__fish_use_subcommand' -a 'validate'");
    expect(result.stdout).toMatch(/complete -c annot -n '__fish_seen_subcommand_from validate' -l format -x -a 'text json github'/);
  });
});

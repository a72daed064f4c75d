import { readFileSync } from 'node:fs';
import { runCli } from '../support/run-cli.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('the annot executable', () => {
  it('prints its version with --version and exits 0', async () => {
    const result = await runCli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`annot/${pkg.version}`);
  });

  it('prints usage with --help and exits 0', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('USAGE');
    expect(result.stdout).toContain('$ annot');
  });

  it('treats an unknown command as a usage error with exit code 2', async () => {
    const result = await runCli(['no-such-command']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no-such-command');
    expect(result.stdout).toBe('');
  });
});

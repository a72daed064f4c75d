import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fastCommandLine } from '../../src/cli/fast-path.js';
import { runBothPaths } from '../support/fast-path-parity.js';
import { runCli } from '../support/run-cli.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const DROPPED_BLOCK = join(FIXTURES, 'validate', 'dropped-block.srt');
const MISSING_SHOT = join(FIXTURES, 'validate', 'missing-shot.yaml');
const TALK = join(FIXTURES, 'talk.vtt');

/**
 * `annot validate FILE [flags]` starts without oclif (src/cli/fast-path.ts), as CI loops run it.
 * Each case runs the same validation through the fast path and through oclif: the same exit
 * code, the same stdout, the same stderr.
 */
describe('annot validate: the start-up fast path and oclif print the same', () => {
  // [name, file, flags, exit code]
  const cases: Array<[string, string, string[], number]> = [
    ['a valid file, text, with --from and --rate', TALK, ['--from', 'webvtt', '--rate', '1000'], 0],
    ['a warning, as one JSON document', DROPPED_BLOCK, ['--json'], 0],
    ['--strict failing on a warning', DROPPED_BLOCK, ['--strict'], 1],
    ['--max-warnings 0 failing, --format=json', DROPPED_BLOCK, ['--max-warnings', '0', '--format=json'], 1],
    ['--max-warnings above the count', DROPPED_BLOCK, ['--max-warnings=1'], 0],
    ['a scene with an error, as GitHub workflow commands', MISSING_SHOT, ['--format', 'github'], 1],
    ['a missing file, with the JSON error document', join(FIXTURES, 'missing.srt'), ['--json'], 1],
    ['an unknown --from', DROPPED_BLOCK, ['--from', 'nope'], 1],
    ['an unknown --encoding (a usage error of the command body)', DROPPED_BLOCK, ['--encoding', 'latin-9'], 2],
    ['an unreachable database, its password redacted', 'postgres://annot:hunter2@127.0.0.1:1/annot?project=p', [], 1],
  ];
  it.each(cases)('%s', async (_name, file, flags, code) => {
    const { fast, oclif } = await runBothPaths(['validate'], [file], flags);
    expect(fast.code).toBe(code);
    expect(oclif.code).toBe(code);
    expect(fast.stderr).toBe(oclif.stderr);
    expect(fast.stdout).toBe(oclif.stdout);
  });

  it('leaves to oclif what it owns: help, standard input, a negative or invalid value, an unknown or repeated flag, a second file', async () => {
    const declined = [
      ['--help'],
      ['-h'],
      ['-'],
      ['--max-warnings', '-1'],
      ['--max-warnings=-1'],
      ['--format', 'xml'],
      ['--rate', '0'],
      ['--strcit'],
      ['--strict', '--strict'],
      ['--json=true'],
      [TALK],
    ];
    for (const extra of declined) expect(fastCommandLine(['validate', TALK, ...extra])).toBeNull();
    expect(fastCommandLine(['validate'])).toBeNull();
    const help = await runCli(['validate', TALK, '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('USAGE\n  $ annot validate FILE');
  });
});

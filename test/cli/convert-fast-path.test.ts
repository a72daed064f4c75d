import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBothPaths } from '../support/fast-path-parity.js';
import { tempDir } from '../support/sample-annot.js';

/**
 * `annot convert <in> <out> [flags]` starts without oclif (src/cli/fast-path.ts). Flags first and
 * then `--` before the files sends the same conversion through oclif (runBothPaths), so each case
 * runs both ways: the same exit code, the same lines on stderr, the same output file.
 */
describe('annot convert: the start-up fast path and oclif say and write the same', () => {
  const { dir, cleanup } = tempDir('annot-convert-fast-');
  afterAll(cleanup);
  const input = join(dir, 'in.srt');
  beforeAll(() => {
    // A dropped block and a cue out of order: findings, and the streamed conversion falls back to the whole document.
    writeFileSync(input, '1\n00:00:01,000 --> 00:00:02,000\nhi\n\njunk block\n\n2\n00:00:00,500 --> 00:00:03,000\nearly\n');
  });

  // [name, input, output extension, flags]
  const cases: Array<[string, string, string, string[]]> = [
    ['a conversion with findings', input, 'vtt', []],
    ['into TextGrid with a variant', input, 'TextGrid', ['--variant', 'short']],
    ['--strict refusing the findings', input, 'vtt', ['--strict']],
    ['a missing input', join(dir, 'missing.srt'), 'vtt', []],
    ['an unknown target format', input, 'vtt', ['--to', 'nope']],
    ['--tier and --rate', input, 'srt', ['--tier', 'speech', '--rate', '48000']],
    ['--encoding', input, 'vtt', ['--encoding', 'windows-1250']],
    ['an unknown --encoding', input, 'vtt', ['--encoding', 'latin-2']],
    ['a retime: --shift', input, 'srt', ['--shift', '2.5']],
    ['a retime: a frame-rate change rounded, --within', input, 'vtt', ['--fps-from', '23.976', '--fps-to', '25', '--within', '0,00:00:01,500']],
    ['a retime: --sync', input, 'srt', ['--sync', '1=2,3=5']],
    ['a retime refused by --strict-time', input, 'srt', ['--scale', '1/3', '--strict-time']],
    ['a retime flag oclif would take but annot refuses', input, 'srt', ['--scale', 'abc']],
  ];
  let n = 0;
  for (const [name, source, extension, flags] of cases) {
    it(name, async () => {
      const k = n++;
      const fastOut = join(dir, `fast-${k}.${extension}`);
      const oclifOut = join(dir, `oclif-${k}.${extension}`);
      const { fast, oclif } = await runBothPaths(['convert'], (path) => [source, path === 'fast' ? fastOut : oclifOut], flags);
      // Whole paths (the temporary folder's random name may itself contain "fast-1").
      const normalize = (text: string, output: string): string => text.replaceAll(output, 'OUT');
      expect(fast.code).toBe(oclif.code);
      expect(normalize(fast.stderr, fastOut)).toBe(normalize(oclif.stderr, oclifOut));
      expect(fast.stdout).toBe(oclif.stdout);
      expect(existsSync(fastOut)).toBe(existsSync(oclifOut));
      if (existsSync(fastOut)) expect(readFileSync(fastOut).equals(readFileSync(oclifOut))).toBe(true);
    });
  }
});

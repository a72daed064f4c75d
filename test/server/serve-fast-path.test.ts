import { copyFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fastCommandLine } from '../../src/cli/fast-path.js';
import { runBothPaths } from '../support/fast-path-parity.js';
import { tempDir } from '../support/sample-annot.js';
import { serveCli } from '../support/serve-cli.js';

const TALK = fileURLToPath(new URL('../../fixtures/talk.vtt', import.meta.url));

/**
 * `annot serve [FILE] [flags]` starts without oclif (src/cli/fast-path.ts). Each case serves the
 * same store through the fast path and through oclif, stops it with SIGTERM, and compares what
 * each printed (the port aside), or compares a refusal's exit code and lines.
 */
describe('annot serve: the start-up fast path and oclif print the same', () => {
  const { dir, cleanup } = tempDir('annot-serve-fast-');
  afterAll(cleanup);
  let n = 0;
  /** A fresh copy of talk.vtt per path and case: a served file in another format is saved back to. */
  const talkCopy = (path: string): string => {
    const copy = join(dir, `${path}-${n++}.vtt`);
    copyFileSync(TALK, copy);
    return copy;
  };

  /** Serves `[FILE] flags` both ways, stops each with SIGTERM, and returns what each printed with the names that differ replaced. */
  async function serveBothWays(file: (path: string) => string | undefined, flags: string[], env: NodeJS.ProcessEnv = {}) {
    const results = [];
    for (const path of ['fast', 'oclif'] as const) {
      const served = file(path);
      const positionals = served === undefined ? [] : [served];
      const args = path === 'fast' ? [...positionals, ...flags] : [...flags, '--', ...positionals];
      if (path === 'fast') expect(fastCommandLine(['serve', ...args])).not.toBeNull();
      const running = await serveCli(args, { env, killAfterMs: 20_000 });
      const exit = await running.stop('SIGTERM');
      const normalize = (text: string) => text.replaceAll(running.url, 'URL').replaceAll(served ?? '\0', 'FILE');
      results.push({ exit, stderr: normalize(running.stderr()) });
    }
    return { fast: results[0], oclif: results[1] };
  }

  it('a file in another format, saved back to on shutdown', async () => {
    const { fast, oclif } = await serveBothWays(talkCopy, ['--port', '0', '--save-delay', '50']);
    expect(fast.exit).toEqual({ code: 0, signal: null });
    expect(fast).toEqual(oclif);
    expect(fast.stderr).toContain('annot serve: edits are saved back to FILE (webvtt)');
  });

  it('--no-save, a bearer token from ANNOT_TOKEN and MCP', async () => {
    const { fast, oclif } = await serveBothWays(talkCopy, ['--no-save', '--mcp'], { ANNOT_TOKEN: 'tok' });
    expect(fast.exit).toEqual({ code: 0, signal: null });
    expect(fast).toEqual(oclif);
    expect(fast.stderr).toContain('(bearer token required); MCP at URL/mcp');
  });

  it('an in-memory store', async () => {
    const { fast, oclif } = await serveBothWays(() => undefined, ['--host', '127.0.0.1']);
    expect(fast).toEqual(oclif);
    expect(fast.stderr).toContain('annot serve: serving an in-memory');
  });

  describe('refusals', () => {
    let busy: Server;
    let busyPort = '';
    beforeAll(async () => {
      busy = createServer();
      await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
      busyPort = String((busy.address() as { port: number }).port);
    });
    afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

    // [name, positionals, flags, environment, exit code]
    const cases: Array<[string, () => string[], () => string[], NodeJS.ProcessEnv, number]> = [
      ['an ANNOT_TOKEN of spaces', () => [], () => [], { ANNOT_TOKEN: '  ' }, 1],
      ['a --max-body that is not a size', () => [], () => ['--max-body', 'lots'], {}, 1],
      ['--no-save without a file in another format', () => [], () => ['--no-save'], {}, 1],
      ['--from without a file', () => [], () => ['--from', 'srt'], {}, 1],
      ['a port already in use', () => [], () => ['--port', busyPort], {}, 1],
      ['a missing file in another format', () => [join(dir, 'missing.vtt')], () => [], {}, 1],
      // oclif's `exclusive` does not see arguments: both would quietly serve the store.
      ['FILE and --store together', () => [TALK], () => ['--store', 'postgres://u:secret@127.0.0.1:1/test?project=x'], {}, 2],
    ];
    it.each(cases)('%s', async (_name, positionals, flags, env, code) => {
      const { fast, oclif } = await runBothPaths(['serve'], positionals(), flags(), { env: { ANNOT_TOKEN: '', ...env } });
      expect(fast.code).toBe(code);
      expect(oclif.code).toBe(code);
      expect(fast.stderr).toBe(oclif.stderr);
      expect(fast.stdout).toBe(oclif.stdout);
      expect(fast.stderr).not.toContain('secret');
    });
  });

  it('leaves to oclif what it owns: help, a port out of range, --no- of a flag without that form, standard input, two files', () => {
    for (const extra of [['--help'], ['--port', '70000'], ['--no-mcp'], ['--save=false'], ['--save', '--no-save'], ['-'], [TALK, TALK]]) {
      expect(fastCommandLine(['serve', ...extra])).toBeNull();
    }
  });
});

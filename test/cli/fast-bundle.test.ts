import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// bin/run.js loads the start-up fast path as one bundle compiled from a V8 code cache
// (scripts/build-fast-bundle.mjs, bin/load-fast-path.js). The build must leave both files, V8
// must take the cache (else every start compiles as before, silently slower), and a stack trace
// under ANNOT_DEBUG must still name our files in src/ (the bundle's source map).

const LOADER = fileURLToPath(new URL('../../bin/load-fast-path.js', import.meta.url));
const BUNDLE = fileURLToPath(new URL('../../dist/cli/fast-path.cjs', import.meta.url));

/** Runs `body` in a child process with the loaded fast path as `loaded` ({api, script}); its stdout. */
function withLoaded(body: string, env: NodeJS.ProcessEnv = {}): string {
  const source = `const { loadFastPath } = await import(${JSON.stringify(LOADER)});\nconst loaded = await loadFastPath();\n${body}`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', source], { encoding: 'utf8', env: { ...process.env, ANNOT_DEBUG: '', ...env } });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout;
}

describe('the fast path bundle', () => {
  it('is built with its code cache, and V8 takes the cache', () => {
    expect(existsSync(BUNDLE)).toBe(true);
    expect(existsSync(`${BUNDLE}.cache`)).toBe(true);
    expect(withLoaded('console.log(loaded.script !== null, loaded.script.cachedDataRejected, typeof loaded.api.runFastPath);')).toBe('true false function\n');
  });

  it('has no import(): compiled as a script, it has no module loader for one (packages are require()d)', () => {
    expect(readFileSync(BUNDLE, 'latin1')).not.toMatch(/\bimport\(/);
  });

  it('names the source file in src/ in a stack trace under ANNOT_DEBUG', () => {
    const stack = withLoaded("try { loaded.api.takesFastPath(null); } catch (error) { console.log(error.stack); }", { ANNOT_DEBUG: '1' });
    expect(stack).toMatch(/^TypeError: /);
    expect(stack).toMatch(/\bsrc[\\/]cli[\\/]fast-path\.ts:\d+:\d+/);
    expect(stack).not.toContain('fast-path.cjs');
  });
});

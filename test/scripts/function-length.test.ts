import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = new URL('../../scripts/function-length.mjs', import.meta.url).pathname;

const made: string[] = [];
afterAll(() => {
  for (const root of made) rmSync(root, { recursive: true, force: true });
});

/** A project folder with the given files (relative path → text). */
function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'annot-fnlen-'));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function run(root: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [SCRIPT, '--root', root, '--baseline', join(root, 'baseline.txt'), ...args], { encoding: 'utf8' });
  return { status: result.status, out: result.stdout, err: result.stderr };
}

/** A function declaration of `lines` lines in all (declaration to closing brace). */
const long = (name: string, lines: number): string => `export function ${name}(): number {\n${'  void 0;\n'.repeat(lines - 3)}  return 1;\n}\n`;

describe('scripts/function-length.mjs', () => {
  it('lists the longest functions with file:line and their lines, methods, arrows and nested functions each on their own', () => {
    const root = project({
      'src/a.ts': `${long('outer', 12)}\nexport class Box {\n  method(): void {\n    const inner = (x: number) => {\n      return x;\n    };\n    inner(1);\n  }\n}\n`,
      'commands/b.ts': `export const f = function () {\n  return 2;\n};\n`,
    });
    const { status, out } = run(root, '--top', '4');
    expect(status).toBe(0);
    const rows = out.split('\n').filter((line) => /^\s+\d+\s/.test(line)).map((line) => line.trim().split(/\s+/));
    expect(rows).toEqual([
      ['12', 'src/a.ts:1', 'outer'],
      ['6', 'src/a.ts:15', 'Box.method'],
      ['3', 'commands/b.ts:1', 'f'],
      ['3', 'src/a.ts:16', 'Box.method.inner'],
    ]);
  });

  it('fails on a function over 100 lines that the baseline does not list, and passes once it does', () => {
    const root = project({ 'src/big.ts': long('big', 101) });
    const before = run(root);
    expect(before.status).toBe(1);
    expect(before.err).toContain('src/big.ts:1 big is 101 lines (limit 100)');
    expect(run(root, '--write-baseline').status).toBe(0);
    expect(readFileSync(join(root, 'baseline.txt'), 'utf8')).toContain('src/big.ts\tbig\t101\n');
    expect(run(root).status).toBe(0);
  });

  it('fails when a known offender grows, and when a baseline entry is within the limit or gone: the baseline only shrinks', () => {
    const root = project({ 'src/big.ts': long('big', 120), 'baseline.txt': 'src/big.ts\tbig\t110\nsrc/big.ts\tgone\t150\n' });
    const grown = run(root);
    expect(grown.status).toBe(1);
    expect(grown.err).toContain('big grew to 120 lines (baseline 110');
    expect(grown.err).toContain('src/big.ts gone (baseline 150 lines) is gone');
    writeFileSync(join(root, 'src/big.ts'), long('big', 90));
    writeFileSync(join(root, 'baseline.txt'), 'src/big.ts\tbig\t110\n');
    const shrunk = run(root);
    expect(shrunk.status).toBe(1);
    expect(shrunk.err).toContain('big is 90 lines now, within the limit: remove its line');
  });
});

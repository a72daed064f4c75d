#!/usr/bin/env node
// `npm run fuzz` (2,000 mutants per format) or `npm run fuzz -- --long` (20,000): runs the fuzz
// suite of test/fuzz/fuzz.test.ts with failing inputs saved to test/fuzz-corpus/<format>/.
// Options: --long, --cases N, --seed N (default: a new seed each run, printed, so a run can be repeated).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const valueOf = (flag) => {
  const index = args.indexOf(flag);
  return index === -1 ? undefined : args[index + 1];
};
const cases = valueOf('--cases') ?? (args.includes('--long') ? '20000' : '2000');
const seed = valueOf('--seed') ?? String(Math.floor(Math.random() * 2 ** 31));
process.stdout.write(`fuzzing every reader with ${cases} mutants per format, seed ${seed}\n`);
const root = fileURLToPath(new URL('..', import.meta.url));
const result = spawnSync(
  process.execPath,
  ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', 'node_modules/jest/bin/jest.js', 'test/fuzz/fuzz.test.ts', '--testTimeout=0'],
  { cwd: root, stdio: 'inherit', env: { ...process.env, FUZZ_CASES: cases, FUZZ_SEED: seed, FUZZ_SAVE: '1' } },
);
process.exit(result.status ?? 1);

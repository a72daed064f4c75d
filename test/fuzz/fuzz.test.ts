import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FUZZ_FORMATS, fuzzFormat, runCase, savedCrashes } from './fuzz-core.js';

/**
 * `npm test` runs a fixed-seed smoke of FUZZ_CASES (default 200) mutants per format; `npm run fuzz`
 * runs this same file with 2,000 (20,000 with --long) and FUZZ_SAVE=1, which saves each failing
 * input to test/fuzz-corpus/<format>/. Every saved input is replayed here as a regression test.
 */
const CASES = Number(process.env.FUZZ_CASES ?? 200);
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const SAVE = process.env.FUZZ_SAVE === '1';
const work = mkdtempSync(join(tmpdir(), 'annot-fuzz-'));

describe.each(FUZZ_FORMATS.map((format) => [format.name, format] as const))('%s reader', (name, format) => {
  it(`survives ${CASES} seeded mutants of real files: a valid document that round-trips, or a typed error`, async () => {
    const dir = mkdtempSync(join(work, `${name}-`));
    const result = await fuzzFormat(format, CASES, SEED, dir, SAVE);
    if (SAVE || process.env.FUZZ_VERBOSE === '1') {
      process.stdout.write(`fuzz ${name}: ${result.cases} cases, ${result.read} read, ${result.refused} refused, ${result.failures.length} failures\n`);
    }
    expect(result.failures.map((failure) => failure.problem + (failure.saved ? ` (saved ${failure.saved})` : ''))).toEqual([]);
  }, Math.max(60_000, CASES * 100));

  const saved = savedCrashes(format);
  if (saved.length > 0) {
    // An input whose failure is not fixed yet carries a `<input>.open` note: it stays a test, one
    // that is expected to fail (jest's it.failing), so fixing it turns the suite red until the note goes.
    for (const entry of saved) {
      const test = entry.open ? it.failing : it;
      test(`replays saved input ${entry.name}${entry.open ? ' (open: not fixed yet)' : ''}`, async () => {
        const outcome = await runCase(format, entry.input, mkdtempSync(join(work, `${name}-replay-`)));
        expect(outcome).toEqual(expect.objectContaining({ ok: true }));
      });
    }
  }
});

import { ERROR_TABLE } from '../../src/errors/error-table.js';
import { runCli } from '../support/run-cli.js';

describe('annot errors', () => {
  it('lists every registered code with its HTTP and exit status and its meaning', async () => {
    const result = await runCli(['errors']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(Object.keys(ERROR_TABLE).length);
    expect(lines).toContainEqual(expect.stringMatching(/^ANNOT_USAGE +HTTP 400 +exit 2 +a command line annot cannot parse/));
    expect(lines).toContainEqual(expect.stringMatching(/^ANNOT_FAL_FOREIGN_URL +HTTP 502 +exit 1 +fal's queue answered with a URL on another origin/));
  });

  it('shows one code, with or without its ANNOT_ prefix, in any case, and as JSON', async () => {
    const one = await runCli(['errors', 'tier_constraint']);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^ANNOT_TIER_CONSTRAINT {2}HTTP 409 {2}exit 1 {2}an edit that would break a constraint/);
    const json = await runCli(['errors', 'ANNOT_PRECONDITION_REQUIRED', '--json']);
    expect(JSON.parse(json.stdout)).toEqual([{ code: 'ANNOT_PRECONDITION_REQUIRED', ...ERROR_TABLE.ANNOT_PRECONDITION_REQUIRED }]);
  });

  it('refuses a code it does not know, with the nearest one', async () => {
    const result = await runCli(['errors', 'ANNOT_TIER_CONSTRAIN']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('annot: no error code ANNOT_TIER_CONSTRAIN; did you mean ANNOT_TIER_CONSTRAINT? (annot errors lists them all) [ANNOT_NOT_FOUND]\n');
  });
});

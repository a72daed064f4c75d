import { runCli } from '../support/run-cli.js';

/** A misspelt command or flag: one line in annot's error style with the nearest right one, exit 2. */

describe('did you mean', () => {
  it.each([
    [['conver', 'a', 'b'], 'annot: "conver" is not a command; did you mean "convert"? (`annot --help` lists them) [ANNOT_USAGE]'],
    [['hlep'], 'annot: "hlep" is not a command; did you mean "help"? (`annot --help` lists them) [ANNOT_USAGE]'],
    [['sevre', 'talk.annot'], 'annot: "sevre" is not a command; did you mean "serve"? (`annot --help` lists them) [ANNOT_USAGE]'],
    [['render', 'scen', 'x.yaml'], 'annot: "render scen" is not a command; did you mean "render scene"? (`annot render --help` lists them) [ANNOT_USAGE]'],
    [['rendr', 'scene'], 'annot: "rendr" is not a command; did you mean "render"? (`annot --help` lists them) [ANNOT_USAGE]'],
    [['frobnicate'], 'annot: "frobnicate" is not a command: `annot --help` lists them [ANNOT_USAGE]'],
    [['help', 'conver'], 'annot: "conver" is not a command; did you mean "convert"? (`annot --help` lists them) [ANNOT_USAGE]'],
    [['conver', '--help'], 'annot: "conver" is not a command; did you mean "convert"? (`annot --help` lists them) [ANNOT_USAGE]'],
    [['render', 'scen', '-h'], 'annot: "render scen" is not a command; did you mean "render scene"? (`annot render --help` lists them) [ANNOT_USAGE]'],
    [['--verison'], 'annot: unknown flag --verison (did you mean --version?): `annot --help` lists the flags [ANNOT_USAGE]'],
  ])('annot %j', async (args, line) => {
    const result = await runCli(args);
    expect([result.code, result.stderr, result.stdout]).toEqual([2, `${line}\n`, '']);
  });

  it('help for a real command is unchanged', async () => {
    const result = await runCli(['help', 'convert']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Convert annotation files between formats/);
  });

  it.each([
    [['validate', 'fixtures/talk.vtt', '--strcit'], 'annot: unknown flag --strcit (did you mean --strict?): `annot validate --help` lists the flags [ANNOT_USAGE]'],
    // convert and query start on a fast path without oclif; a flag it does not know goes to oclif, which names it.
    [['convert', 'fixtures/talk.vtt', 'out.srt', '--form', 'vtt'], 'annot: unknown flag --form (did you mean --from?): `annot convert --help` lists the flags [ANNOT_USAGE]'],
    [['render', 'plan', 'fixtures/scenes/lighthouse.yaml', '--provder=local'], 'annot: unknown flag --provder=local (did you mean --provider?): `annot render plan --help` lists the flags [ANNOT_USAGE]'],
    [['validate', 'fixtures/talk.vtt', '--fomat', 'json', '--xyzzy'], 'annot: unknown flags --fomat (did you mean --format?), --xyzzy: `annot validate --help` lists the flags [ANNOT_USAGE]'],
  ])('annot %j', async (args, line) => {
    const result = await runCli(args, { cwd: new URL('../..', import.meta.url).pathname });
    expect([result.code, result.stderr.split('\n')[0]]).toEqual([2, line]);
    expect(result.stderr.split('\n').length).toBe(2);
  });
});

import { FAST_COMMANDS } from '../../src/cli/fast-commands.js';

// The fast path accepts the positional arguments its table says (fast-commands.ts), and oclif those
// its commands declare: the two must agree, or a command line would mean one thing with oclif and
// another without.

interface DeclaredCommand {
  args?: Record<string, { required?: boolean }>;
  strict?: boolean;
}

describe('FAST_COMMANDS', () => {
  it.each(FAST_COMMANDS.map((command) => [command.words.join(' '), command] as const))('%s takes the positional arguments its oclif command declares', async (_, command) => {
    const declared = (await import(`../../commands/${command.words.join('/')}.js`) as { default: DeclaredCommand }).default;
    const args = Object.values(declared.args ?? {});
    expect(command.positionals).toEqual({
      min: args.filter((arg) => arg.required === true).length,
      max: declared.strict === false ? Infinity : args.length,
    });
  });
});

import { AnnotCommand } from '../../src/cli/base-command.js';
import { writeLine } from '../../src/cli/output.js';

/**
 * Fish completion, which @oclif/plugin-autocomplete (bash, zsh, powershell) does not make:
 * written from the loaded commands, so it lists exactly what this build has.
 */
export default class AutocompleteFish extends AnnotCommand {
  static override description = 'Print a fish completion script: annot autocomplete fish > ~/.config/fish/completions/annot.fish';
  static override examples = ['<%= config.bin %> autocomplete fish > ~/.config/fish/completions/annot.fish'];

  async run(): Promise<void> {
    await this.parse(AutocompleteFish);
    const bin = this.config.bin;
    const lines = [`# fish completion for ${bin} ${this.config.version}`, `complete -c ${bin} -f`];
    const commands = this.config.commands.filter((command) => !command.hidden).sort((a, b) => (a.id < b.id ? -1 : 1));
    const firstWords = new Map<string, string>();
    for (const command of commands) {
      const [first] = command.id.split(':');
      if (!firstWords.has(first)) firstWords.set(first, command.id === first ? (command.summary ?? command.description ?? '') : `${first} commands`);
    }
    for (const [word, description] of firstWords) {
      lines.push(`complete -c ${bin} -n '__fish_use_subcommand' -a ${quote(word)} -d ${quote(firstLine(description))}`);
    }
    for (const command of commands) {
      const words = command.id.split(':');
      if (words.length > 1) {
        const parent = words.slice(0, -1).join(' ');
        lines.push(`complete -c ${bin} -n ${quote(`__fish_seen_subcommand_from ${words.at(-2)}`)} -a ${quote(words.at(-1) ?? '')} -d ${quote(firstLine(command.summary ?? command.description ?? `${parent} ${words.at(-1)}`))}`);
      }
      const condition = quote(`__fish_seen_subcommand_from ${words.at(-1)}`);
      for (const [name, flag] of Object.entries(command.flags ?? {})) {
        if (flag.hidden) continue;
        const options = flag.type === 'option' && flag.options ? ` -x -a ${quote(flag.options.join(' '))}` : flag.type === 'option' ? ' -r' : '';
        const short = flag.char ? ` -s ${flag.char}` : '';
        lines.push(`complete -c ${bin} -n ${condition} -l ${name}${short}${options} -d ${quote(firstLine(flag.summary ?? flag.description ?? ''))}`);
      }
      if (Object.keys(command.args ?? {}).length > 0) lines.push(`complete -c ${bin} -n ${condition} -F`);
    }
    for (const line of lines) writeLine(line.replace(/<%= config\.bin %>/g, bin));
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0].slice(0, 100);
}

function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

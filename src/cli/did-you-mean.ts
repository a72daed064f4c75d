import type { Interfaces } from '@oclif/core';
import { closestName, typoDistance } from '../text/nearest-name.js';

/**
 * The words a person types wrong on a command line, a command's name or a flag's, told back in
 * annot's one-line error style with the nearest right one (the edit distance of
 * text/nearest-name.ts), so `annot conver` and `--strcit` say what was meant.
 */

/**
 * The message for a command line oclif found no command in. `id` is oclif's joined id
 * (`render:scen:x` for `annot render scen x`): the longest run of its words that is a topic is
 * kept, and the word after it is the one compared with the commands and topics under that topic.
 */
export function unknownCommandMessage(id: string, commandIds: readonly string[], bin: string): string {
  const words = id.split(':');
  // `annot --verison`: a flag where a command should be; the program itself has --version and --help.
  if (words[0].startsWith('-')) return unknownFlagsMessage([words[0]], ['version', 'help'], bin);
  const topics = topicsOf(commandIds);
  let depth = 0;
  while (depth < words.length - 1 && topics.has(words.slice(0, depth + 1).join(':'))) depth++;
  const prefix = words.slice(0, depth);
  const typed = [...prefix, words[depth]].join(' ');
  const siblings = namesUnder(prefix, commandIds);
  const nearest = closestName(words[depth], siblings, typoDistance);
  const list = `\`${[bin, ...prefix].join(' ')} --help\` lists them`;
  if (nearest === undefined) return `"${typed}" is not a command: ${list}`;
  return `"${typed}" is not a command; did you mean "${[...prefix, nearest].join(' ')}"? (${list})`;
}

/** The ids (and aliases) of the commands `annot --help` lists: the names a did-you-mean may offer. */
export function visibleCommandIds(config: Interfaces.Config): string[] {
  return config.commands.filter((command) => !command.hidden).flatMap((command) => [command.id, ...command.aliases]);
}

/** Every topic (a command id's leading words): `render` for `render:scene`. */
function topicsOf(commandIds: readonly string[]): Set<string> {
  const topics = new Set<string>();
  for (const id of commandIds) {
    const words = id.split(':');
    for (let i = 1; i < words.length; i++) topics.add(words.slice(0, i).join(':'));
  }
  return topics;
}

/** The next words after `prefix` among the command ids: the commands and topics one level down. */
function namesUnder(prefix: readonly string[], commandIds: readonly string[]): string[] {
  const names = new Set<string>();
  for (const id of commandIds) {
    const words = id.split(':');
    if (words.length > prefix.length && prefix.every((word, i) => words[i] === word)) names.add(words[prefix.length]);
  }
  return [...names];
}

/**
 * The message for flags a command does not have (oclif's NonExistentFlagsError lists them as
 * typed: `--strcit`, `--fomat=json`, `-x`), each with the nearest flag the command has.
 */
export function unknownFlagsMessage(typed: readonly string[], known: readonly string[], command: string): string {
  const parts = typed.map((flag) => {
    const name = flag.replace(/^-+/, '').replace(/=.*$/s, '');
    const nearest = closestName(name, known, typoDistance);
    return nearest === undefined ? flag : `${flag} (did you mean --${nearest}?)`;
  });
  return `unknown flag${typed.length === 1 ? '' : 's'} ${parts.join(', ')}: \`${command} --help\` lists the flags`;
}

/** The flags oclif says a command does not have, when that is what `error` is. */
export function nonExistentFlags(error: unknown): string[] | undefined {
  if (!(error instanceof Error)) return undefined;
  const { flags, parse } = error as Error & { flags?: unknown; parse?: unknown };
  return parse !== undefined && Array.isArray(flags) && flags.every((flag) => typeof flag === 'string') ? (flags as string[]) : undefined;
}

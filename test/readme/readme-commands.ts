/**
 * The README's shell blocks as commands a test can run: each ```sh block under a heading, split
 * into whole commands (a command may go on over lines inside quotes or after a backslash), each
 * with the exit status its comment announces (`# exit 1` at the comment's start; else 0).
 */

export interface ReadmeCommand {
  /** The command as written, without its comment. */
  readonly text: string;
  readonly expectedStatus: number;
  /** The README line it starts on (1-based). */
  readonly line: number;
}

export interface ReadmeBlock {
  /** The `##`/`###` heading the block is under (`####` headings belong to their `###`). */
  readonly section: string;
  readonly commands: ReadmeCommand[];
}

/** A fenced block of the README: the section it is under, its lines, the README line of the first. */
export interface FencedBlock {
  readonly section: string;
  readonly body: string[];
  readonly line: number;
}

/** The ```sh blocks between the heading `from` (a `## ` line) and the next `## ` heading. */
export function shellBlocks(readme: string, from: string): ReadmeBlock[] {
  return fencedBlocks(readme, from, 'sh').map((block) => ({ section: block.section, commands: splitCommands(block.body, block.line) }));
}

/** The blocks fenced as ```language between the heading `from` and the next `## ` heading. */
export function fencedBlocks(readme: string, from: string, language: string): FencedBlock[] {
  const lines = readme.split('\n');
  const start = lines.indexOf(from);
  if (start < 0) throw new Error(`README has no heading "${from}"`);
  const blocks: FencedBlock[] = [];
  let section = from.replace(/^#+ /, '');
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('## ')) break;
    if (line.startsWith('### ')) section = line.slice(4);
    if (!line.startsWith('```')) continue;
    const body: string[] = [];
    let end = i + 1;
    while (end < lines.length && !lines[end].startsWith('```')) body.push(lines[end++]);
    if (line === '```' + language) blocks.push({ section, body, line: i + 2 });
    i = end;
  }
  return blocks;
}

/** Whole commands out of a block's lines (`firstLine`: the README line number of the first). */
export function splitCommands(body: readonly string[], firstLine: number): ReadmeCommand[] {
  const commands: ReadmeCommand[] = [];
  let pending: string[] = [];
  let startLine = firstLine;
  let comment = '';
  body.forEach((line, index) => {
    if (pending.length === 0) {
      if (line.trim() === '') return;
      startLine = firstLine + index;
    }
    pending.push(line);
    const scan = scanShell(pending.join('\n'));
    if (!scan.complete) return;
    comment = scan.comment;
    const status = /^#\s*exit (\d+)\b/.exec(comment);
    commands.push({ text: scan.code.trim(), expectedStatus: status ? Number(status[1]) : 0, line: startLine });
    pending = [];
  });
  if (pending.length > 0) throw new Error(`README line ${startLine}: a command that does not end (an open quote?): ${pending.join('\n')}`);
  return commands;
}

/**
 * Reads shell text as far as quoting goes: whether it is a whole command (no quote left open, no
 * backslash at the end), the code before an unquoted `#` comment, and that comment.
 */
function scanShell(text: string): { complete: boolean; code: string; comment: string } {
  let quote: '' | "'" | '"' = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quote === "'") {
      if (char === "'") quote = '';
    } else if (char === '\\') {
      i++;
      if (i >= text.length) return { complete: false, code: text, comment: '' };
    } else if (quote === '"') {
      if (char === '"') quote = '';
    } else if (char === "'" || char === '"') {
      quote = char;
    } else if (char === '#' && (i === 0 || /\s/.test(text[i - 1]))) {
      const newline = text.indexOf('\n', i);
      if (newline >= 0) throw new Error(`a comment inside a command that goes on: ${text}`);
      return { complete: true, code: text.slice(0, i), comment: text.slice(i) };
    }
  }
  return { complete: quote === '', code: text, comment: '' };
}

import { closeSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import type { FormatAdapter } from './adapter.js';
import { BUILTIN_FORMATS } from './builtin.js';
import { UnknownFormatError } from './errors.js';
import { sniffableHead } from './encoding/sniffable-head.js';
import { contentMismatch, flagFor, formatTitle, tellingMismatch } from './format-mismatch.js';

const registered = new Map<string, FormatAdapter>();
let builtinsRegistered = false;

/**
 * The registered formats: the built-in ones (builtin.ts) are registered on the first use of the
 * registry, before any plug-in's, so nobody has to remember to register them and they come first
 * in `list-formats`.
 */
function adapters(): Map<string, FormatAdapter> {
  if (!builtinsRegistered) {
    builtinsRegistered = true;
    const plugins = [...registered.values()];
    registered.clear();
    for (const format of [...BUILTIN_FORMATS, ...plugins]) registered.set(format.name, format);
  }
  return registered;
}

/** Registers (or replaces) a format under its name: how a plug-in adds a format. */
export function registerAdapter(adapter: FormatAdapter): void {
  adapters().set(adapter.name, adapter);
}

/**
 * Kept for library callers of earlier versions: the built-in formats register themselves on the
 * registry's first use now, so this only makes sure they are there.
 */
export function registerBuiltinFormats(): void {
  adapters();
}

/** Every registered format, the built-in ones first. */
export function listAdapters(): FormatAdapter[] {
  return [...adapters().values()];
}

/**
 * The short names people type for a format (`--from vtt`, `--to praat`). Names are also matched
 * case-insensitively and with `-` for `_` (`label-studio`).
 */
const ALIASES: Readonly<Record<string, string>> = {
  vtt: 'webvtt',
  tg: 'textgrid',
  praat: 'textgrid',
  elan: 'eaf',
  ls: 'label_studio',
  labelstudio: 'label_studio',
  wa: 'web_annotation',
  w3c: 'web_annotation',
  webannotation: 'web_annotation',
  subrip: 'srt',
  ssa: 'ass',
  dfxp: 'ttml',
  imsc: 'ttml',
};

/** The aliases of a format name, as `list-formats` shows them. */
export function aliasesOf(name: string): string[] {
  return Object.entries(ALIASES)
    .filter(([, target]) => target === name)
    .map(([alias]) => alias);
}

/** The format of this name or alias (UnknownFormatError, naming the formats there are, when none is). */
export function getAdapter(name: string): FormatAdapter {
  const normalized = name.toLowerCase().replace(/-/g, '_');
  const known = adapters();
  const adapter = known.get(name) ?? known.get(normalized) ?? known.get(ALIASES[normalized] ?? '');
  if (!adapter) throw new UnknownFormatError(`unknown format "${name}"; known formats: ${knownNames()}`);
  return adapter;
}

/** What inferFormat decides a file's format from. */
export interface InferFormatInput {
  /** `--from` / `--to`: wins over everything else. */
  readonly explicit?: string;
  /** The file name; `-` or undefined for standard streams. */
  readonly path?: string;
  /** The first bytes of the file, when it exists (inputs). */
  readonly head?: Buffer;
  /** `--encoding`: the text encoding the head is sniffed in (when no byte-order mark says otherwise). */
  readonly encoding?: string;
}

/**
 * Which format a file is: the explicit name first, then the longest matching extension
 * (`x.labelstudio.json` is Label Studio, not Web Annotation), then the content. An extension
 * claimed by several formats (`.json`) is decided by the content among those formats. When the
 * content looks like another format than the one chosen (WebVTT in a `.srt`), the format comes
 * back with a reader that says so (format-mismatch.ts).
 */
export function inferFormat({ explicit, path, head, encoding }: InferFormatInput): FormatAdapter {
  const sniffed = head === undefined ? undefined : sniffableHead(head, encoding);
  const named = !explicit && path && path !== '-' ? adaptersForFileName(path) : [];
  // An input named by an extension other files use too (`.xml`) is the format only when its content says so.
  const byExtension = sniffed && sniffed.length > 0 ? named.filter((adapter) => !claimedByContentOnly(adapter, path as string) || adapter.sniff(sniffed)) : named;
  const chosen = explicit ? getAdapter(explicit) : byExtension.length === 1 ? byExtension[0] : byContent(byExtension, path, sniffed);
  const mismatch = sniffed === undefined ? null : contentMismatch(chosen, sniffed, listAdapters());
  if (mismatch === null) return chosen;
  // Told up front only when the extension alone chose: a format named with --from was the user's call.
  return tellingMismatch(chosen, mismatch, !explicit && byExtension.length === 1);
}

function byContent(byExtension: readonly FormatAdapter[], path: string | undefined, head: Buffer | undefined): FormatAdapter {
  if (head && head.length > 0) {
    const candidates = byExtension.length > 1 ? byExtension : listAdapters();
    const sniffed = candidates.find((adapter) => adapter.sniff(head));
    if (sniffed) return sniffed;
  }
  const what = path && path !== '-' ? `"${path}"` : 'standard input';
  const other = head && byExtension.length > 1 ? listAdapters().find((adapter) => adapter.sniff(head)) : undefined;
  const looksLike = other === undefined ? '' : ` (its content looks like ${formatTitle(other).replace(/^an? /, '')}: use ${flagFor(other)})`;
  const hint = byExtension.length > 1 ? `it could be ${byExtension.map((a) => a.name).join(' or ')} but its content matches none${looksLike}` : 'neither its extension nor its content matches a known format';
  throw new UnknownFormatError(`cannot tell the format of ${what}: ${hint}; pass --from/--to with one of: ${knownNames()}`);
}

/** The adapters whose longest matching extension is the longest among all adapters. */
export function adaptersForFileName(path: string): FormatAdapter[] {
  const name = basename(path).toLowerCase();
  let best = 0;
  let matches: FormatAdapter[] = [];
  for (const adapter of adapters().values()) {
    for (const extension of adapter.extensions) {
      if (!name.endsWith(extension) || name.length === extension.length) continue;
      if (extension.length > best) {
        best = extension.length;
        matches = [adapter];
      } else if (extension.length === best && !matches.includes(adapter)) {
        matches.push(adapter);
      }
    }
  }
  return matches;
}

/** Whether the longest extension of `path` an adapter claims is one it claims only with its content (`.xml`). */
function claimedByContentOnly(adapter: FormatAdapter, path: string): boolean {
  const sniffed = adapter.sniffedExtensions;
  if (sniffed === undefined || sniffed.length === 0) return false;
  const name = basename(path).toLowerCase();
  const longest = adapter.extensions.filter((extension) => name.endsWith(extension)).sort((a, b) => b.length - a.length)[0];
  return longest !== undefined && sniffed.includes(longest);
}

/** Up to 64 KiB from the start of a file, for sniffing. */
export function readHead(path: string, bytes = 65536): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const read = readSync(fd, buffer, 0, bytes, 0);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

function knownNames(): string {
  return [...adapters().keys()]
    .sort()
    .map((name) => {
      const aliases = aliasesOf(name);
      return aliases.length > 0 ? `${name} (${aliases.join(', ')})` : name;
    })
    .join(', ');
}

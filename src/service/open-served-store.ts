import { existsSync, statSync } from 'node:fs';
import type { FormatAdapter } from '../adapters/adapter.js';
import type { Finding } from '../adapters/finding.js';
import { loadIntoStore } from '../adapters/load-into-store.js';
import { resolveEncoding } from '../adapters/encoding/encoding-names.js';
import { adaptersForFileName, inferFormat, readHead } from '../adapters/registry.js';
import { InvalidInputError, NotFoundError } from '../errors/annot-error.js';
import type { OpLoggedStore } from '../oplog/op-logged-store.js';
import { RationalTime } from '../time/rational-time.js';
import { isPostgresLocation, openServiceStore } from './open-service-store.js';
import { loadDocument } from '../adapters/load-document.js';
import { SavedFileStore, type SaveEvents } from './saved-file-store.js';

export interface OpenServedOptions extends SaveEvents {
  /** `--from`: the file's format, overriding its extension and content. */
  readonly from?: string;
  /** `--encoding`: the text encoding of the file to serve (a byte-order mark still decides); it is saved as UTF-8. */
  readonly encoding?: string;
  /** False keeps edits of a file in another format in memory only (`--no-save`). */
  readonly save: boolean;
  /** How long after an edit a file in another format is saved. */
  readonly saveDelayMs: number;
  /** What the reader repaired, dropped or guessed, as `annot convert` prints it. */
  readonly report: (finding: Finding) => void;
}

export type ServedStore =
  | { readonly kind: 'store'; readonly store: OpLoggedStore }
  | { readonly kind: 'file'; readonly store: SavedFileStore; readonly format: FormatAdapter };

/**
 * The store `annot serve` edits. Nothing, `:memory:`, a `postgres://` URL and a `.annot` file
 * open as `openServiceStore` opens them (a missing `.annot` is created). A file in any other
 * format `annot convert` reads is read into memory and saved back in its own format as it is
 * edited; it must exist, since an empty WebVTT or EAF would have nothing to serve.
 */
export async function openServedStore(location: string | undefined, options: OpenServedOptions): Promise<ServedStore> {
  if (options.from !== undefined && (location === undefined || location === ':memory:' || isPostgresLocation(location))) {
    throw new InvalidInputError('--from names the format of the FILE to serve; give a file');
  }
  if (options.encoding !== undefined && (location === undefined || location === ':memory:' || isPostgresLocation(location))) {
    throw new InvalidInputError('--encoding names the text encoding of the FILE to serve; give a file');
  }
  if (options.encoding !== undefined) resolveEncoding(options.encoding);
  const format = location === undefined ? undefined : await formatOfFile(location, options.from, options.encoding);
  if (format === undefined) {
    if (!options.save) throw new InvalidInputError('--no-save is for files in other formats: a .annot file, a database or an in-memory store is written as it is edited');
    return { kind: 'store', store: await openServiceStore(location, { create: true }) };
  }
  const path = location!;
  const store = new SavedFileStore({ path, format, save: options.save, delayMs: options.saveDelayMs, saved: options.saved, failed: options.failed, warn: options.warn });
  // Before the read: a change made while it is read is then seen, and refused, at the first save.
  await store.rememberFileOnDisk();
  const codec = await format.codec();
  const document = await loadDocument(codec, path, { sourceName: path, encoding: options.encoding, now: RationalTime.now(1000), report: options.report });
  await loadIntoStore(document, store, { sourceName: path });
  return { kind: 'file', store, format };
}

/**
 * The format of a file to serve, or undefined for a location served as a store: no file, a
 * database, or a file that is itself a store (its codec can openStore: `.annot`, created when missing).
 */
async function formatOfFile(location: string, from: string | undefined, encoding: string | undefined): Promise<FormatAdapter | undefined> {
  if (location === ':memory:' || isPostgresLocation(location)) return undefined;
  const exists = existsSync(location);
  if (exists && statSync(location).isDirectory()) throw new InvalidInputError(`${location}: is a directory, expected an annotation file`);
  const byName = from === undefined ? adaptersForFileName(location) : [];
  // A name only a store format claims decides without reading the file (it may not exist yet).
  const named = byName.length === 1 && (await isStoreFile(byName[0])) ? byName[0] : undefined;
  const format = named ?? (from !== undefined && !exists ? inferFormat({ explicit: from }) : exists ? inferFormat({ explicit: from, path: location, head: readHead(location), encoding }) : undefined);
  if (format !== undefined && (await isStoreFile(format))) return undefined;
  if (!exists) throw new NotFoundError(`${location}: no such file (annot serve creates a missing file only when its name ends in .annot)`);
  return format;
}

/** Whether files of a format are stores themselves, opened in place (FormatCodec.openStore). */
async function isStoreFile(format: FormatAdapter): Promise<boolean> {
  return (await format.codec()).openStore !== undefined;
}

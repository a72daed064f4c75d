import { existsSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import type { FormatAdapter } from '../adapters/adapter.js';
import type { Finding } from '../adapters/finding.js';
import { loadIntoStore } from '../adapters/load-into-store.js';
import { resolveEncoding } from '../adapters/encoding/encoding-names.js';
import { inferFormat, readHead } from '../adapters/registry.js';
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
  const format = location === undefined ? undefined : formatOfFile(location, options.from, options.encoding);
  if (format === undefined || format.name === 'annot') {
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

/** The format of a file to serve, or undefined for a location that is not a file in another format. */
function formatOfFile(location: string, from: string | undefined, encoding: string | undefined): FormatAdapter | undefined {
  if (location === ':memory:' || isPostgresLocation(location)) return undefined;
  const exists = existsSync(location);
  if (exists && statSync(location).isDirectory()) throw new InvalidInputError(`${location}: is a directory, expected an annotation file`);
  if (from === undefined && extname(location).toLowerCase() === '.annot') return undefined;
  if (!exists) {
    if (from !== undefined && inferFormat({ explicit: from }).name === 'annot') return undefined;
    throw new NotFoundError(`${location}: no such file (annot serve creates a missing file only when its name ends in .annot)`);
  }
  return inferFormat({ explicit: from, path: location, head: readHead(location), encoding });
}

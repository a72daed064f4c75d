import type { Finding } from '../adapters/finding.js';
import { existsSync, statSync } from 'node:fs';
import type { FormatAdapter } from '../adapters/adapter.js';
import { loadIntoStore } from '../adapters/load-into-store.js';
import { resolveEncoding } from '../adapters/encoding/encoding-names.js';
import { inferFormat, readHead } from '../adapters/registry.js';
import { InvalidInputError } from '../errors/annot-error.js';
import type { AnnotationStore } from '../store/store.js';
import { loadDocument } from '../adapters/load-document.js';
import { RationalTime } from '../time/rational-time.js';

export interface OpenOptions {
  /** `--from`: the format name, overriding inference. */
  readonly from?: string;
  readonly rate?: number;
  /** `--encoding`: the text encoding of a file in a text format (a byte-order mark still decides). */
  readonly encoding?: string;
  readonly strictTime?: boolean;
  readonly assetId?: string;
  readonly tier?: string;
  readonly report?: (finding: Finding) => void;
  /** The name messages and findings use (default: the path); `<stdin>` for a spooled standard input. */
  readonly sourceName?: string;
}

export interface OpenedAnnotations {
  readonly store: AnnotationStore;
  readonly format: FormatAdapter;
  /** Whether the file is itself a store (FormatCodec.openStore), opened in place rather than read into memory. */
  readonly inPlace: boolean;
  /** How many times the import rounded, and by how much (zero for `.annot`). */
  readonly quantization: { count: number; maxErrorSeconds: number };
}

/**
 * Opens any annotation file for reading. A file that is itself a store (`.annot`: its codec can
 * openStore) is opened in place, read-only, so queries use its index and nothing is written to
 * it; every other format is loaded into a memory store through its reader.
 */
export async function openAnnotationFile(path: string, options: OpenOptions = {}): Promise<OpenedAnnotations> {
  if (!existsSync(path)) throw new InvalidInputError(`${path}: no such file`);
  if (statSync(path).isDirectory()) throw new InvalidInputError(`${path}: is a directory, expected an annotation file`);
  if (options.encoding !== undefined) resolveEncoding(options.encoding);
  const sourceName = options.sourceName ?? path;
  const format = inferFormat({ explicit: options.from, path: sourceName === path ? path : undefined, head: readHead(path), encoding: options.encoding });
  const codec = await format.codec();
  if (codec.openStore) {
    const store = await codec.openStore(path, { readonly: true });
    return { store, format, inPlace: true, quantization: { count: 0, maxErrorSeconds: 0 } };
  }
  const { MemoryStore } = await import('../store/memory.js');
  const document = await loadDocument(codec, path, {
    sourceName,
    rate: options.rate,
    encoding: options.encoding,
    strictTime: options.strictTime,
    assetId: options.assetId,
    tier: options.tier,
    now: RationalTime.now(1000),
    report: options.report ?? (() => {}),
  });
  const store = new MemoryStore();
  // Read once and let go: nothing is kept, so the limits of what annot keeps do not apply.
  await loadIntoStore(document, store, { bounded: false });
  return { store, format, inPlace: false, quantization: document.quantization() };
}

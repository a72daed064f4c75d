import { formatFinding } from '../../src/adapters/finding.js';
import type { FormatCodec, LoadOptions } from '../../src/adapters/adapter.js';
import { loadIntoStore } from '../../src/adapters/load-into-store.js';
import type { Annotation } from '../../src/model/annotation.js';
import { MemoryStore } from '../../src/store/memory.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import type { AnnotationStore } from '../../src/store/store.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { collect } from '../store/fixtures.js';

/** Load options as the CLI passes them, findings discarded unless `extra.report` collects them. */
export function loadOptions(extra: Partial<LoadOptions> = {}): LoadOptions {
  return { sourceName: 'in', now: RationalTime.now(1000), report: () => undefined, ...extra };
}

/** Loads a file through a codec into a memory store, keeping the document, the annotations and the warnings. */
export async function loadWith(codec: FormatCodec, path: string, extra: Partial<LoadOptions> = {}) {
  const warnings: string[] = [];
  const document = await codec.load(path, loadOptions({ sourceName: path, report: (finding) => warnings.push(formatFinding(finding)), ...extra }));
  const store = new MemoryStore();
  await loadIntoStore(document, store);
  return { store, document, annotations: await allOf(store), warnings };
}

export function allOf(store: AnnotationStore): Promise<Annotation[]> {
  return collect(store.all());
}

/** Loads a file through a codec into a new `.annot` file at `target` (the corpus round trips go through one). */
export async function loadIntoAnnot(codec: FormatCodec, path: string, target: string): Promise<SqliteStore> {
  const store = await SqliteStore.open(target);
  await loadIntoStore(await codec.load(path, loadOptions({ sourceName: path })), store);
  return store;
}

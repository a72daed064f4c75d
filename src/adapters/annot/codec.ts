import type { Annotation } from '../../model/annotation.js';
import { SqliteStore } from '../../store/sqlite.js';
import type { AnnotationStore } from '../../store/store.js';
import type { DumpReport, FormatCodec, LoadedDocument } from '../adapter.js';
import { loadedDocument } from '../loaded-document.js';
import { loadIntoStore } from '../load-into-store.js';

/** The `.annot` file read and written as a format: a lossless copy, nothing dropped. */
export const annotCodec: FormatCodec = {
  async load(path): Promise<LoadedDocument> {
    const store = await SqliteStore.open(path, { readonly: true });
    const tiers = await store.listTiers();
    const meta = await store.listMeta();
    return loadedDocument({ tiers, meta, annotations: streamThenClose(store) });
  },

  async dump(source: AnnotationStore, path): Promise<DumpReport> {
    if (source instanceof SqliteStore && source.path !== ':memory:') {
      await source.copyTo(path);
      return { dropped: [] };
    }
    const target = await SqliteStore.open(path, { create: true });
    try {
      await loadIntoStore(
        loadedDocument({ tiers: await source.listTiers(), meta: await source.listMeta(), annotations: source.all() }),
        target,
      );
    } finally {
      await target.close();
    }
    return { dropped: [] };
  },
};

async function* streamThenClose(store: SqliteStore): AsyncGenerator<Annotation> {
  try {
    yield* store.all();
  } finally {
    await store.close();
  }
}

import type { Annotation } from '../../model/annotation.js';
import { SqliteStore } from '../../store/sqlite.js';
import type { AnnotationStore } from '../../store/store.js';
import type { DumpReport, FormatCodec, LoadedDocument } from '../adapter.js';
import { loadedDocument } from '../loaded-document.js';
import { loadIntoStore } from '../load-into-store.js';
import { FormatParseError } from '../errors.js';
import { AnnotError } from '../../errors/annot-error.js';
import { hasBodySchema, validateBody } from '../../schemas/registry.js';
import type { LoadOptions } from '../adapter.js';

/** The `.annot` file read and written as a format: a lossless copy, nothing dropped. */
export const annotCodec: FormatCodec = {
  async load(path, options): Promise<LoadedDocument> {
    let store: SqliteStore | undefined;
    try {
      store = await SqliteStore.open(path, { readonly: true });
      const tiers = await store.listTiers();
      const meta = await store.listMeta();
      // A stored annotation has no line: a refusal of one (a limit an import holds it to) names its id.
      const last = { id: '' };
      const annotations = checkedBodies(guarded(streamThenClose(store), options.sourceName), options, last);
      return loadedDocument({ tiers, meta, annotations, file: options.sourceName, placeOfAnnotation: () => ({ path: `annotation ${last.id}` }) });
    } catch (error) {
      await store?.close().catch(() => undefined);
      throw damaged(error, options.sourceName);
    }
  },

  openStore: (path, options) => SqliteStore.open(path, options),

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

/** SQLite's own errors on a damaged or foreign file become a typed error naming the file. */
function damaged(error: unknown, file: string): unknown {
  if (error instanceof AnnotError || !(error instanceof Error)) return error;
  // A damaged page can leave a stored body that is no longer JSON.
  if (error instanceof SyntaxError) return new FormatParseError(file, {}, `a readable .annot file; a stored value is not valid JSON (${error.message}): the file is damaged`);
  if (!/^Sqlite/.test(error.name)) return error;
  return new FormatParseError(file, {}, `a readable .annot file (SQLite); ${error.message} (is the file damaged, or not an .annot file?)`);
}

async function* guarded(annotations: AsyncIterable<Annotation>, file: string): AsyncGenerator<Annotation> {
  try {
    yield* annotations;
  } catch (error) {
    throw damaged(error, file);
  }
}

/**
 * Every other reader builds bodies that fit their schemas; a stored body comes as it was written,
 * so a damaged file, or one written by a tool that skipped validation, can hold one that does not.
 * Each such body is an error finding naming the annotation and the field, as `annot validate` would.
 */
async function* checkedBodies(annotations: AsyncIterable<Annotation>, options: LoadOptions, last: { id: string }): AsyncGenerator<Annotation> {
  for await (const annotation of annotations) {
    last.id = annotation.id;
    if (hasBodySchema(annotation.body_schema_uri)) {
      const result = validateBody(annotation.body_schema_uri, annotation.body);
      for (const issue of result.errors) {
        options.report({
          code: 'body_schema',
          severity: 'error',
          file: options.sourceName,
          location: { path: `annotation ${annotation.id} ${issue.path}` },
          message: `${issue.message} (schema ${annotation.body_schema_uri})`,
          annotation_id: annotation.id,
        });
      }
    }
    yield annotation;
  }
}

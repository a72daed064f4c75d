import { InvalidInputError } from '../errors/annot-error.js';
import { isOpLoggedStore, type OpLoggedStore } from '../oplog/op-logged-store.js';
import type { AnnotationStore } from '../store/store.js';

/**
 * The store a long-running surface (`annot mcp`, `annot serve`) edits: the `.annot` file at
 * `path`, created when missing, or a private in-memory one. Both keep their op-log inside the
 * store, so every process on one file shares one Lamport clock.
 */
export async function openServiceStore(path?: string): Promise<OpLoggedStore> {
  const { SqliteStore } = await import('../store/sqlite.js');
  const store: AnnotationStore = await SqliteStore.open(path ?? ':memory:', { create: true });
  if (isOpLoggedStore(store)) return store;
  await store.close();
  // A build whose SQLite store predates the op-log still serves an in-memory session.
  if (path === undefined) {
    const { MemoryStore } = await import('../store/memory.js');
    return new MemoryStore();
  }
  throw new InvalidInputError(`${path}: this build's .annot store keeps no op-log, so it cannot be edited through the service; run without a file for an in-memory session`);
}

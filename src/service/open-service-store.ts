import { existsSync } from 'node:fs';
import { InvalidInputError, NotFoundError } from '../errors/annot-error.js';
import { isOpLoggedStore, type OpLoggedStore } from '../oplog/op-logged-store.js';
import { redactStoreUrl } from '../store/postgres-url.js';

/** Queued jobs name a PostgreSQL store without its password; a worker lends it its own. */
export { lendPassword, withoutPassword } from '../store/postgres-url.js';
import type { AnnotationStore } from '../store/store.js';

/** Options of openServiceStore. */
export interface OpenServiceStoreOptions {
  /**
   * Create a missing `.annot` file or PostgreSQL project. Default false: a surface that only
   * reads (query, validate, convert from, diff, process) never creates one, and a missing
   * project is an error that names the nearest existing one.
   */
  readonly create?: boolean;
}

/** Whether a store location names a PostgreSQL database rather than a `.annot` file. */
export function isPostgresLocation(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * The store a surface edits through the service, from where the user said it lives:
 * nothing or `:memory:` for a private in-memory store, a `postgres://` URL for a project in
 * PostgreSQL, anything else for a `.annot` file. Each kind keeps its op-log inside the store,
 * so every process working on one location shares one Lamport clock. Stores load lazily, so
 * opening a file never loads the PostgreSQL driver.
 */
export async function openServiceStore(location: string | undefined, options: OpenServiceStoreOptions = {}): Promise<OpLoggedStore> {
  if (location !== undefined && isPostgresLocation(location)) {
    let postgres: typeof import('../store/postgres.js');
    try {
      postgres = await import('../store/postgres.js');
    } catch (error) {
      throw new InvalidInputError(`${redactLocation(location)}: this build has no PostgreSQL store; use a .annot file`, { cause: error });
    }
    return postgres.PostgresStore.open(location, { create: options.create ?? false });
  }
  const { SqliteStore } = await import('../store/sqlite.js');
  const path = location ?? ':memory:';
  if (path !== ':memory:' && !options.create && !existsSync(path)) {
    throw new NotFoundError(`${path}: no such .annot file (check the path; annot convert <file> ${path} makes one from another format)`);
  }
  const store: AnnotationStore = await SqliteStore.open(path, { create: options.create ?? false });
  if (isOpLoggedStore(store)) return store;
  await store.close();
  throw new InvalidInputError(`${path}: this build's .annot store keeps no op-log, so it cannot be edited through the service`);
}

/** A location fit for messages and logs: a URL's password is replaced by `***`. */
export function redactLocation(location: string): string {
  return location.includes('://') ? redactStoreUrl(location) : location;
}

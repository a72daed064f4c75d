import type { Database } from 'better-sqlite3';
import { StoreFormatError } from './errors.js';
import { SQLITE_SCHEMA_VERSION } from './sqlite-schema.js';

/**
 * The forward-migration ladder of the `.annot` file: single steps v -> v + 1, applied in order, each
 * in its own write transaction. Version 1 is the first layout, so the ladder is empty today; a
 * future layout change adds one step here and bumps SQLITE_SCHEMA_VERSION.
 */
export interface SqliteMigrationStep {
  readonly from: number;
  readonly to: number;
  /** One line for messages: what the step changes. */
  readonly description: string;
  /** Changes the layout and stamps `meta.schema_version` = `to`, inside the caller's transaction. */
  apply(db: Database): void;
}

export const SQLITE_MIGRATIONS: readonly SqliteMigrationStep[] = Object.freeze([]);

/** The steps from `from` to `to`, in order; throws StoreFormatError when the ladder cannot get there. */
export function migrationPath(
  file: string,
  from: number,
  to: number = SQLITE_SCHEMA_VERSION,
  ladder: readonly SqliteMigrationStep[] = SQLITE_MIGRATIONS,
): SqliteMigrationStep[] {
  for (const step of ladder) {
    if (step.to !== step.from + 1) {
      throw new Error(`sqlite migration ${step.from} -> ${step.to} is not a single step; the ladder chains single steps`);
    }
  }
  const steps: SqliteMigrationStep[] = [];
  for (let version = from; version < to; version++) {
    const step = ladder.find((s) => s.from === version);
    if (step === undefined) {
      throw new StoreFormatError(
        `${file}: schema_version ${from} cannot be upgraded to ${to}: no migration from version ${version}; ` +
          'this build cannot open the file (export it with the annot version that wrote it)',
      );
    }
    steps.push(step);
  }
  return steps;
}

/**
 * Runs `steps` on an open read-write connection. Each step re-reads the version under the write
 * lock, so two processes opening an old file at once converge (the second skips what the first did),
 * and a step that forgets to stamp its version is rolled back.
 */
export function runMigrations(db: Database, file: string, steps: readonly SqliteMigrationStep[]): void {
  const readVersion = db.prepare<[], string>("SELECT value FROM meta WHERE key = 'schema_version'").pluck();
  for (const step of steps) {
    const apply = db.transaction(() => {
      if (Number(readVersion.get()) !== step.from) return;
      step.apply(db);
      const stamped = Number(readVersion.get());
      if (stamped !== step.to) {
        throw new StoreFormatError(`${file}: migration ${step.from} -> ${step.to} (${step.description}) left schema_version at ${stamped}`);
      }
    });
    apply.immediate();
  }
}

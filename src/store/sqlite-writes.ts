import type Database from 'better-sqlite3';
import type { Annotation } from '../model/annotation.js';
import { DuplicateAnnotationIdError } from './errors.js';
import { blobToId } from './sqlite-rows.js';
import { CREATE_ID_INDEX, CREATE_INTERVAL_INDEX } from './sqlite-schema.js';
import type { SqliteStatements } from './sqlite-statements.js';

/** A batch that grows past this into an empty file drops the two indexes and rebuilds them at commit (a sort, not a million random inserts). */
const BULK_LOAD_ROWS = 20_000;

/** Inserts of one transaction; finish() returns how many. */
export interface InsertBatch {
  insert(annotation: Annotation): void;
  finish(): number;
}

/** How a batch turns an annotation into insert values: `check` refuses it (unknown tier), `encode` gives id + WRITE_COLUMNS. */
export interface InsertCodec {
  check(annotation: Annotation): void;
  encode(annotation: Annotation): unknown[];
}

/**
 * Inserts of one transaction. Into an empty file, past BULK_LOAD_ROWS the indexes are dropped and
 * rebuilt by finish(), inside the same transaction: a duplicate id then shows up as the unique
 * index failing to build, and the whole batch rolls back as usual.
 */
export function beginInsertBatch(db: Database.Database, stmt: SqliteStatements, codec: InsertCodec): InsertBatch {
  // Whether the file was empty before this batch is asked only once the batch is big enough to
  // matter (then the file holds exactly this batch's rows): one query less per single create.
  let added = 0;
  let dropped = false;
  return {
    insert: (annotation: Annotation) => {
      codec.check(annotation);
      try {
        stmt.insert.run(codec.encode(annotation));
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicate(annotation.id);
        throw error;
      }
      added++;
      if (added === BULK_LOAD_ROWS && (stmt.count.get() as number) === BULK_LOAD_ROWS) {
        db.exec('DROP INDEX annotations_id; DROP INDEX annotations_interval');
        dropped = true;
      }
    },
    finish: () => {
      if (dropped) {
        try {
          db.exec(CREATE_ID_INDEX);
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          const twice = db.prepare('SELECT id FROM annotations GROUP BY id HAVING count(*) > 1 LIMIT 1').pluck().get() as Buffer;
          throw duplicate(blobToId(twice));
        }
        db.exec(CREATE_INTERVAL_INDEX);
      }
      return added;
    },
  };
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

function duplicate(id: string): DuplicateAnnotationIdError {
  return new DuplicateAnnotationIdError(`annotation id ${id} is already in the store (or twice in the batch); ids are unique`);
}

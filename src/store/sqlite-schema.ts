import type Database from 'better-sqlite3';

/**
 * The layout of an `.annot` file (schema_version 1): one SQLite database in WAL mode.
 *
 * - `meta`: the file's own keys (`schema_version`, `created_at`). User metadata (setMeta) lives in
 *   `user_meta`, so a user key can never overwrite the schema version and listMeta() returns
 *   exactly what was set, as in every other store.
 * - `tiers`: one row per tier in registration order (`seq`); an upsert keeps the row and so the order.
 * - `annotations`: one row per annotation in insertion order (`seq` is the rowid; an update
 *   rewrites the row in place and so keeps the position). The id is the UUID's 16 bytes (a smaller
 *   row and a smaller unique index than its 36-character text). Each time is kept as its exact
 *   `(v, r)` pair, so it round-trips at its original rate; `start_f`/`end_f` are the float seconds
 *   (v / r, correctly rounded, so float order never contradicts rational order) and `dur_class`
 *   the duration class of sqlite-interval-index.ts, together the interval index
 *   `(dur_class, start_f)`. Interval-less annotations (AnnotationRef) have NULL there.
 * - `interval_classes`: the duration classes present, so a query visits only those.
 * - `oplog`: reserved for the op-log (clock, kind, target_id, payload JSON, actor, received_at).
 */

/** The schema version this build writes and reads. Older files are migrated forward (sqlite-migrations.ts). */
export const SQLITE_SCHEMA_VERSION = 1;

/** `PRAGMA application_id` of an `.annot` file: "annt" in ASCII, so `file(1)` and our open check can tell. */
export const ANNOT_APPLICATION_ID = 0x616e6e74;

/** The tables an `.annot` file of the current version must have. */
export const ANNOT_TABLES: readonly string[] = ['meta', 'user_meta', 'tiers', 'annotations', 'interval_classes', 'oplog'];

export const CREATE_SCHEMA_V1 = `
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE user_meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE tiers (
  seq        INTEGER PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE,
  stereotype TEXT NOT NULL,
  parent     TEXT,
  metadata   TEXT NOT NULL
);
CREATE TABLE annotations (
  seq             INTEGER PRIMARY KEY,
  id              BLOB NOT NULL,
  tier            TEXT NOT NULL,
  ref_kind        TEXT NOT NULL CHECK (ref_kind IN ('media', 'annotation')),
  asset_id        TEXT,
  target_id       TEXT,
  start_v         INTEGER,
  start_r         INTEGER,
  end_v           INTEGER,
  end_r           INTEGER,
  start_f         REAL,
  end_f           REAL,
  dur_class       INTEGER,
  body            TEXT NOT NULL,
  body_schema_uri TEXT NOT NULL,
  generated_by    TEXT NOT NULL,
  attributed_to   TEXT NOT NULL,
  derived_from    TEXT NOT NULL,
  generated_at_v  INTEGER NOT NULL,
  generated_at_r  INTEGER NOT NULL,
  confidence      REAL
);
CREATE UNIQUE INDEX annotations_id ON annotations (id);
CREATE INDEX annotations_interval ON annotations (dur_class, start_f);
CREATE TABLE interval_classes (
  class INTEGER PRIMARY KEY
);
CREATE TABLE oplog (
  clock       INTEGER PRIMARY KEY,
  kind        TEXT NOT NULL,
  target_id   TEXT,
  payload     TEXT NOT NULL,
  actor       TEXT NOT NULL,
  received_at TEXT NOT NULL
);
`;

/** The two indexes of `annotations`, dropped and rebuilt around a bulk load into an empty file (sqlite-writes.ts). */
export const CREATE_ID_INDEX = 'CREATE UNIQUE INDEX annotations_id ON annotations (id)';
export const CREATE_INTERVAL_INDEX = 'CREATE INDEX annotations_interval ON annotations (dur_class, start_f)';

/** Creates the schema in a new file and stamps it (application id, schema_version, created_at). */
export function initializeSchema(db: Database.Database): void {
  db.transaction(() => {
    // Another process may have created the file between our check and this write lock.
    const exists = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'meta'").get() !== undefined;
    if (exists) return;
    db.exec(CREATE_SCHEMA_V1);
    db.pragma(`application_id = ${ANNOT_APPLICATION_ID}`);
    const stamp = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    stamp.run('schema_version', String(SQLITE_SCHEMA_VERSION));
    stamp.run('created_at', new Date().toISOString());
  }).immediate();
}

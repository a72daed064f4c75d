import type Database from 'better-sqlite3';
import { SELECT, WRITE_COLUMNS } from './sqlite-rows.js';
import { WARM_SELECT } from './sqlite-warm-windows.js';
import { WIRE_SELECT } from './sqlite-wire-json.js';

/** One duration class's key range: the interval index's pre-filter (sqlite-interval-index.ts). */
const RANGE = 'dur_class = ? AND start_f BETWEEN ? AND ? AND end_f BETWEEN ? AND ?';
/** A window page's rows of one class after (start_f, seq): the keyset on the index (dur_class, start_f, rowid). */
const WINDOW_PAGE = 'dur_class = ? AND (start_f, seq) > (?, ?) AND start_f <= ? AND end_f BETWEEN ? AND ?';
/** Rows picked by rowid from a JSON array of rowids. */
const BY_SEQS = 'seq IN (SELECT value FROM json_each(?))';
/** Rows per page of every paged read (all(), intervals()). */
export const PAGE = 512;

/** Every statement a SqliteStore runs, prepared once per connection, by name. */
export type SqliteStatements = Readonly<Record<StatementName, Database.Statement>>;

type StatementName =
  | 'dataVersion' | 'latestClock' | 'appendOp' | 'readOps' | 'getFileMeta' | 'insert' | 'update' | 'getById' | 'keyById' | 'idBySeq' | 'deleteById' | 'deleteBySeq'
  | 'count' | 'page' | 'pageOnTier' | 'wirePage' | 'wirePageOnTier' | 'rowsBySeqs' | 'wireBySeqs' | 'byTier' | 'referringTo' | 'candidates' | 'tierCandidates'
  | 'windowPage' | 'windowPageOnTier' | 'warmClassPage' | 'maxSeq' | 'warmBySeqs' | 'warmNewer' | 'keyCandidates' | 'keyPage' | 'addClass' | 'listClasses' | 'listTierNames'
  | 'getTier' | 'listTiers' | 'upsertTier' | 'setMeta' | 'getMeta' | 'listMeta';

export function prepareStatements(db: Database.Database): SqliteStatements {
  const insertColumns = ['id', ...WRITE_COLUMNS];
  return {
    dataVersion: db.prepare('PRAGMA data_version').pluck(),
    latestClock: db.prepare('SELECT max(clock) FROM oplog').pluck(),
    appendOp: db.prepare('INSERT INTO oplog (clock, kind, target_id, payload, actor, received_at) VALUES (?, ?, ?, ?, ?, ?)'),
    readOps: db.prepare('SELECT clock, kind, target_id, payload, actor, received_at FROM oplog WHERE clock >= ? AND clock <= ? ORDER BY clock LIMIT ?').raw(),
    getFileMeta: db.prepare('SELECT value FROM meta WHERE key = ?').pluck(),
    insert: db.prepare(`INSERT INTO annotations (${insertColumns.join(', ')}) VALUES (${insertColumns.map(() => '?').join(', ')})`),
    update: db.prepare(`UPDATE annotations SET ${WRITE_COLUMNS.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`),
    getById: db.prepare(`SELECT ${SELECT} FROM annotations WHERE id = ?`).raw(),
    keyById: db.prepare('SELECT seq, dur_class, start_f FROM annotations WHERE id = ?').raw(),
    idBySeq: db.prepare('SELECT lower(hex(id)) FROM annotations WHERE seq = ?').pluck(),
    deleteById: db.prepare(`DELETE FROM annotations WHERE id = ? RETURNING ${SELECT}, seq, dur_class, start_f`).raw(),
    deleteBySeq: db.prepare('DELETE FROM annotations WHERE seq = ?'),
    count: db.prepare('SELECT count(*) FROM annotations').pluck(),
    page: db.prepare(`SELECT ${SELECT}, seq FROM annotations WHERE seq > ? ORDER BY seq LIMIT ?`).raw(),
    pageOnTier: db.prepare(`SELECT ${SELECT}, seq FROM annotations WHERE seq > ? AND tier = ? ORDER BY seq LIMIT ?`).raw(),
    wirePage: db.prepare(`SELECT ${WIRE_SELECT} FROM annotations WHERE seq > ? ORDER BY seq LIMIT ?`).raw(),
    wirePageOnTier: db.prepare(`SELECT ${WIRE_SELECT} FROM annotations WHERE seq > ? AND tier = ? ORDER BY seq LIMIT ?`).raw(),
    rowsBySeqs: db.prepare(`SELECT ${SELECT}, seq FROM annotations WHERE ${BY_SEQS}`).raw(),
    wireBySeqs: db.prepare(`SELECT ${WIRE_SELECT} FROM annotations WHERE ${BY_SEQS}`).raw(),
    byTier: db.prepare(`SELECT ${SELECT} FROM annotations WHERE tier = ? ORDER BY seq`).raw(),
    referringTo: db.prepare(`SELECT ${SELECT} FROM annotations WHERE tier = ? AND target_id = ? ORDER BY seq`).raw(),
    candidates: db.prepare(`SELECT ${SELECT} FROM annotations WHERE ${RANGE}`).raw(),
    tierCandidates: db.prepare(`SELECT ${SELECT} FROM annotations WHERE ${RANGE} AND tier = ?`).raw(),
    windowPage: db.prepare(`SELECT start_f, seq, start_v, start_r, end_v, end_r FROM annotations WHERE ${WINDOW_PAGE} ORDER BY start_f, seq LIMIT ?`).raw(),
    windowPageOnTier: db.prepare(`SELECT start_f, seq, start_v, start_r, end_v, end_r FROM annotations WHERE ${WINDOW_PAGE} AND tier = ? ORDER BY start_f, seq LIMIT ?`).raw(),
    warmClassPage: db.prepare(`SELECT ${WARM_SELECT} FROM annotations WHERE dur_class = ? AND (start_f, seq) > (?, ?) AND seq <= ? ORDER BY start_f, seq LIMIT ?`).raw(),
    maxSeq: db.prepare('SELECT coalesce(max(seq), 0) FROM annotations').pluck(),
    warmBySeqs: db.prepare(`SELECT ${WARM_SELECT} FROM annotations WHERE ${BY_SEQS} AND dur_class IS NOT NULL`).raw(),
    warmNewer: db.prepare(`SELECT ${WARM_SELECT} FROM annotations WHERE seq > ? AND dur_class IS NOT NULL ORDER BY seq LIMIT ?`).raw(),
    keyCandidates: db.prepare(`SELECT start_f, seq, start_v, start_r, end_v, end_r FROM annotations WHERE ${RANGE}`).raw(),
    keyPage: db.prepare(
      'SELECT start_f, seq, start_v, start_r, end_v, end_r FROM annotations ' +
        'WHERE dur_class = ? AND (start_f, seq) > (?, ?) ORDER BY start_f, seq LIMIT ?',
    ).raw(),
    addClass: db.prepare('INSERT OR IGNORE INTO interval_classes (class) VALUES (?)'),
    listClasses: db.prepare('SELECT class FROM interval_classes').pluck(),
    listTierNames: db.prepare('SELECT name FROM tiers').pluck(),
    getTier: db.prepare('SELECT name, stereotype, parent, metadata FROM tiers WHERE name = ?').raw(),
    listTiers: db.prepare('SELECT name, stereotype, parent, metadata FROM tiers ORDER BY seq').raw(),
    upsertTier: db.prepare(
      'INSERT INTO tiers (name, stereotype, parent, metadata) VALUES (?, ?, ?, ?) ' +
        'ON CONFLICT (name) DO UPDATE SET stereotype = excluded.stereotype, parent = excluded.parent, metadata = excluded.metadata',
    ),
    setMeta: db.prepare('INSERT INTO user_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
    getMeta: db.prepare('SELECT value FROM user_meta WHERE key = ?').pluck(),
    listMeta: db.prepare('SELECT key, value FROM user_meta ORDER BY key').raw(),
  };
}

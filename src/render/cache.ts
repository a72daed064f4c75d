import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { defaultCacheDir } from '../io/cache-dir.js';
import { writeFailure } from '../io/write-failure.js';
import type { Asset, RequestTicket } from './providers/provider.js';

/** The cache directory: ANNOT_CACHE_DIR, else $XDG_CACHE_HOME/annot, else ~/.cache/annot (src/io/cache-dir.ts). */
export { defaultCacheDir };

/** The name of the cache's SQLite file in the cache directory. */
export const CACHE_FILE_NAME = 'render-cache.sqlite';

/** The namespaces of unit results, as the description names them. */
export const BEAT_NAMESPACE = 'render_beat';
export const SHOT_NAMESPACE = 'render_shot';

/** A unit result as the cache keeps it. */
export interface StoredUnit {
  /** The result. */
  result: Record<string, unknown>;
  /** A note kept beside it: which unit it is (`beat:<id>`, `shot:<id>`). */
  note: string;
  /** When it was stored, in seconds since the epoch. */
  stored_at: number;
}

/** The cache's SQLite file, in WAL mode; a folder or disk it cannot be written to is one typed line naming it. */
function openCacheFile(dir: string, path: string): Database.Database {
  let db: Database.Database | undefined;
  try {
    mkdirSync(dir, { recursive: true });
    db = new Database(path);
    db.pragma('busy_timeout = 10000');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    return db;
  } catch (error) {
    db?.close();
    throw writeFailure(error, path) ?? error;
  }
}

/**
 * The render cache: one SQLite file holding unit results (`units`), individual model calls
 * (`calls`), requests submitted but not yet collected (`pending_requests`) and the content hash
 * of asset URLs already downloaded (`asset_digests`). WAL and a busy timeout let two processes
 * render the same scene at once: writers queue instead of failing, readers never block.
 * API keys are never stored: nothing written here comes from the credentials.
 */
export class RenderCache {
  /** The cache file's path. */
  readonly path: string;
  private readonly db: Database.Database;
  private readonly stmts: ReturnType<RenderCache['prepare']>;

  constructor(
    /** The cache directory, holding the cache file and the media kept beside it. */
    readonly dir: string,
  ) {
    this.path = join(dir, CACHE_FILE_NAME);
    this.db = openCacheFile(dir, this.path);
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS units (
        namespace TEXT NOT NULL, key TEXT NOT NULL, result TEXT NOT NULL, note TEXT NOT NULL, stored_at REAL NOT NULL,
        PRIMARY KEY (namespace, key)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS calls (
        key TEXT PRIMARY KEY, provider TEXT NOT NULL, model_id TEXT NOT NULL, args TEXT NOT NULL,
        assets TEXT NOT NULL, request_id TEXT, stored_at REAL NOT NULL) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS pending_requests (
        key TEXT PRIMARY KEY, provider TEXT NOT NULL, model_id TEXT NOT NULL, ticket TEXT NOT NULL,
        submitted_at REAL NOT NULL) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS asset_digests (url TEXT PRIMARY KEY, sha256 TEXT NOT NULL) WITHOUT ROWID;
    `);
    this.stmts = this.prepare();
  }

  private prepare() {
    return {
      getUnit: this.db.prepare('SELECT result, note, stored_at FROM units WHERE namespace = ? AND key = ?'),
      putUnit: this.db.prepare('INSERT OR REPLACE INTO units (namespace, key, result, note, stored_at) VALUES (?, ?, ?, ?, ?)'),
      getCall: this.db.prepare('SELECT assets FROM calls WHERE key = ?'),
      putCall: this.db.prepare('INSERT OR REPLACE INTO calls (key, provider, model_id, args, assets, request_id, stored_at) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      getPending: this.db.prepare('SELECT ticket FROM pending_requests WHERE key = ?'),
      putPending: this.db.prepare('INSERT OR REPLACE INTO pending_requests (key, provider, model_id, ticket, submitted_at) VALUES (?, ?, ?, ?, ?)'),
      deletePending: this.db.prepare('DELETE FROM pending_requests WHERE key = ?'),
      getDigest: this.db.prepare('SELECT sha256 FROM asset_digests WHERE url = ?'),
      putDigest: this.db.prepare('INSERT OR REPLACE INTO asset_digests (url, sha256) VALUES (?, ?)'),
    };
  }

  /** A unit result; the unit key is the hash (beats) or the canonical (hash, quality) pair (shots). */
  getUnit(namespace: string, key: string): StoredUnit | undefined {
    const row = this.stmts.getUnit.get(namespace, key) as { result: string; note: string; stored_at: number } | undefined;
    return row ? { result: JSON.parse(row.result), note: row.note, stored_at: row.stored_at } : undefined;
  }

  /** Stores a unit result under its namespace and key. */
  putUnit(namespace: string, key: string, result: Record<string, unknown>, note: string): void {
    this.stmts.putUnit.run(namespace, key, JSON.stringify(result), note, Date.now() / 1000);
  }

  /** The assets of a model call, by its key (callKey). */
  getCall(key: string): Asset[] | undefined {
    const row = this.stmts.getCall.get(key) as { assets: string } | undefined;
    return row ? JSON.parse(row.assets) : undefined;
  }

  /** Stores a call's assets and, in the same transaction, forgets its pending request. */
  putCall(key: string, provider: string, modelId: string, args: Record<string, unknown>, assets: Asset[], requestId: string | null): void {
    this.db.transaction(() => {
      this.stmts.putCall.run(key, provider, modelId, JSON.stringify(args), JSON.stringify(assets), requestId, Date.now() / 1000);
      this.stmts.deletePending.run(key);
    })();
  }

  /** The request a provider is working on for this call, when one was recorded. */
  pendingRequest(key: string): RequestTicket | undefined {
    const row = this.stmts.getPending.get(key) as { ticket: string } | undefined;
    return row ? JSON.parse(row.ticket) : undefined;
  }

  /** Records a request a provider accepted, so a re-run collects it instead of paying twice. */
  recordRequest(key: string, provider: string, modelId: string, ticket: RequestTicket): void {
    this.stmts.putPending.run(key, provider, modelId, JSON.stringify(ticket), Date.now() / 1000);
  }

  /** Forgets a recorded request (it failed or expired). */
  forgetRequest(key: string): void {
    this.stmts.deletePending.run(key);
  }

  /** The SHA-256 of a downloaded asset, by its URL. */
  assetDigest(url: string): string | undefined {
    return (this.stmts.getDigest.get(url) as { sha256: string } | undefined)?.sha256;
  }

  /** Records the SHA-256 of a downloaded asset. */
  recordAssetDigest(url: string, sha256: string): void {
    this.stmts.putDigest.run(url, sha256);
  }

  /** Closes the cache file. */
  close(): void {
    if (this.db.open) this.db.close();
  }
}

const open = new Map<string, RenderCache>();

/** The cache of a directory, opened once per process and shared by every render in it. */
export function openRenderCache(dir: string = defaultCacheDir()): RenderCache {
  const key = resolve(dir);
  let cache = open.get(key);
  if (!cache) {
    cache = new RenderCache(key);
    open.set(key, cache);
  }
  return cache;
}

/** Closes every cache this process opened (tests, and a CLI about to exit). */
export function closeRenderCaches(): void {
  for (const cache of open.values()) cache.close();
  open.clear();
}

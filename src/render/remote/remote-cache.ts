import { existsSync, readFileSync } from 'node:fs';
import { RenderAbortedError } from '../errors.js';
import type { RenderEvent } from '../events.js';
import { sha256Hex } from '../hashing.js';
import { ObjectStoreError, type ObjectStore } from './object-store.js';
import { layoutKey, remoteCacheUrl, type RemoteCacheLocation, type RemoteCacheMode } from './remote-cache-location.js';
import { redactAws } from './s3-object-store.js';
import { entryBlobs, entryBytes, entryKey, localPathOf, localResult, readEntry, sharedEntry, type MediaBlob, type UnitAddress, type UnitEntry } from './unit-entry.js';

/** The local content-addressed store media are pulled into (assets.ts's AssetStore). */
export interface LocalMediaStore {
  /** Where the bytes of that sha256 are, or would be, kept: a pulled blob already there is used without a download. */
  pathFor(sha256: string, extension: string): string;
  /** Keeps the bytes under their own sha256 (writing them whole, so a reader never sees half a file). */
  put(
    bytes: Uint8Array,
    extension: string,
  ): {
    /** The bytes' sha256, in lowercase hex: the name they are kept under. */
    sha256: string;
    /** The file that holds them. */
    path: string;
  };
}

/** What one remote call of a unit works with: where its media go locally, where notices go, its Ctrl-C. */
export interface RemoteUnitContext {
  /** The local store pulled media are put in, so that a result's paths are on this machine. */
  assets: LocalMediaStore;
  /** Receives the cache's notices (an unusable entry, the remote found unavailable) as render events. */
  emit: (event: RenderEvent) => void;
  /** The render's Ctrl-C: aborting it stops the exchange, which then rejects with RenderAbortedError. */
  signal?: AbortSignal;
}

/** Counters of one run, for the summary and the benchmark. */
export interface RemoteCacheStats {
  /** Units served from the remote, their media verified and pulled. */
  hits: number;
  /** Lookups the remote could not serve (absent, unusable, or the remote unavailable): the unit was rendered or taken from elsewhere. */
  misses: number;
  /** Media files downloaded into the local store (those already there are not counted). */
  blobs_pulled: number;
  /** Bytes of those downloads. */
  bytes_pulled: number;
  /** Media files uploaded (new ones, and corrupt ones replaced). */
  blobs_pushed: number;
  /** Bytes of those uploads. */
  bytes_pushed: number;
  /** Unit entries this run wrote to the remote. */
  entries_written: number;
  /** Units another machine had shared first, whose entry this run took instead of its own render (so every manifest names the same media). */
  entries_adopted: number;
  /** Notices emitted: unusable entries or blobs, and the remote's first failure. */
  warnings: number;
}

/** How a RemoteCache is made: openRemoteCache fills these in for an S3 bucket; a program may give its own ObjectStore. */
export interface RemoteCacheOptions {
  /** The bucket and prefix the cache's layout lives under. */
  location: RemoteCacheLocation;
  /** Default `readwrite`; `read` for a run that must not write to the shared cache (a pull-request build). */
  mode?: RemoteCacheMode;
  /** The object store that holds the bucket: the calls the cache makes go to it. */
  store: ObjectStore;
  /** The deadline of one call for a unit entry or a HEAD. Default 15 s. */
  callMs?: number;
}

/** A unit's remote entry as read: absent, usable, or present but unusable (torn, corrupt, foreign). */
type EntryRead = { absent: true } | { entry: UnitEntry } | { invalid: string };

/**
 * The shared tier of the render cache, behind the local one: unit entries (`PREFIX/v1/ac/<key>`)
 * naming media by sha256 (`PREFIX/v1/cas/<sha256>`), as Bazel's remote cache keeps actions and
 * blobs. Keys are looked up by name, never listed.
 *
 * - Reads are verified: an entry against its schema and its address, every blob against its
 *   sha256 and size. Anything else is a miss with a notice, never served.
 * - Writes put the blobs first, then the entry with `If-None-Match: *`: the first writer wins.
 *   A writer that finds another's entry (before writing, refused by the server, or read back
 *   after a write a server did not make conditional) adopts it, so every machine's manifest
 *   names the same media.
 * - The remote never fails a render: the first failure (down, slow, refusing) is one notice, and
 *   the rest of the run goes on with the local tier and the provider. Every call has a deadline.
 * - `read` mode never writes anything.
 */
export class RemoteCache {
  /** Where the cache lives. */
  readonly location: RemoteCacheLocation;
  /** Whether this run may write to the cache. */
  readonly mode: RemoteCacheMode;
  /** This run's counters, updated as units are looked up and shared (the render summary prints them). */
  readonly stats: RemoteCacheStats = { hits: 0, misses: 0, blobs_pulled: 0, bytes_pulled: 0, blobs_pushed: 0, bytes_pushed: 0, entries_written: 0, entries_adopted: 0, warnings: 0 };
  private readonly store: ObjectStore;
  private readonly callMs: number;
  /** Why the remote is left alone for the rest of the run; set by its first failure. */
  private unavailable: string | undefined;
  /** Blobs this run found corrupt: uploaded again rather than trusted by a HEAD. */
  private readonly badBlobs = new Set<string>();

  constructor(options: RemoteCacheOptions) {
    this.location = options.location;
    this.mode = options.mode ?? 'readwrite';
    this.store = options.store;
    this.callMs = options.callMs ?? 15_000;
  }

  /** `s3://BUCKET/PREFIX`, as the user writes it: for messages, never with a credential. */
  get url(): string {
    return remoteCacheUrl(this.location);
  }

  /** Why the remote is not used any more in this run, or undefined while it is. */
  get unavailableBecause(): string | undefined {
    return this.unavailable;
  }

  /** The unit's verified result with its media pulled into the local store, or undefined (a miss). */
  async lookup(address: UnitAddress, ctx: RemoteUnitContext): Promise<Record<string, unknown> | undefined> {
    const read = await this.guard(ctx, () => this.readEntry(address, ctx));
    if (!read || 'absent' in read) return this.miss();
    if ('invalid' in read) {
      this.notice(ctx, `${this.describe(address)} is unusable (${read.invalid}); treated as a miss`);
      return this.miss();
    }
    const result = await this.guard(ctx, () => this.materialize(read.entry, ctx));
    if (!result) return this.miss();
    this.stats.hits++;
    return result;
  }

  /**
   * Shares a unit just rendered here. Returns the result to keep: this one, or the entry another
   * machine wrote first, adopted with its media. `published` says whether the remote now holds
   * the unit (so a worker need not hand the media over another way). With `force`, nothing is
   * adopted: the fresh render is kept here and the remote's first entry left as it is.
   */
  async publish(
    address: UnitAddress,
    result: Record<string, unknown>,
    ctx: RemoteUnitContext,
    options: {
      /** Keep this render even when the remote holds another's (a `--force` render). */
      force?: boolean;
    } = {},
  ): Promise<{
    /** The unit's result in local form: this render's, or the adopted entry's with its media pulled. */
    result: Record<string, unknown>;
    /** Whether the remote now holds the unit. */
    published: boolean;
  }> {
    const kept = { result, published: false };
    if (this.mode === 'read') return kept;
    const outcome = await this.guard(ctx, async () => {
      const before = await this.readEntry(address, ctx);
      if ('entry' in before) return options.force ? kept : this.adopt(before.entry, result, ctx);
      const mine = sharedEntry(address, result);
      await this.pushBlobs(mine, result, ctx);
      // Uploading media takes the longest: look again, so a writer that finished meanwhile is adopted rather than overwritten where If-None-Match is ignored.
      const again = await this.readEntry(address, ctx);
      if ('entry' in again) return options.force ? kept : this.adopt(again.entry, result, ctx);
      const key = this.acKey(address);
      // An unusable entry cannot win: it is replaced (unconditionally, since it exists).
      const written = await this.store.put(key, entryBytes(mine), { contentType: 'application/json', ifAbsent: !('invalid' in again), signal: this.deadline(ctx) });
      if (written === 'written') this.stats.entries_written++;
      // Refused (someone else was first), or written on a server that may not honour If-None-Match: the entry there now is the one every machine uses.
      const after = await this.readEntry(address, ctx);
      if ('entry' in after && Buffer.compare(entryBytes(after.entry), entryBytes(mine)) !== 0) return options.force ? kept : this.adopt(after.entry, result, ctx);
      return { result, published: 'entry' in after };
    });
    return outcome ?? kept;
  }

  /** Whether the remote holds the unit: its entry valid and every blob present at its size. Undefined when the remote cannot say. */
  async holds(address: UnitAddress, ctx: Omit<RemoteUnitContext, 'assets'>): Promise<boolean | undefined> {
    return this.guard(ctx, async () => {
      const read = await this.readEntry(address, ctx);
      if (!('entry' in read)) return false;
      return this.hasBlobs(entryBlobs(read.entry), ctx);
    });
  }

  private async adopt(entry: UnitEntry, mine: Record<string, unknown>, ctx: RemoteUnitContext): Promise<{ result: Record<string, unknown>; published: boolean }> {
    await this.repairBlobs(entry, ctx);
    const adopted = await this.materialize(entry, ctx);
    if (!adopted) return { result: mine, published: false };
    this.stats.entries_adopted++;
    return { result: adopted, published: true };
  }

  private async readEntry(address: UnitAddress, ctx: Pick<RemoteUnitContext, 'signal'>): Promise<EntryRead> {
    const bytes = await this.store.get(this.acKey(address), { signal: this.deadline(ctx) });
    if (bytes === undefined) return { absent: true };
    return readEntry(bytes, address);
  }

  /** The entry's result with its media in the local store, each verified; undefined when a blob is missing or corrupt. */
  private async materialize(entry: UnitEntry, ctx: RemoteUnitContext): Promise<Record<string, unknown> | undefined> {
    const paths = new Map<string, string>();
    for (const blob of entryBlobs(entry)) {
      const path = await this.pullBlob(blob, ctx);
      if (path === undefined) return undefined;
      paths.set(blob.sha256, path);
    }
    return localResult(entry, paths);
  }

  /**
   * One blob in the local store, from there when it is already (and verified), else from the
   * remote, checked against its sha256 and size: its local path, or undefined (missing, corrupt).
   */
  private async pullBlob(blob: MediaBlob, ctx: RemoteUnitContext): Promise<string | undefined> {
    const local = ctx.assets.pathFor(blob.sha256, blob.extension);
    if (existsSync(local) && sha256Hex(readFileSync(local)) === blob.sha256) return local;
    const bytes = await this.store.get(this.casKey(blob.sha256), { signal: this.deadline(ctx, blob.size) });
    const problem = bytes === undefined ? 'is missing' : bytes.byteLength !== blob.size || sha256Hex(bytes) !== blob.sha256 ? `does not hold the bytes its name promises (${bytes.byteLength} bytes)` : undefined;
    if (problem) {
      if (bytes !== undefined) this.badBlobs.add(blob.sha256);
      this.notice(ctx, `the shared cache's blob ${this.casKey(blob.sha256)} ${problem}; not used`);
      return undefined;
    }
    this.stats.blobs_pulled++;
    this.stats.bytes_pulled += bytes!.byteLength;
    return ctx.assets.put(bytes!, blob.extension).path;
  }

  /** A blob pulled into the local store for a caller of the render workers: its path, or undefined when the remote cannot give it. */
  async pull(blob: MediaBlob, ctx: RemoteUnitContext): Promise<string | undefined> {
    return this.guard(ctx, () => this.pullBlob(blob, ctx));
  }

  /** Whether every blob is in the remote at its size (a worker asks before handing its media over another way). */
  async hasBlobs(blobs: readonly MediaBlob[], ctx: Omit<RemoteUnitContext, 'assets'>): Promise<boolean> {
    const held = await this.guard(ctx, async () => {
      for (const blob of blobs) {
        if (this.badBlobs.has(blob.sha256)) return false;
        const head = await this.store.head(this.casKey(blob.sha256), { signal: this.deadline(ctx) });
        if (head?.size !== blob.size) return false;
      }
      return true;
    });
    return held ?? false;
  }

  /** Blobs of the entry this run found corrupt in the remote and holds good copies of here: uploaded again, so the next reader is served. */
  private async repairBlobs(entry: UnitEntry, ctx: RemoteUnitContext): Promise<void> {
    for (const blob of entryBlobs(entry)) {
      if (!this.badBlobs.has(blob.sha256)) continue;
      const local = ctx.assets.pathFor(blob.sha256, blob.extension);
      if (!existsSync(local)) continue;
      const bytes = readFileSync(local);
      if (sha256Hex(bytes) !== blob.sha256) continue;
      await this.store.put(this.casKey(blob.sha256), bytes, { contentType: blob.media_type, signal: this.deadline(ctx, blob.size) });
      this.badBlobs.delete(blob.sha256);
      this.stats.blobs_pushed++;
      this.stats.bytes_pushed += bytes.byteLength;
    }
  }

  /** Every blob of the entry, unless the remote has it already (content-addressed: a repeated upload is harmless). */
  private async pushBlobs(entry: UnitEntry, local: Record<string, unknown>, ctx: RemoteUnitContext): Promise<void> {
    for (const blob of entryBlobs(entry)) {
      const key = this.casKey(blob.sha256);
      if (!this.badBlobs.has(blob.sha256)) {
        const head = await this.store.head(key, { signal: this.deadline(ctx) });
        if (head?.size === blob.size) continue;
      }
      const bytes = readFileSync(localPathOf(local, blob.sha256));
      await this.store.put(key, bytes, { contentType: blob.media_type, signal: this.deadline(ctx, blob.size) });
      this.badBlobs.delete(blob.sha256);
      this.stats.blobs_pushed++;
      this.stats.bytes_pushed += bytes.byteLength;
    }
  }

  /**
   * Runs one remote exchange. Its failure is one notice for the whole run, after which the remote
   * is left alone; a Ctrl-C during it is the render's, and rethrown as such.
   */
  private async guard<T>(ctx: Pick<RemoteUnitContext, 'emit' | 'signal'>, work: () => Promise<T>): Promise<T | undefined> {
    if (this.unavailable !== undefined) return undefined;
    try {
      return await work();
    } catch (error) {
      if (ctx.signal?.aborted) throw new RenderAbortedError('the remote cache exchange');
      if (this.unavailable !== undefined) return undefined;
      const why = error instanceof ObjectStoreError ? error.message : redactAws(error instanceof Error ? error.message : String(error));
      this.unavailable = why;
      this.notice(ctx, `the shared cache ${this.url} is unavailable: ${why}. Going on with the local cache and the provider; it is not used again in this run`);
      return undefined;
    }
  }

  private notice(ctx: Pick<RemoteUnitContext, 'emit'>, message: string): void {
    this.stats.warnings++;
    ctx.emit({ type: 'notice', message });
  }

  private miss(): undefined {
    this.stats.misses++;
    return undefined;
  }

  private deadline(ctx: Pick<RemoteUnitContext, 'signal'>, bytes = 0): AbortSignal {
    // Media get longer in proportion: a minute per 64 MB on top of the call's own deadline.
    const timeout = AbortSignal.timeout(this.callMs + Math.ceil(bytes / (64 << 20)) * 60_000);
    return ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
  }

  private acKey(address: UnitAddress): string {
    return layoutKey(this.location, `ac/${entryKey(address)}`);
  }

  private casKey(sha256: string): string {
    return layoutKey(this.location, `cas/${sha256}`);
  }

  /** Lets go of the store's connections. */
  close(): void {
    this.store.close?.();
  }

  private describe(address: UnitAddress): string {
    return `the shared cache's entry ${this.acKey(address)}`;
  }
}

import { existsSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { DumpReport, FormatAdapter } from '../adapters/adapter.js';
import { writeAtomically } from '../io/atomic-file.js';
import { makeScratchFolder, removeScratchFolder } from '../io/temporary-files.js';
import type { Mutation } from '../oplog/mutation.js';
import type { MutationContext, OpLogEntry } from '../oplog/op-log-entry.js';
import { MemoryStore } from '../store/memory.js';
import { FileChangedOnDiskError, SaveFailedError } from './errors.js';
import { fileOnDisk, type FileOnDisk } from './file-on-disk.js';

/** What a save (or a failed one) tells whoever runs the server. */
export interface SaveEvents {
  /** The file now holds the state up to `clock`; `dropped` is what its format could not keep of it. */
  readonly saved?: (save: { path: string; clock: number; dropped: DumpReport['dropped'] }) => void;
  /**
   * A save failed (SaveFailedError: the next edit or the shutdown tries again), or was refused
   * because another program changed the file (FileChangedOnDiskError); the edits stay in memory.
   * Told once per kind of failure, until a save works again.
   */
  readonly failed?: (error: SaveFailedError | FileChangedOnDiskError) => void;
  /** A writer's warning (the same as `annot convert` prints). */
  readonly warn?: (message: string) => void;
}

export interface SavedFileOptions extends SaveEvents {
  /** The file the store was read from and is saved back to. */
  readonly path: string;
  /** Its format: the one it was read in. */
  readonly format: FormatAdapter;
  /** False keeps every edit in memory only (`--no-save`). */
  readonly save: boolean;
  /** How long after the first unsaved edit the file is written; edits in between are saved together. */
  readonly delayMs: number;
}

/**
 * The in-memory store of a file in a format other than `.annot` (a WebVTT, an EAF, a TextGrid...),
 * written back to that file in its own format after edits. The op-log lives in memory with the
 * data; the file holds only what its format keeps, so `dryRunLosses` says up front what a save
 * drops. A save runs at most `delayMs` after an edit, through a temporary sibling renamed into
 * place, and never while a batch is being applied, so the file always holds one whole state. A
 * failed save is reported and leaves the edits in memory; `close` writes what is still unsaved and
 * throws if it cannot.
 *
 * Another program may write the file meanwhile (an editor, a second annot serve, git checkout).
 * Every save first compares the file with what was loaded or last saved (its content hash; size
 * and mtime say how it changed) and, when it differs, does not overwrite it: the save is refused
 * (FileChangedOnDiskError), and so is every later one while the file differs, until `close` writes
 * the edits to a new file beside it (talk.unsaved.vtt) and throws. A missing file is written again:
 * there is nothing of anyone's to keep.
 */
export class SavedFileStore extends MemoryStore {
  private readonly options: SavedFileOptions;
  /** Mutations and saves, one at a time: a save sees one whole state. */
  private turn: Promise<unknown> = Promise.resolve();
  private savedClock = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The code of the last failure told, so each kind is told once until a save works. */
  private told: string | undefined;
  private closing: Promise<void> | undefined;
  /** The file as it was loaded or last saved; undefined until rememberFileOnDisk. */
  private onDisk: FileOnDisk | undefined;

  constructor(options: SavedFileOptions) {
    super();
    this.options = options;
  }

  /** Records the file as it is now, before it is read: the saves compare the file with this. */
  async rememberFileOnDisk(): Promise<void> {
    if (!this.options.save) return;
    const found = await fileOnDisk(this.options.path);
    this.onDisk = typeof found === 'object' ? found : undefined;
  }

  override applyLogged(mutations: readonly Mutation[], context: MutationContext): Promise<OpLogEntry[]> {
    return this.inTurn(async () => {
      const entries = await super.applyLogged(mutations, context);
      if (entries.length > 0) this.scheduleSave();
      return entries;
    });
  }

  /**
   * What a save of the current state drops, found by writing it in the file's format into a
   * scratch folder: right after the read, that is what the reader added (annotation ids,
   * provenance) and the format cannot hold.
   */
  async dryRunLosses(): Promise<DumpReport['dropped']> {
    const scratch = makeScratchFolder('annot-serve-losses-');
    try {
      const codec = await this.options.format.codec();
      return await this.inTurn(async () => (await codec.dump(this, join(scratch, `dry-run${this.options.format.extensions[0] ?? ''}`), { targetName: '<dry run>', warn: () => {} })).dropped);
    } finally {
      removeScratchFolder(scratch);
    }
  }

  /**
   * Writes what is still unsaved; throws a SaveFailedError when that fails (the edits are lost
   * with the process), or a FileChangedOnDiskError once the edits are written beside the file
   * another program changed.
   */
  override close(): Promise<void> {
    this.closing ??= (async () => {
      this.cancelTimer();
      if (!this.options.save) return;
      const error = await this.inTurn(async () => {
        const failure = await this.saveNow({ report: false });
        return failure instanceof FileChangedOnDiskError ? this.saveBeside() : failure;
      });
      if (error) throw error;
    })();
    return this.closing;
  }

  private scheduleSave(): void {
    if (!this.options.save || this.closing || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.inTurn(() => this.saveNow({ report: true }));
    }, this.options.delayMs);
  }

  private cancelTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * Saves if anything changed since the last save, unless another program changed the file;
   * answers the failure instead of throwing it, and with `report` also tells `failed` (once per
   * kind, until a save works again).
   */
  private async saveNow({ report }: { report: boolean }): Promise<SaveFailedError | FileChangedOnDiskError | undefined> {
    const clock = await this.latestClock();
    if (clock === this.savedClock) return undefined;
    const { path, format } = this.options;
    let failure: SaveFailedError | FileChangedOnDiskError | undefined;
    try {
      failure = await this.changedOnDisk(clock);
      if (failure === undefined) {
        const codec = await format.codec();
        const { dumped, written } = await writeAtomically(path, async (temporary) => {
          const result = await codec.dump(this, temporary, { targetName: path, warn: (message) => this.options.warn?.(message) });
          // What the rename puts in place (it keeps size and mtime), so the next save knows its own file.
          return { dumped: result, written: await fileOnDisk(temporary) };
        });
        this.onDisk = typeof written === 'object' ? written : undefined;
        this.savedClock = clock;
        this.told = undefined;
        this.options.saved?.({ path, clock, dropped: dumped.dropped });
        return undefined;
      }
    } catch (cause) {
      failure = new SaveFailedError(`${path}: could not save the edits up to clock ${clock} as ${format.name}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    }
    if (report && this.told !== failure.code) this.options.failed?.(failure);
    this.told = failure.code;
    return failure;
  }

  /** The refusal to save over a file another program changed since it was loaded or last saved, if it did. */
  private async changedOnDisk(clock: number): Promise<FileChangedOnDiskError | undefined> {
    const known = this.onDisk;
    if (known === undefined) return undefined;
    const now = await fileOnDisk(this.options.path);
    if (typeof now !== 'object') return undefined;
    if (now.sha256 === known.sha256) {
      this.onDisk = now; // touched, not changed
      return undefined;
    }
    const since = this.savedClock === 0 ? 'annot serve loaded it' : `annot serve saved it (edits up to clock ${this.savedClock})`;
    const how = `${now.size === known.size ? `still ${now.size}` : `${known.size} → ${now.size}`} bytes, modified ${new Date(now.mtimeMs).toISOString()}`;
    return new FileChangedOnDiskError(
      `${this.options.path} was changed on disk by another program since ${since} (${how}), so the edits up to clock ${clock} are not saved over it; ` +
        `they stay in memory, and no save overwrites it while it differs. Stop the server (Ctrl-C) to write them to ${this.besidePath()} instead, ` +
        'then compare the two (annot diff) and serve the file again',
    );
  }

  /** At shutdown, the edits refused by a changed file go to a new file beside it; the error says where (or that they are lost). */
  private async saveBeside(): Promise<FileChangedOnDiskError | SaveFailedError> {
    const beside = this.besidePath();
    const { path, format } = this.options;
    try {
      const codec = await format.codec();
      await writeAtomically(beside, (temporary) => codec.dump(this, temporary, { targetName: beside, warn: (message) => this.options.warn?.(message) }));
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      return new SaveFailedError(`${path} was changed on disk by another program, so the edits were not saved over it, and writing them to ${beside} instead failed, so they are lost: ${reason}`, { cause });
    }
    return new FileChangedOnDiskError(`${path} was changed on disk by another program, so the edits up to clock ${await this.latestClock()} were not saved over it: they are in ${beside}; compare the two (annot diff ${path} ${beside}), then serve the one to keep`);
  }

  /** talk.vtt → talk.unsaved.vtt (talk.unsaved-2.vtt, ... when that exists): a name no file has yet, in the same format. */
  private besidePath(): string {
    const { path } = this.options;
    const extension = extname(path);
    const stem = join(dirname(path), basename(path, extension));
    let candidate = `${stem}.unsaved${extension}`;
    for (let n = 2; existsSync(candidate); n++) candidate = `${stem}.unsaved-${n}${extension}`;
    return candidate;
  }

  private inTurn<T>(task: () => Promise<T>): Promise<T> {
    const run = this.turn.then(task, task);
    this.turn = run.catch(() => undefined);
    return run;
  }
}

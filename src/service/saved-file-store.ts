import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DumpReport, FormatAdapter } from '../adapters/adapter.js';
import { writeAtomically } from '../io/atomic-file.js';
import type { Mutation } from '../oplog/mutation.js';
import type { MutationContext, OpLogEntry } from '../oplog/op-log-entry.js';
import { MemoryStore } from '../store/memory.js';
import { SaveFailedError } from './errors.js';

/** What a save (or a failed one) tells whoever runs the server. */
export interface SaveEvents {
  /** The file now holds the state up to `clock`; `dropped` is what its format could not keep of it. */
  readonly saved?: (save: { path: string; clock: number; dropped: DumpReport['dropped'] }) => void;
  /** A save failed; the edits stay in memory and the next edit (or the shutdown) tries again. */
  readonly failed?: (error: SaveFailedError) => void;
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
 */
export class SavedFileStore extends MemoryStore {
  private readonly options: SavedFileOptions;
  /** Mutations and saves, one at a time: a save sees one whole state. */
  private turn: Promise<unknown> = Promise.resolve();
  private savedClock = 0;
  private timer: NodeJS.Timeout | undefined;
  private failing = false;
  private closing: Promise<void> | undefined;

  constructor(options: SavedFileOptions) {
    super();
    this.options = options;
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
    const scratch = mkdtempSync(join(tmpdir(), 'annot-serve-losses-'));
    try {
      const codec = await this.options.format.codec();
      return await this.inTurn(async () => (await codec.dump(this, join(scratch, `dry-run${this.options.format.extensions[0] ?? ''}`), { targetName: '<dry run>', warn: () => {} })).dropped);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }

  /** Writes what is still unsaved; throws a SaveFailedError when that fails (the edits are lost with the process). */
  override close(): Promise<void> {
    this.closing ??= (async () => {
      this.cancelTimer();
      if (!this.options.save) return;
      const error = await this.inTurn(() => this.saveNow({ report: false }));
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
   * Saves if anything changed since the last save; answers the failure instead of throwing it,
   * and with `report` also tells `failed` (once, until a save works again).
   */
  private async saveNow({ report }: { report: boolean }): Promise<SaveFailedError | undefined> {
    const clock = await this.latestClock();
    if (clock === this.savedClock) return undefined;
    const { path, format } = this.options;
    try {
      const codec = await format.codec();
      const dumped = await writeAtomically(path, (temporary) => codec.dump(this, temporary, { targetName: path, warn: (message) => this.options.warn?.(message) }));
      this.savedClock = clock;
      this.failing = false;
      this.options.saved?.({ path, clock, dropped: dumped.dropped });
      return undefined;
    } catch (cause) {
      const error = new SaveFailedError(`${path}: could not save the edits up to clock ${clock} as ${format.name}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
      if (report && !this.failing) this.options.failed?.(error);
      this.failing = true;
      return error;
    }
  }

  private inTurn<T>(task: () => Promise<T>): Promise<T> {
    const run = this.turn.then(task, task);
    this.turn = run.catch(() => undefined);
    return run;
  }
}

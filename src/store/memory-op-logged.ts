import { MemoryOpLog } from '../oplog/memory-op-log.js';
import type { Mutation } from '../oplog/mutation.js';
import type { MutationContext, OpLogEntry } from '../oplog/op-log-entry.js';
import type { OpLogRange } from '../oplog/op-logged-store.js';
import { IntervalQueryShortcuts } from './interval-query-shortcuts.js';
import type { AnnotationStore } from './store.js';

/**
 * The op-log of the in-process stores (memory, mapping), written once: a MemoryOpLog that applies
 * each batch through the store's own methods and keeps the entries in this process's memory. The
 * history is lost with the process, like MemoryStore's data; a MappingStore's map holds the
 * current state for other readers, not the history.
 */
export abstract class MemoryOpLoggedStore extends IntervalQueryShortcuts {
  // The subclass is the AnnotationStore; the log only keeps the reference until a batch runs.
  private readonly opLog = new MemoryOpLog(this as unknown as AnnotationStore);

  /** Applies mutations as one op-log batch, all or nothing, and returns their op-log entries. */
  applyLogged(mutations: readonly Mutation[], context: MutationContext): Promise<OpLogEntry[]> {
    return this.opLog.applyLogged(mutations, context);
  }

  /** The Lamport clock of the latest op-log entry (0 when there is none). */
  latestClock(): Promise<number> {
    return this.opLog.latestClock();
  }

  /** Op-log entries in clock order, within the range. */
  readOpLog(range?: OpLogRange): Promise<OpLogEntry[]> {
    return this.opLog.readOpLog(range);
  }
}

import type { AnnotationStore } from '../store/store.js';
import type { Mutation } from './mutation.js';
import type { MutationContext, OpLogEntry } from './op-log-entry.js';

/** Which op-log entries to read. */
export interface OpLogRange {
  /** Inclusive lower bound. */
  readonly fromClock?: number;
  /** Inclusive upper bound. */
  readonly untilClock?: number;
  /** The most entries to read. */
  readonly limit?: number;
}

/**
 * A store that keeps its own op-log: `applyLogged` applies a batch of mutations and appends
 * one entry per mutation in a single transaction, each entry getting the next Lamport clock
 * (strictly increasing, first entry 1). Two processes on one store share the one counter, so no
 * clock value is ever handed out twice. A batch is all or nothing: a refused mutation (failed
 * precondition, unknown tier, duplicate id) leaves both the data and the log as they were.
 */
export interface OpLoggedStore extends AnnotationStore {
  /** Applies mutations as one op-log batch, all or nothing, and returns their op-log entries. */
  applyLogged(mutations: readonly Mutation[], context: MutationContext): Promise<OpLogEntry[]>;
  /** The highest clock handed out, 0 when the log is empty. */
  latestClock(): Promise<number>;
  /** Entries in clock order within the inclusive bounds. */
  readOpLog(range?: OpLogRange): Promise<OpLogEntry[]>;
}

/** Whether a store keeps an op-log (every store annot opens does). */
export function isOpLoggedStore(store: AnnotationStore): store is OpLoggedStore {
  return typeof (store as Partial<OpLoggedStore>).applyLogged === 'function';
}

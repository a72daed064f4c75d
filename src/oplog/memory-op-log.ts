import type { AnnotationStore } from '../store/store.js';
import { applyMutation } from './apply-mutation.js';
import { checkBatch } from './check-batch.js';
import type { Mutation } from './mutation.js';
import { entryFor, type MutationContext, type OpLogEntry } from './op-log-entry.js';
import type { OpLogRange } from './op-logged-store.js';

/**
 * The op-log of an in-process store (memory, mapping): entries in an array, clocks dense from 1.
 * Batches are serialised by a promise chain, checked whole before anything is applied, then
 * applied and logged, so a refused batch changes neither the data nor the log.
 */
export class MemoryOpLog {
  private readonly entries: OpLogEntry[] = [];
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly store: AnnotationStore) {}

  applyLogged(mutations: readonly Mutation[], context: MutationContext): Promise<OpLogEntry[]> {
    const run = this.tail.then(async () => {
      await checkBatch(this.store, mutations);
      const appended: OpLogEntry[] = [];
      for (const mutation of mutations) {
        await applyMutation(this.store, mutation);
        const entry = { clock: this.entries.length + 1, ...entryFor(mutation, context) };
        this.entries.push(entry);
        appended.push(entry);
      }
      return appended;
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  async latestClock(): Promise<number> {
    return this.entries.length;
  }

  async readOpLog({ fromClock = 1, untilClock = Number.MAX_SAFE_INTEGER, limit = Number.MAX_SAFE_INTEGER }: OpLogRange = {}): Promise<OpLogEntry[]> {
    const from = Math.max(1, fromClock);
    return this.entries.slice(from - 1, Math.min(untilClock, from - 1 + limit));
  }
}

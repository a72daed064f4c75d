import type { SaveEvents, SavedFileStore } from '../service/saved-file-store.js';
import { plural } from './finding-output.js';
import { notice } from './output.js';

/**
 * What `annot serve` tells on stderr about saving a file in another format: each save, a
 * writer's warning the first time only (every save runs the writer again), what the format
 * cannot keep once (at start, or at the first save that meets it), and a failed save.
 * `lossesTold` is shared with savingLine, which tells the losses known at start.
 */
export function servedFileEvents(lossesTold: Set<string>): Required<SaveEvents> {
  const warningsTold = new Set<string>();
  return {
    warn: (message) => {
      if (warningsTold.has(message)) return;
      warningsTold.add(message);
      notice(`warning: ${message}`);
    },
    saved: ({ path, clock, dropped }) => {
      notice(`annot serve: saved ${path} (edits up to clock ${clock})`);
      for (const { what, count } of dropped.filter((entry) => !lossesTold.has(entry.what))) {
        lossesTold.add(what);
        notice(`annot serve: ${path} keeps no ${what}: dropped for ${plural(count, 'annotation')} in the saved file (they stay in memory while the server runs)`);
      }
    },
    failed: (error) =>
      notice(
        error.code === 'ANNOT_FILE_CHANGED_ON_DISK'
          ? `annot serve: ${error.message} [${error.code}]`
          : `annot serve: ${error.message}; the edits stay in memory, and the next edit or the shutdown tries again [${error.code}]`,
      ),
  };
}

/** One line on what a save of the served file keeps, so nobody learns it from the file afterwards. */
export async function savingLine(store: SavedFileStore, format: string, file: string, save: boolean, told: Set<string>): Promise<string> {
  if (!save) return `annot serve: edits stay in memory (--no-save): ${file} is not written`;
  const dropped = await store.dryRunLosses();
  for (const { what } of dropped) told.add(what);
  const losses = dropped.length === 0 ? '' : `; ${format} keeps ${dropped.map((entry) => `no ${entry.what}`).join(', ')}`;
  return `annot serve: edits are saved back to ${file} (${format}${await readInAnotherEncoding(store)})${losses}; --no-save keeps them in memory only`;
}

/** `, as UTF-8 (it was read as windows-1252)` for a file its reader did not read as UTF-8 (saves are UTF-8). */
async function readInAnotherEncoding(store: SavedFileStore): Promise<string> {
  const layout = await store.getMeta('text.layout');
  let encoding: unknown;
  try {
    encoding = layout === null ? undefined : (JSON.parse(layout) as { encoding?: unknown }).encoding;
  } catch {
    return '';
  }
  return typeof encoding === 'string' && encoding !== 'utf-8' ? `, as UTF-8: it was read as ${encoding}` : '';
}

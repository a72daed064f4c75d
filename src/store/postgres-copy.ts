import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { PG_SCHEMA } from './postgres-schema.js';
import { WRITE_COLUMNS, type RowValues } from './postgres-rows.js';

/**
 * The bulk path of addMany: rows stream straight into the real table with
 * `COPY annot.annotations (pid, ...) FROM STDIN` (text format). COPY checks the primary key, the
 * checks, the exclusion constraints and every index row by row as an INSERT would, and gives
 * `seq` its values in stream order, so insertion order is the batch's; a refusal anywhere fails
 * the COPY and the caller's transaction rolls everything back. (It used to go through a staging
 * table and one INSERT ... SELECT: that sort and second write cost more than the COPY itself.)
 */
const NAMES = WRITE_COLUMNS.map(([c]) => c);
export const COPY_ANNOTATIONS_SQL = `COPY ${PG_SCHEMA}.annotations (pid, ${NAMES.join(', ')}) FROM STDIN`;

/** Rows per write to the COPY stream: large enough that stream overhead vanishes. */
const LINES_PER_WRITE = 1000;

const SPECIAL = /[\\\n\r\t]/;
const SPECIAL_ALL = /[\\\n\r\t]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One value in COPY's text format: `\N` for NULL, backslash, newline, CR and tab escaped. */
function copyField(value: string | number | null): string {
  if (value === null) return '\\N';
  const text = String(value);
  return SPECIAL.test(text) ? text.replace(SPECIAL_ALL, (c) => ESCAPES[c]) : text;
}

/** One row as a COPY text line: `first` (the project's number), then the written columns. */
export function copyLine(first: number, values: RowValues): string {
  let line = String(first);
  for (const value of values) line += '\t' + copyField(value);
  return line + '\n';
}

/**
 * Streams `items` into the project's rows of annot.annotations and resolves with how many were
 * sent. `encode` turns each item into its column values; when it throws, the COPY is cancelled
 * (CopyFail) and the error rejects, leaving the transaction for the caller to roll back. A row
 * the table refuses (a duplicate key, an overlap) rejects with PostgreSQL's error.
 */
export function copyAnnotations<T>(client: pg.ClientBase, pid: number, items: Iterable<T> | AsyncIterable<T>, encode: (item: T) => RowValues): Promise<number> {
  return copyRows(client, COPY_ANNOTATIONS_SQL, items, (item) => copyLine(pid, encode(item)));
}

/** `COPY ... FROM STDIN` of one text line per item, written a thousand lines at a time; resolves with the number of rows. */
export async function copyRows<T>(client: pg.ClientBase, sql: string, items: Iterable<T> | AsyncIterable<T>, line: (item: T) => string): Promise<number> {
  const stream = client.query(copyFrom(sql));
  let count = 0;
  let lines = '';
  let pending = 0;
  try {
    for await (const item of items) {
      lines += line(item);
      count++;
      if (++pending === LINES_PER_WRITE) {
        const more = stream.write(lines);
        lines = '';
        pending = 0;
        if (!more) await once(stream, 'drain');
      }
    }
    stream.end(lines);
    await finished(stream);
    return count;
  } catch (error) {
    if (!stream.destroyed) stream.destroy(error as Error);
    await finished(stream).catch(() => undefined);
    throw error;
  }
}

/** A COPY text line of any values (the first being the project's number). */
export function copyValuesLine(values: readonly (string | number | null)[]): string {
  return values.map(copyField).join('\t') + '\n';
}

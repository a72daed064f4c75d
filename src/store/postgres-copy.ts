import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { WRITE_COLUMNS, type RowValues } from './postgres-rows.js';

/**
 * The bulk path of addMany: rows stream into a per-transaction staging table with
 * `COPY ... FROM STDIN` (text format), and one `INSERT ... SELECT` moves them into the real
 * table in batch order, so the primary key, the exclusion constraints and the indexes see the
 * rows exactly as an INSERT of the same rows would, and a refusal rolls everything back.
 */

/** The staging table: `ord` (the row's place in the batch), then the written columns. */
export const STAGE = 'pg_temp.annot_stage';
const NAMES = WRITE_COLUMNS.map(([c]) => c);

export const CREATE_STAGE_SQL =
  `CREATE TEMP TABLE IF NOT EXISTS annot_stage (ord int8, ${WRITE_COLUMNS.map(([c, type]) => `${c} ${type.slice(0, -2)}`).join(', ')}) ON COMMIT DROP`;
export const COPY_STAGE_SQL = `COPY ${STAGE} (ord, ${NAMES.join(', ')}) FROM STDIN`;
export function moveStageSql(table: string): string {
  return `INSERT INTO ${table} (pid, ${NAMES.join(', ')}) SELECT $1, ${NAMES.join(', ')} FROM ${STAGE} ORDER BY ord`;
}
export const DROP_STAGE_SQL = `DROP TABLE ${STAGE}`;

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

/** One staging row as a COPY text line. */
export function copyLine(ord: number, values: RowValues): string {
  let line = String(ord);
  for (const value of values) line += '\t' + copyField(value);
  return line + '\n';
}

/**
 * Streams `rows` into the staging table (created if this transaction has none) and resolves with
 * how many were sent. `encode` turns each item into its column values; when it throws, the COPY
 * is cancelled (CopyFail) and the error rejects, leaving the transaction for the caller to roll back.
 */
export async function copyIntoStage<T>(client: pg.ClientBase, items: Iterable<T> | AsyncIterable<T>, encode: (item: T) => RowValues): Promise<number> {
  await client.query(CREATE_STAGE_SQL);
  const stream = client.query(copyFrom(COPY_STAGE_SQL));
  let ord = 0;
  let lines = '';
  let pending = 0;
  try {
    for await (const item of items) {
      lines += copyLine(ord++, encode(item));
      if (++pending === LINES_PER_WRITE) {
        const more = stream.write(lines);
        lines = '';
        pending = 0;
        if (!more) await once(stream, 'drain');
      }
    }
    stream.end(lines);
    await finished(stream);
    return ord;
  } catch (error) {
    if (!stream.destroyed) stream.destroy(error as Error);
    await finished(stream).catch(() => undefined);
    throw error;
  }
}

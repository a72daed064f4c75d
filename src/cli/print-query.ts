import { formatFinding } from '../adapters/finding.js';
import type { QueryRequest } from '../service/query-annotations.js';
import type { TimeStyle } from '../time/time-format.js';
import { notice, stdoutClosed, writeJsonLine, writeTextLines } from './output.js';

export interface PrintQueryRequest extends QueryRequest {
  /** Input format, when the extension and content do not tell. */
  readonly from?: string;
  /** `--encoding`: the file's text encoding (a byte-order mark still decides). */
  readonly encoding?: string;
  /** How times are printed beside `{v, r}` (default seconds: the exact decimal `s`). */
  readonly time?: TimeStyle;
}

/** Annotations per page read from the store while streaming: one page is held at a time. */
const PAGE = 1000;

/**
 * `annot query`'s work: open the file (`-` is standard input, a `postgres://…?project=` URL a
 * PostgreSQL store), stream the annotations asked for as JSON lines, page by page through the
 * store's paged read (the read path HTTP and MCP use). Shared by the oclif command and the
 * start-up fast path (bin/run.js), so both print the same bytes. Everything is imported on
 * demand: a command module stays cheap to load.
 */
export async function printQuery(file: string, request: PrintQueryRequest): Promise<void> {
  const [{ openAnnotationFile }, { parseReadRequest }, { plainWording }, { readPages }, { annotationToOutput }, { isPostgresLocation, openServiceStore, redactLocation }] =
    await Promise.all([
      import('../service/open-annotation-file.js'),
      import('../service/read-request.js'),
      import('../service/read-wording.js'),
      import('../service/read-annotations.js'),
      import('../model/wire.js'),
      import('../service/open-service-store.js'),
    ]);
  const { from, time, encoding, ...query } = request;
  // Checked before the file is opened, in the flags' own words.
  const read = parseReadRequest({ ...query, limit: PAGE }, plainWording({ start: '--start', end: '--end', relation: '--relation', after: '--after' }, 'start again without it'));
  const spooled = file === '-' ? await (await import('../service/standard-input.js')).spoolInput(process.stdin) : undefined;
  try {
    const store = isPostgresLocation(file)
      ? await openServiceStore(file)
      : (await openAnnotationFile(spooled?.path ?? file, { from, encoding, rate: request.rate, sourceName: spooled ? '<stdin>' : file, report: (finding) => notice(formatFinding(finding)) })).store;
    const where = spooled ? 'standard input' : redactLocation(file);
    const style = time ?? 'seconds';
    try {
      // `| head`: once the reader has gone, nothing more is read, and the exit status stays what it was.
      if (style === 'seconds') {
        // The surfaces' form, as the store's texts: no annotation objects on the way.
        for await (const texts of readPages(store, read, 'wire-json', where)) {
          await writeTextLines(texts);
          if (stdoutClosed()) break;
        }
        return;
      }
      for await (const annotations of readPages(store, read, 'objects', where)) {
        for (const annotation of annotations) await writeJsonLine(annotationToOutput(annotation, style));
        if (stdoutClosed()) break;
      }
    } finally {
      await store.close();
    }
  } finally {
    spooled?.dispose();
  }
}

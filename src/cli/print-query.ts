import { formatFinding } from '../adapters/finding.js';
import type { QueryRequest } from '../service/query-annotations.js';
import type { TimeStyle } from '../time/time-format.js';
import { notice, stdoutClosed, writeJsonLine, writeTextLines } from './output.js';

export interface PrintQueryRequest extends QueryRequest {
  /** Input format, when the extension and content do not tell. */
  readonly from?: string;
  /** How times are printed beside `{v, r}` (default seconds: the exact decimal `s`). */
  readonly time?: TimeStyle;
}

/**
 * `annot query`'s work: open the file (`-` is standard input, a `postgres://…?project=` URL a
 * PostgreSQL store), stream the annotations asked for as JSON lines. Shared by the oclif command
 * and the start-up fast path (bin/run.js), so both print the same bytes. Everything is imported
 * on demand: a command module stays cheap to load.
 */
export async function printQuery(file: string, request: PrintQueryRequest): Promise<void> {
  const [{ openAnnotationFile }, { queryAnnotations, queryAnnotationsWireJson, parseWindow }, { registerBuiltinFormats }, { annotationToOutput }, { requireTier }, { isPostgresLocation, openServiceStore, redactLocation }] =
    await Promise.all([
      import('../service/open-annotation-file.js'),
      import('../service/query-annotations.js'),
      import('../adapters/builtin.js'),
      import('../model/wire.js'),
      import('../service/tier-lookup.js'),
      import('../service/open-service-store.js'),
    ]);
  registerBuiltinFormats();
  const spooled = file === '-' ? await (await import('../service/standard-input.js')).spoolInput(process.stdin) : undefined;
  try {
    const store = isPostgresLocation(file)
      ? await openServiceStore(file)
      : (await openAnnotationFile(spooled?.path ?? file, { from: request.from, rate: request.rate, sourceName: spooled ? '<stdin>' : file, report: (finding) => notice(formatFinding(finding)) })).store;
    try {
      if (request.tier !== undefined) await requireTier(store, request.tier, spooled ? 'standard input' : redactLocation(file));
      const style = request.time ?? 'seconds';
      if (style !== 'timecode' && parseWindow(request) !== null) {
        // A window comes back as one list anyway: through the store's read fast path, already as JSON texts.
        await writeTextLines(await queryAnnotationsWireJson(store, request, Number.POSITIVE_INFINITY, { seconds: style === 'seconds' }));
        return;
      }
      for await (const annotation of queryAnnotations(store, request)) {
        if (stdoutClosed()) break; // `| head`: nothing more is read, and the exit status stays what it was
        await writeJsonLine(annotationToOutput(annotation, style));
      }
    } finally {
      await store.close();
    }
  } finally {
    spooled?.dispose();
  }
}

import { formatFinding } from '../adapters/finding.js';
import type { TimeStyle } from '../time/time-format.js';
import type { QueryRequest } from '../service/query-annotations.js';
import { notice, writeJsonLine, writeTextLines } from './output.js';

export interface PrintQueryRequest extends QueryRequest {
  /** Input format, when the extension and content do not tell. */
  readonly from?: string;
  /** How times are printed beside `{v, r}` (default seconds: the exact decimal `s`). */
  readonly time?: TimeStyle;
}

/**
 * `annot query`'s work: open the file, stream the annotations asked for as JSON lines. Shared by
 * the oclif command and the start-up fast path (bin/run.js), so both print the same bytes.
 * Everything is imported on demand: a command module stays cheap to load.
 */
export async function printQuery(file: string, request: PrintQueryRequest): Promise<void> {
  const [{ openAnnotationFile }, { queryAnnotations, queryAnnotationsWireJson, parseWindow }, { registerBuiltinFormats }, { annotationToOutput }] = await Promise.all([
    import('../service/open-annotation-file.js'),
    import('../service/query-annotations.js'),
    import('../adapters/builtin.js'),
    import('../model/wire.js'),
  ]);
  registerBuiltinFormats();
  const opened = await openAnnotationFile(file, { from: request.from, rate: request.rate, report: (finding) => notice(formatFinding(finding)) });
  const style = request.time ?? 'seconds';
  try {
    // A window comes back as one list anyway: through the store's read fast path, already as JSON texts.
    if (style !== 'timecode' && parseWindow(request) !== null) {
      await writeTextLines(await queryAnnotationsWireJson(opened.store, request, Number.POSITIVE_INFINITY, { seconds: style === 'seconds' }));
    } else {
      for await (const annotation of queryAnnotations(opened.store, request)) await writeJsonLine(annotationToOutput(annotation, style));
    }
  } finally {
    await opened.store.close();
  }
}

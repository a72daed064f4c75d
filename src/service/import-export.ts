import type { Finding } from '../adapters/finding.js';
import { readFile } from 'node:fs/promises';
import type { FormatAdapter } from '../adapters/adapter.js';
import { boundedAnnotations, parentsFirst } from '../adapters/load-into-store.js';
import { getAdapter, inferFormat, readHead } from '../adapters/registry.js';
import type { Mutation } from '../oplog/mutation.js';
import { ATTR_FORMAT } from '../telemetry/attributes.js';
import { withSpan } from '../telemetry/tracing.js';
import { RationalTime } from '../time/rational-time.js';
import { loadDocument } from '../adapters/load-document.js';
import type { AnnotationService } from './annotation-service.js';

/** What importIntoService takes. */
export interface ImportRequest {
  /** The uploaded file, already on disk (the HTTP layer spools request bodies to a temporary file). */
  readonly path: string;
  /** Format name; inferred from the content when absent. */
  readonly format?: string;
  /** The rate times are imported at, in ticks a second; default the format's own. */
  readonly rate?: number;
  /** `?encoding=`: the upload's text encoding (a byte-order mark still decides). */
  readonly encoding?: string;
  /** Refuse a time the rate cannot hold exactly, rather than round it. */
  readonly strictTime?: boolean;
  /** The media asset the imported annotations refer to, for formats that name none. */
  readonly assetId?: string;
  /** Import only this tier. */
  readonly tier?: string;
  /** The agent the op-log records for the import. */
  readonly actor: string;
  /** Told about each problem the reader repaired, dropped or guessed. */
  readonly report?: (finding: Finding) => void;
}

/** What an import added. */
export interface ImportReport {
  /** The format the file was read as. */
  readonly format: string;
  /** How many annotations were added. */
  readonly annotations_added: number;
  /** How many tiers were added. */
  readonly tiers_added: number;
  /** The clock of the last entry the import appended (0 when it added nothing). */
  readonly clock: number;
  /** How many times were rounded to the rate, and the largest error in seconds. */
  readonly quantized: {
    /** How many times were rounded to the rate. */
    count: number;
    /** The largest rounding error, in seconds. */
    max_error_seconds: number;
  };
}

/**
 * Imports a file through the op-log: each tier the store lacks and each annotation becomes an
 * entry, so time travel (`stateAt`) covers imported data too. Tiers that already exist are kept as
 * they are. The whole import is one logged transaction: all of it is in the store, or (a refused
 * annotation, a crash, a killed server) none of it. The file is read whole first, so nothing is
 * written before it has been read to its end.
 */
export async function importIntoService(service: AnnotationService, request: ImportRequest): Promise<ImportReport> {
  const format = inferFormat({ explicit: request.format, head: readHead(request.path), encoding: request.encoding });
  const codec = await format.codec();
  const sourceName = `upload.${format.name}`;
  const document = await withSpan(`adapter.load ${format.name}`, { [ATTR_FORMAT]: format.name }, () =>
    loadDocument(codec, request.path, {
      sourceName,
      rate: request.rate,
      encoding: request.encoding,
      strictTime: request.strictTime,
      assetId: request.assetId,
      tier: request.tier,
      now: RationalTime.now(1000),
      report: request.report ?? (() => {}),
    }),
  );
  const mutations: Mutation[] = [];
  for (const tier of parentsFirst(document.tiers)) {
    if (!(await service.store.getTier(tier.name))) mutations.push({ kind: 'add_tier', tier });
  }
  const tiersAdded = mutations.length;
  // Held to the limits as they are read (the service holds the batch to them again), so that a refusal names its place in the upload.
  for await (const annotation of boundedAnnotations(document, sourceName)) mutations.push({ kind: 'add_annotation', annotation });
  const clock = mutations.length > 0 ? await service.apply(mutations, request.actor) : 0;
  const quantized = document.quantization();
  return {
    format: format.name,
    annotations_added: mutations.length - tiersAdded,
    tiers_added: tiersAdded,
    clock,
    quantized: { count: quantized.count, max_error_seconds: quantized.maxErrorSeconds },
  };
}

/** What exportFromService wrote. */
export interface ExportResult {
  /** The format written. */
  readonly format: FormatAdapter;
  /** The file's bytes. */
  readonly bytes: Buffer;
  /** What the format could not keep, with how many. */
  readonly dropped: ReadonlyArray<{
    /** What was lost (`provenance`, `ids`, a body field...). */
    what: string;
    /** How many annotations lost it. */
    count: number;
  }>;
}

/** Dumps the whole store in a format, as bytes (the HTTP layer sends them; files use convert). */
export async function exportFromService(service: AnnotationService, formatName: string, scratchPath: string): Promise<ExportResult> {
  const format = getAdapter(formatName);
  const codec = await format.codec();
  const report = await withSpan(`adapter.dump ${format.name}`, { [ATTR_FORMAT]: format.name }, () =>
    codec.dump(service.store, scratchPath, { targetName: `export${format.extensions[0] ?? ''}`, warn: () => {} }),
  );
  return { format, bytes: await readFile(scratchPath), dropped: report.dropped };
}

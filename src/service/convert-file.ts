import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { DumpReport, FormatAdapter } from '../adapters/adapter.js';
import { loadIntoStore } from '../adapters/load-into-store.js';
import { inferFormat, readHead } from '../adapters/registry.js';
import { InvalidInputError } from '../errors/annot-error.js';
import type { AnnotationStore } from '../store/store.js';
import { ATTR_ANNOTATION_COUNT, ATTR_FORMAT } from '../telemetry/attributes.js';
import { withSpan } from '../telemetry/tracing.js';
import { RationalTime } from '../time/rational-time.js';
import { writeAtomically } from './atomic-file.js';

export interface ConvertRequest {
  /** Input path, or `-` for standard input. */
  readonly input: string;
  /** Output path, or `-` for standard output (then `to` is required). */
  readonly output: string;
  readonly from?: string;
  readonly to?: string;
  readonly rate?: number;
  readonly strictTime?: boolean;
  readonly assetId?: string;
  readonly tier?: string;
  readonly variant?: string;
  readonly warn: (message: string) => void;
  /** Called with the running number of annotations read. */
  readonly onProgress?: (annotations: number) => void;
  /** Where standard streams come from and go to (tests and the CLI pass process streams). */
  readonly stdin?: NodeJS.ReadableStream;
  readonly stdout?: NodeJS.WritableStream;
}

export interface ConvertReport {
  readonly from: string;
  readonly to: string;
  readonly annotations: number;
  readonly tiers: number;
  readonly dropped: DumpReport['dropped'];
  readonly quantized: { count: number; maxErrorSeconds: number };
}

/**
 * Converts an annotation file between formats. The output is written to a temporary file and
 * renamed into place, so a failure (malformed input, a time that will not fit, a full disk)
 * never leaves a half-written file. Converting into `.annot` streams straight into the new file.
 */
export async function convertFile(request: ConvertRequest): Promise<ConvertReport> {
  const scratch = mkdtempSync(join(tmpdir(), 'annot-convert-'));
  try {
    const inputPath = request.input === '-' ? await spoolStdin(request, scratch) : request.input;
    const source = inferFormat({ explicit: request.from, path: request.input === '-' ? undefined : inputPath, head: readHead(inputPath) });
    if (request.output === '-' && !request.to) throw new InvalidInputError('writing to standard output needs --to FORMAT');
    const target = inferFormat({ explicit: request.to, path: request.output });
    const outputPath = request.output === '-' ? join(scratch, `out${target.extensions[0] ?? ''}`) : request.output;
    const write = (path: string) => convertInto(inputPath, source, path, target, request);
    const report = request.output === '-' ? await write(outputPath) : await writeAtomically(outputPath, write);
    if (request.output === '-') await pipeline(createReadStream(outputPath), request.stdout ?? process.stdout, { end: false });
    return report;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function convertInto(inputPath: string, source: FormatAdapter, outputPath: string, target: FormatAdapter, request: ConvertRequest): Promise<ConvertReport> {
  const { SqliteStore } = await import('../store/sqlite.js');
  let store: AnnotationStore;
  let quantized = { count: 0, maxErrorSeconds: 0 };
  let annotations: number;
  // Spans: `adapter.load` is the reading of the input, `adapter.dump` the writing of the output
  // (for `.annot` output, the streaming of the parsed annotations into the new file).
  if (source.name === 'annot') {
    store = await withSpan('adapter.load annot', { [ATTR_FORMAT]: 'annot' }, () => SqliteStore.open(inputPath, { readonly: true }));
    annotations = await store.count();
  } else {
    const codec = await source.codec();
    const document = await withSpan(`adapter.load ${source.name}`, { [ATTR_FORMAT]: source.name }, () =>
      codec.load(inputPath, {
        sourceName: request.input === '-' ? '<stdin>' : request.input,
        rate: request.rate,
        strictTime: request.strictTime,
        assetId: request.assetId,
        tier: request.tier,
        now: RationalTime.now(1000),
        warn: request.warn,
      }),
    );
    if (target.name === 'annot') {
      // Into .annot the new file itself is the store, filled in one transaction (the file is a temporary one anyway).
      return withSpan('adapter.dump annot', { [ATTR_FORMAT]: 'annot' }, async (span) => {
        const file = await SqliteStore.open(outputPath, { create: true });
        try {
          const written = await loadIntoStore(document, file, { onProgress: request.onProgress, batchSize: Number.POSITIVE_INFINITY });
          span.setAttribute(ATTR_ANNOTATION_COUNT, written);
          const tiers = (await file.listTiers()).length;
          return { from: source.name, to: target.name, annotations: written, tiers, dropped: [], quantized: document.quantization() };
        } finally {
          await file.close();
        }
      });
    }
    // Otherwise hold the data in memory for the dump.
    const { MemoryStore } = await import('../store/memory.js');
    store = new MemoryStore();
    annotations = await loadIntoStore(document, store, { onProgress: request.onProgress });
    quantized = document.quantization();
  }
  try {
    const tiers = (await store.listTiers()).length;
    const codec = await target.codec();
    const dumped = await withSpan(`adapter.dump ${target.name}`, { [ATTR_FORMAT]: target.name, [ATTR_ANNOTATION_COUNT]: annotations }, () =>
      codec.dump(store, outputPath, {
        targetName: request.output === '-' ? '<stdout>' : request.output,
        tier: request.tier,
        variant: request.variant,
        warn: request.warn,
      }),
    );
    return { from: source.name, to: target.name, annotations, tiers, dropped: dumped.dropped, quantized };
  } finally {
    await store.close();
  }
}

async function spoolStdin(request: ConvertRequest, scratch: string): Promise<string> {
  const path = join(scratch, 'stdin');
  await pipeline(request.stdin ?? process.stdin, createWriteStream(path));
  return path;
}

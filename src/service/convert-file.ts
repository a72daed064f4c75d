import type { Finding } from '../adapters/finding.js';
import { createReadStream, createWriteStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { DumpReport, FormatAdapter, FormatCodec, LoadedDocument, LoadOptions } from '../adapters/adapter.js';
import { loadIntoStore, parentsFirst } from '../adapters/load-into-store.js';
import { resolveEncoding } from '../adapters/encoding/encoding-names.js';
import { inferFormat, readHead } from '../adapters/registry.js';
import { InvalidInputError } from '../errors/annot-error.js';
import { StrictConversionError } from './errors.js';
import { requireTier } from './tier-lookup.js';
import type { AnnotationStore } from '../store/store.js';
import { ATTR_ANNOTATION_COUNT, ATTR_FORMAT } from '../telemetry/attributes.js';
import { withSpanIfTracing as withSpan } from '../telemetry/lazy-span.js';
import { stampedAttribute, wholeAnnotationsDropped } from './conversion-losses.js';
import { convertAsStream, dumpStoreAsStream } from './convert-stream.js';
import { RationalTime } from '../time/rational-time.js';
import type { Mutation } from '../oplog/mutation.js';
import { isPostgresLocation } from './open-service-store.js';
import { writeAtomically } from '../io/atomic-file.js';
import { loadDocument } from '../adapters/load-document.js';
import { makeScratchFolder, removeScratchFolder } from '../io/temporary-files.js';
import { writeFailure } from '../io/write-failure.js';
import { tierNameFindingsOfFile } from './tier-name-findings.js';
import type { RetimeMap } from '../time/retime.js';
import { retimedDocument, retimedWhenAsked, storeAsDocument, type ConversionRetime, type RetimeReport } from './retimed-document.js';

/** What convertFile takes. */
export interface ConvertRequest {
  /** Input path, or `-` for standard input. */
  readonly input: string;
  /** Output path, or `-` for standard output (then `to` is required). */
  readonly output: string;
  /** The input's format name; inferred from its name and content when absent. */
  readonly from?: string;
  /** The output's format name; inferred from its name when absent. */
  readonly to?: string;
  /** The rate times are read at, in ticks a second; default the input format's own. */
  readonly rate?: number;
  /** `--encoding`: the input's text encoding (a byte-order mark still decides). */
  readonly encoding?: string;
  /** Refuse a time the rate cannot hold exactly, rather than round it. */
  readonly strictTime?: boolean;
  /** The media asset the annotations refer to, for input formats that name none. */
  readonly assetId?: string;
  /** Convert only this tier. */
  readonly tier?: string;
  /** The output format's variant (TextGrid `short`, SRT `speaker-prefix`). */
  readonly variant?: string;
  /** `--strict`: any reader finding fails the conversion, and nothing is written. */
  readonly strict?: boolean;
  /** What the writer could not keep. */
  readonly warn: (message: string) => void;
  /** What the reader repaired, dropped or guessed. */
  readonly report: (finding: Finding) => void;
  /** Called with the running number of annotations read. */
  readonly onProgress?: (annotations: number) => void;
  /**
   * Whether a conversion that can stream does (the default; see convert-stream.ts). False
   * converts through a whole document in memory, the path the streaming one is tested against.
   */
  readonly stream?: boolean;
  /** Where standard streams come from and go to (tests and the CLI pass process streams). */
  readonly stdin?: NodeJS.ReadableStream;
  /** Where output `-` goes (default process.stdout). */
  readonly stdout?: NodeJS.WritableStream;
  /**
   * Retime every annotation as it is read (time/retime.ts `retimeMap`), at the input's import
   * rate: `strict` refuses a cut or drop before 0 s, `strictTime` a time it would round.
   */
  readonly retime?: RetimeMap;
}

/** What convertFile wrote. */
export interface ConvertReport {
  /** The input's format name. */
  readonly from: string;
  /** The output's format name. */
  readonly to: string;
  /** Annotations the output holds (those read, less those the target format could not hold at all). */
  readonly annotations: number;
  /** How many tiers the output holds. */
  readonly tiers: number;
  /** What the output format could not keep, with how many. */
  readonly dropped: DumpReport['dropped'];
  /** How many times were rounded to the rate, and the largest error in seconds. */
  readonly quantized: {
    /** How many times were rounded to the rate. */
    count: number;
    /** The largest rounding error, in seconds. */
    maxErrorSeconds: number;
  };
  /** With `retime`: how many annotations it moved, cut, dropped and times it rounded, and the lines saying what was lost. */
  readonly retimed?: RetimeReport;
}

/**
 * Converts an annotation file between formats. The output is written to a temporary file and
 * renamed into place, so a failure (malformed input, a time that will not fit, a full disk)
 * never leaves a half-written file. The path is chosen by what the codecs can do, never by a
 * format's name (ARCHITECTURE.md, "Formats"): a streaming reader into a cue or two-pass writer
 * streams (convert-stream.ts); a source whose file is a store is read in place; a target whose
 * file is a store is bulk-loaded; anything else goes through a memory store.
 */
export async function convertFile(original: ConvertRequest): Promise<ConvertReport> {
  const scratch = makeScratchFolder('annot-convert-');
  const request = strictly(original);
  // An unknown name is a usage error before anything is read.
  if (request.encoding !== undefined) resolveEncoding(request.encoding);
  try {
    if (request.output === '-' && !request.to) throw new InvalidInputError('writing to standard output needs --to FORMAT');
    if (isPostgresLocation(request.input) || isPostgresLocation(request.output)) return await convertWithDatabase(request, scratch);
    const inputPath = request.input === '-' ? await spoolStdin(request, scratch) : request.input;
    const source = inferFormat({ explicit: request.from, path: request.input === '-' ? undefined : inputPath, head: readHead(inputPath), encoding: request.encoding });
    const target = inferFormat({ explicit: request.to, path: request.output });
    const outputPath = request.output === '-' ? join(scratch, `out${target.extensions[0] ?? ''}`) : request.output;
    const write = (path: string) => convertInto(inputPath, source, path, target, request);
    const report = request.output === '-' ? await spooled(outputPath, write) : await writeAtomically(outputPath, write);
    if (request.output === '-') await copyToStdout(outputPath, request.stdout ?? process.stdout);
    return report;
  } finally {
    removeScratchFolder(scratch);
  }
}

async function convertInto(inputPath: string, source: FormatAdapter, outputPath: string, target: FormatAdapter, request: ConvertRequest): Promise<ConvertReport> {
  if (request.stream !== false) {
    const streamed = await convertAsStream({
      inputPath,
      outputPath,
      source,
      target,
      load: loadOptions(request),
      inputName: request.input === '-' ? 'standard input' : request.input,
      targetName: request.output === '-' ? '<stdout>' : request.output,
      tier: request.tier,
      variant: request.variant,
      warn: request.warn,
      onProgress: request.onProgress,
      beforeCommit: (tierNames) => {
        reportTierNames(request, tierNames, inputPath);
        refuseFindingsUnderStrict(request);
      },
      retime: conversionRetime(request),
    });
    if (streamed.kind === 'converted') {
      const { annotations, tiers, dropped, quantized, retimed } = streamed;
      return { from: source.name, to: target.name, annotations, tiers, dropped, quantized, ...(retimed === undefined ? {} : { retimed }) };
    }
    if (streamed.kind === 'whole_document') rereading(request);
  }
  const [sourceCodec, targetCodec] = await Promise.all([source.codec(), target.codec()]);
  // Spans: `adapter.load` is the reading of the input, `adapter.dump` the writing of the output
  // (for a target that is a store, the streaming of the parsed annotations into the new file).
  // A source whose file is itself a store (FormatCodec.openStore) is read in place, not parsed.
  const openStore = sourceCodec.openStore;
  const ends = { inputPath, outputPath, source, target, targetCodec };
  if (openStore) {
    const store = await withSpan(`adapter.load ${source.name}`, { [ATTR_FORMAT]: source.name }, () => openStore(inputPath, { readonly: true }));
    const retime = conversionRetime(request);
    if (retime !== undefined) return dumpRetimedStore(store, ends, request, retime);
    return dumpHeldStore({ store, inPlace: true, fromStore: true, annotations: await store.count(), quantized: { count: 0, maxErrorSeconds: 0 } }, ends, request);
  }
  const loaded = await withSpan(`adapter.load ${source.name}`, { [ATTR_FORMAT]: source.name }, () => loadDocument(sourceCodec, inputPath, loadOptions(request)));
  const { document, report: retimed } = retimedWhenAsked(loaded, conversionRetime(request), inputName(request));
  // A target whose file is itself a store is filled in bulk: the new file (a temporary one anyway) is the store.
  if (targetCodec.openStore) return { ...(await bulkLoadInto(document, targetCodec.openStore, ends, request)), ...retimed() };
  // Otherwise hold the data in memory for the dump.
  const { MemoryStore } = await import('../store/memory.js');
  const store = new MemoryStore();
  const annotations = await loadIntoStore(document, store, { onProgress: request.onProgress, bounded: false });
  return { ...(await dumpHeldStore({ store, inPlace: false, fromStore: false, annotations, quantized: document.quantization() }, ends, request)), ...retimed() };
}

/** The retime a request asks for, with the strictness of its flags. */
function conversionRetime(request: ConvertRequest): ConversionRetime | undefined {
  return request.retime === undefined ? undefined : { map: request.retime, strict: request.strict, strictTime: request.strictTime };
}

/**
 * A source that is a store (a `.annot` file, a PostgreSQL project) with a retime: its annotations
 * are read once, retimed into a memory store, and that is written. The source is closed here.
 */
async function readRetimed(source: AnnotationStore, request: ConvertRequest, name: string): Promise<{ held: HeldStore; retimed: () => { retimed?: RetimeReport } }> {
  const { MemoryStore } = await import('../store/memory.js');
  const store = new MemoryStore();
  try {
    const { document, report } = retimedWhenAsked(await storeAsDocument(source), conversionRetime(request), name);
    const annotations = await loadIntoStore(document, store, { onProgress: request.onProgress, bounded: false });
    return { held: { store, inPlace: false, fromStore: true, annotations, quantized: { count: 0, maxErrorSeconds: 0 } }, retimed: report };
  } catch (error) {
    await store.close();
    throw error;
  } finally {
    await source.close();
  }
}

/**
 * A `.annot` file read in place, retimed on the way to the target's writer: as a stream over the
 * store when the writer takes one (cues, or TextGrid's two passes) and the retimed annotations
 * stay in time order, else read once into a memory store, retimed, and written from there.
 */
async function dumpRetimedStore(source: AnnotationStore, ends: ConversionEnds, request: ConvertRequest, retime: ConversionRetime): Promise<ConvertReport> {
  try {
    const streamed = request.stream === false ? null : await streamRetimedStore(source, ends, request, retime);
    if (streamed !== null) {
      await source.close();
      return streamed;
    }
  } catch (error) {
    await source.close();
    throw error;
  }
  rereading(request); // the tier-name findings the stream printed are not printed again
  const { held, retimed } = await readRetimed(source, request, inputName(request));
  return { ...(await dumpHeldStore(held, ends, request)), ...retimed() };
}

/** dumpRetimedStore's stream, or null when the writer cannot take the store as one (nothing is left written). */
async function streamRetimedStore(store: AnnotationStore, ends: ConversionEnds, request: ConvertRequest, retime: ConversionRetime): Promise<ConvertReport | null> {
  const tiers = await store.listTiers();
  reportTierNames(request, tiers.map((tier) => tier.name), null);
  refuseFindingsUnderStrict(request);
  if (request.tier !== undefined) await requireTier(store, request.tier, request.input === '-' ? 'standard input' : request.input);
  const document = await storeAsDocument(store);
  const counting = retimedDocument(document, retime, inputName(request));
  let passes = 0;
  // The first pass counts what the retime does (and refuses what it refuses); a writer's second pass retimes afresh.
  const retimePass = () => (passes++ === 0 ? counting.retime : retimedDocument(document, retime, inputName(request)).retime);
  const options = { targetName: request.output === '-' ? '<stdout>' : request.output, tier: request.tier, variant: request.variant, warn: request.warn };
  const dumped = await withSpan(`adapter.dump ${ends.target.name}`, { [ATTR_FORMAT]: ends.target.name }, () =>
    dumpStoreAsStream(store, ends.targetCodec, ends.outputPath, options, ends.target.name, retimePass),
  );
  if (dumped === null) return null;
  const kept = (await store.count()) - counting.counts.dropped - counting.counts.dependents;
  return {
    from: ends.source.name,
    to: ends.target.name,
    annotations: kept - wholeAnnotationsDropped(dumped.dropped),
    tiers: tiers.length,
    dropped: dumped.dropped,
    quantized: { count: 0, maxErrorSeconds: 0 },
    retimed: { ...counting.counts, findings: counting.findings() },
  };
}

/** The two ends of one file conversion, their formats chosen. */
interface ConversionEnds {
  readonly inputPath: string;
  readonly outputPath: string;
  readonly source: FormatAdapter;
  readonly target: FormatAdapter;
  readonly targetCodec: FormatCodec;
}

/** A document parsed by its reader, written into a target whose file is a store, in one transaction. */
async function bulkLoadInto(document: LoadedDocument, openStore: NonNullable<FormatCodec['openStore']>, ends: ConversionEnds, request: ConvertRequest): Promise<ConvertReport> {
  return withSpan(`adapter.dump ${ends.target.name}`, { [ATTR_FORMAT]: ends.target.name }, async (span) => {
    const file = await openStore(ends.outputPath, { create: true, scratch: true });
    try {
      const written = await loadIntoStore(document, file, { onProgress: request.onProgress, batchSize: Number.POSITIVE_INFINITY, sourceName: inputName(request) });
      reportTierNames(request, document.tiers.map((tier) => tier.name), ends.inputPath);
      refuseFindingsUnderStrict(request);
      span.setAttribute(ATTR_ANNOTATION_COUNT, written);
      const tiers = (await file.listTiers()).length;
      return { from: ends.source.name, to: ends.target.name, annotations: written, tiers, dropped: [], quantized: document.quantization() };
    } finally {
      await file.close();
    }
  });
}

/** A store read from the input: opened in place (`inPlace`, the source file is a store) or filled by its reader. */
interface HeldStore {
  readonly store: AnnotationStore;
  readonly inPlace: boolean;
  /** The source is a store (read in place, or copied retimed): no text to check tier names in, no reader stamps to discount. */
  readonly fromStore: boolean;
  readonly annotations: number;
  readonly quantized: { count: number; maxErrorSeconds: number };
}

/** Writes a held store with the target's writer, and closes it. */
async function dumpHeldStore(held: HeldStore, ends: ConversionEnds, request: ConvertRequest): Promise<ConvertReport> {
  const { store, inPlace, fromStore } = held;
  try {
    // A store opened in place has no text whose tier names to check, and no reader stamps to discount.
    reportTierNames(request, (await store.listTiers()).map((tier) => tier.name), fromStore ? null : ends.inputPath);
    refuseFindingsUnderStrict(request);
    if (request.tier !== undefined) await requireTier(store, request.tier, request.input === '-' ? 'standard input' : request.input);
    const tiers = (await store.listTiers()).length;
    const codec = ends.targetCodec;
    const options = { targetName: request.output === '-' ? '<stdout>' : request.output, tier: request.tier, variant: request.variant, warn: request.warn };
    const dumped = await withSpan(`adapter.dump ${ends.target.name}`, { [ATTR_FORMAT]: ends.target.name, [ATTR_ANNOTATION_COUNT]: held.annotations }, async () =>
      // A store opened in place is read once, as a stream, when its annotations are in time order.
      (inPlace && request.stream !== false ? await dumpStoreAsStream(store, codec, ends.outputPath, options, ends.target.name) : null) ?? codec.dump(store, ends.outputPath, options),
    );
    const dropped = fromStore ? dumped.dropped : await lossesTheSourceHad(dumped.dropped, store, ends.source, request);
    return { from: ends.source.name, to: ends.target.name, annotations: held.annotations - wholeAnnotationsDropped(dumped.dropped), tiers, dropped, quantized: held.quantized };
  } finally {
    await store.close();
  }
}

/**
 * Reader findings printed so far, per conversion (for `--strict`), and how many of the next ones
 * to leave unprinted: a stream abandoned for the whole-document path has printed them already.
 */
const findingsSeen = new WeakMap<ConvertRequest, { seen: number; mute: number }>();

function strictly(request: ConvertRequest): ConvertRequest {
  const tally = { seen: 0, mute: 0 };
  const tracked: ConvertRequest = {
    ...request,
    report: (finding) => {
      if (tally.mute > 0) {
        tally.mute--;
        return;
      }
      tally.seen++;
      request.report(finding);
    },
  };
  findingsSeen.set(tracked, tally);
  return tracked;
}

/** Reads the input again from the start: the findings already printed are not printed twice. */
function rereading(request: ConvertRequest): void {
  const tally = findingsSeen.get(request);
  if (tally) tally.mute = tally.seen;
}

/** Tier names that look like one name mistyped (tier-name-findings.ts), reported as `annot validate` reports them. */
function reportTierNames(request: ConvertRequest, tierNames: readonly string[], path: string | null): void {
  for (const finding of tierNameFindingsOfFile(tierNames, request.input === '-' ? 'standard input' : request.input, path, request.encoding)) request.report(finding);
}

/** Under `--strict`, a reader finding (already printed) fails the conversion before anything is written. */
function refuseFindingsUnderStrict(request: ConvertRequest): void {
  const count = findingsSeen.get(request)?.seen ?? 0;
  if (!request.strict || count === 0) return;
  const name = request.input === '-' ? 'standard input' : request.input;
  throw new StrictConversionError(`${name}: ${count} ${count === 1 ? 'finding' : 'findings'} (above) under --strict; nothing was written`);
}

/**
 * Drops the reader stamps on every imported annotation, so the loss report names only what the
 * source really had: an SRT file has no provenance, ids or confidence to lose, although the
 * imported annotations carry generated ones. What the source format itself cannot keep (found by
 * writing the same store in the source format, into a scratch file) it cannot have had.
 */
async function lossesTheSourceHad(dropped: DumpReport['dropped'], store: AnnotationStore, source: FormatAdapter, request: ConvertRequest): Promise<DumpReport['dropped']> {
  if (!dropped.some((entry) => stampedAttribute(entry.what))) return dropped;
  let sourceDropped: DumpReport['dropped'];
  const scratch = makeScratchFolder('annot-source-losses-');
  try {
    const codec = await source.codec();
    const report = await codec.dump(store, join(scratch, `dry-run${source.extensions[0] ?? ''}`), { targetName: '<dry run>', tier: request.tier, warn: () => {} });
    sourceDropped = report.dropped;
  } catch {
    return dropped; // a source format that cannot write this store back: report everything
  } finally {
    removeScratchFolder(scratch);
  }
  const sourceCannotKeep = new Set(sourceDropped.map((entry) => stampedAttribute(entry.what)).filter((what) => what !== null));
  return dropped.filter((entry) => {
    const attribute = stampedAttribute(entry.what);
    return attribute === null || !sourceCannotKeep.has(attribute);
  });
}

/**
 * Conversions where one side is a PostgreSQL project (`postgres://…?project=x`). Into the
 * database, the input is parsed and checked in memory first, then written with its tiers and
 * metadata as one logged transaction: all or nothing, and in the op-log like any import. Out of
 * the database, the project is read as a store and written like any other source.
 */
async function convertWithDatabase(request: ConvertRequest, scratch: string): Promise<ConvertReport> {
  const { openServiceStore, redactLocation } = await import('./open-service-store.js');
  if (isPostgresLocation(request.input)) {
    if (isPostgresLocation(request.output)) throw new InvalidInputError('converting from one database project to another is not supported; go through a .annot file');
    const opened = await openServiceStore(request.input);
    // A retime reads the project once into memory, retimed; the project itself is not changed.
    const copy = request.retime === undefined ? null : await readRetimed(opened, request, redactLocation(request.input));
    const source = copy?.held.store ?? opened;
    const target = inferFormat({ explicit: request.to, path: request.output });
    const outputPath = request.output === '-' ? join(scratch, `out${target.extensions[0] ?? ''}`) : request.output;
    try {
      if (request.tier !== undefined) await requireTier(source, request.tier, redactLocation(request.input));
      const write = async (path: string): Promise<ConvertReport> => {
        const codec = await target.codec();
        const dumped = await withSpan(`adapter.dump ${target.name}`, { [ATTR_FORMAT]: target.name }, () =>
          codec.dump(source, path, { targetName: request.output === '-' ? '<stdout>' : request.output, tier: request.tier, variant: request.variant, warn: request.warn }),
        );
        const annotations = (await source.count()) - wholeAnnotationsDropped(dumped.dropped);
        return { from: 'postgres', to: target.name, annotations, tiers: (await source.listTiers()).length, dropped: dumped.dropped, quantized: { count: 0, maxErrorSeconds: 0 }, ...copy?.retimed() };
      };
      const report = request.output === '-' ? await spooled(outputPath, write) : await writeAtomically(outputPath, write);
      if (request.output === '-') await copyToStdout(outputPath, request.stdout ?? process.stdout);
      return report;
    } finally {
      await source.close();
    }
  }
  const inputPath = request.input === '-' ? await spoolStdin(request, scratch) : request.input;
  const source = inferFormat({ explicit: request.from, path: request.input === '-' ? undefined : inputPath, head: readHead(inputPath), encoding: request.encoding });
  const { MemoryStore } = await import('../store/memory.js');
  const staged = new MemoryStore();
  // Every source through its reader, a store file too: the op-log records what the reader yields.
  const codec = await source.codec();
  const loaded = await withSpan(`adapter.load ${source.name}`, { [ATTR_FORMAT]: source.name }, () => loadDocument(codec, inputPath, loadOptions(request)));
  const { document, report: retimed } = retimedWhenAsked(loaded, conversionRetime(request), inputName(request));
  await loadIntoStore(document, staged, { onProgress: request.onProgress, sourceName: inputName(request) });
  const quantized = document.quantization();
  refuseFindingsUnderStrict(request);
  const mutations: Mutation[] = [];
  for (const tier of parentsFirst(await staged.listTiers())) mutations.push({ kind: 'add_tier', tier });
  for (const [key, value] of Object.entries(await staged.listMeta())) mutations.push({ kind: 'set_meta', key, value });
  for await (const annotation of staged.all()) mutations.push({ kind: 'add_annotation', annotation });
  const target = await openServiceStore(request.output, { create: true });
  try {
    await withSpan('adapter.dump postgres', { [ATTR_FORMAT]: 'postgres', [ATTR_ANNOTATION_COUNT]: await staged.count() }, () =>
      target.applyLogged(mutations, { actor: 'cli:convert', receivedAt: RationalTime.now(1000) }),
    );
  } catch (error) {
    if (error instanceof Error) error.message = `${redactLocation(request.output)}: ${error.message} (nothing was written)`;
    throw error;
  } finally {
    await target.close();
  }
  return { from: source.name, to: 'postgres', annotations: await staged.count(), tiers: (await staged.listTiers()).length, dropped: [], quantized, ...retimed() };
}

/**
 * Output for standard output is written to a scratch file first (writers want a path): a full
 * temporary folder is said as such, not as a failure of some unnamed file.
 */
async function spooled<T>(scratchPath: string, write: (path: string) => Promise<T>): Promise<T> {
  try {
    return await write(scratchPath);
  } catch (error) {
    throw writeFailure(error, `the copy of standard output in ${dirname(dirname(scratchPath))}`, { onDisk: false, writing: [dirname(scratchPath)] }) ?? error;
  }
}

/** Copies the output to standard output; a reader that went away (`| head`) is not a failure of the conversion. */
async function copyToStdout(path: string, stdout: NodeJS.WritableStream): Promise<void> {
  try {
    await pipeline(createReadStream(path), stdout, { end: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
  }
}

/** The input as messages name it. */
function inputName(request: ConvertRequest): string {
  return request.input === '-' ? '<stdin>' : request.input;
}

function loadOptions(request: ConvertRequest): LoadOptions {
  return {
    sourceName: request.input === '-' ? '<stdin>' : request.input,
    rate: request.rate,
    encoding: request.encoding,
    strictTime: request.strictTime,
    assetId: request.assetId,
    tier: request.tier,
    now: RationalTime.now(1000),
    report: request.report,
  };
}

async function spoolStdin(request: ConvertRequest, scratch: string): Promise<string> {
  const path = join(scratch, 'stdin');
  await pipeline(request.stdin ?? process.stdin, createWriteStream(path));
  return path;
}

import type { LoadedDocument } from '../adapters/adapter.js';
import { formatLocation } from '../adapters/errors.js';
import { toMs } from '../adapters/flat-cues.js';
import type { Annotation } from '../model/annotation.js';
import type { Tier } from '../model/tier.js';
import type { AnnotationStore } from '../store/store.js';
import type { RetimeMap } from '../time/retime.js';
import { AnnotationRetimer, type RetimeCounts } from './retime-annotations.js';

/** A retime a conversion applies as it reads (`annot convert --shift`...), and how strict it is. */
export interface ConversionRetime {
  /** The map (time/retime.ts `retimeMap`). */
  readonly map: RetimeMap;
  /** Refuse instead of cutting or dropping an annotation pushed before 0 s (`--strict`). */
  readonly strict?: boolean;
  /** Refuse instead of rounding a time the map puts between two ticks (`--strict-time`). */
  readonly strictTime?: boolean;
}

/** A document whose annotations come out retimed, with the retimer that counts what it did. */
export interface RetimedDocument {
  readonly document: LoadedDocument;
  readonly counts: RetimeCounts;
  /** One line per kind of loss (cut, dropped, rounded), once the annotations were consumed. */
  findings(): string[];
  /**
   * The same retime, one annotation at a time, for a consumer that reads `annotations` of the
   * document as the reader gave it and applies this in its own loop (a stream fewer per
   * annotation): the annotation after it, or null when it is dropped. Use one or the other.
   */
  readonly retime: (annotation: Annotation) => Annotation | null;
}

/**
 * The document as the reader gave it, its annotations retimed one by one as they are consumed
 * (so a stream stays a stream): the times are the reader's, at the import rate, so a shift in
 * milliseconds of an SRT file stays exact and anything finer is rounded at that rate and counted.
 * An annotation dropped before 0 s is left out, with any that refer to it. A refusal (`--strict`,
 * `--strict-time`) names the file and the place the reader read the annotation from.
 */
export function retimedDocument(document: LoadedDocument, retime: ConversionRetime, sourceName: string): RetimedDocument {
  const describe = (annotation: Annotation): string => {
    const where = `${sourceName}${formatLocation(document.placeOfAnnotation?.() ?? {})}`;
    if (annotation.reference.kind !== 'media') return `${where}: annotation ${annotation.id}`;
    const { start, end } = annotation.reference.interval;
    return `${where}: the annotation at ${start.toSecondsString()}–${end.toSecondsString()} s`;
  };
  const retimer = new AnnotationRetimer(retime.map, { strict: retime.strict, strictTime: retime.strictTime }, describe);
  const { inTimeOrder, placeOfAnnotation, placeOfMeta } = document;
  const retimed: LoadedDocument = {
    tiers: document.tiers,
    meta: document.meta,
    annotations: retimeEach(document.annotations, retimer),
    quantization: () => document.quantization(),
    ...(inTimeOrder === undefined ? {} : { inTimeOrder: () => tiesInTierOrder(retimeEach(inTimeOrder.call(document), retimer), document.tiers) }),
    ...(placeOfAnnotation === undefined ? {} : { placeOfAnnotation: () => placeOfAnnotation.call(document) }),
    ...(placeOfMeta === undefined ? {} : { placeOfMeta: (key: string) => placeOfMeta.call(document, key) }),
  };
  return { document: retimed, counts: retimer.counts, findings: () => retimer.findings(), retime: (annotation) => retimer.retime(annotation) };
}

/** What a retime did to a conversion: its counts and the lines that say what was lost. */
export type RetimeReport = RetimeCounts & {
  /** One line for each kind of loss (cut, dropped, rounded), as the CLI prints them. */
  readonly findings: readonly string[];
};

/**
 * The document retimed when there is a retime (else as it was), and the part of a conversion's
 * report that says what the retime did: `{retimed}` once the annotations were consumed, `{}` without one.
 */
export function retimedWhenAsked(document: LoadedDocument, retime: ConversionRetime | undefined, sourceName: string): { document: LoadedDocument; report: () => { retimed?: RetimeReport } } {
  if (retime === undefined) return { document, report: () => ({}) };
  const retimed = retimedDocument(document, retime, sourceName);
  return { document: retimed.document, report: () => ({ retimed: { ...retimed.counts, findings: retimed.findings() } }) };
}

/**
 * A store's contents as a document (tiers, metadata, every annotation in its order), for a source
 * that is a store (a `.annot` file read in place, a PostgreSQL project): retimed like a file's.
 */
export async function storeAsDocument(store: AnnotationStore): Promise<LoadedDocument> {
  const [tiers, meta] = await Promise.all([store.listTiers(), store.listMeta()]);
  // Read when iterated, not before: a document only used for its retimer opens no read of the store.
  const annotations: AsyncIterable<Annotation> = { [Symbol.asyncIterator]: () => store.all()[Symbol.asyncIterator]() };
  return { tiers, meta, annotations, quantization: () => ({ count: 0, maxErrorSeconds: 0 }) };
}

async function* retimeEach(annotations: AsyncIterable<Annotation>, retimer: AnnotationRetimer): AsyncGenerator<Annotation> {
  for await (const annotation of annotations) {
    const retimed = retimer.retime(annotation);
    if (retimed !== null) yield retimed;
  }
}

/**
 * A merged stream of several tiers (LoadedDocument.inTimeOrder) after a retime: annotations that
 * now start in the same millisecond, having started in different ones (cut to 0 s together, or
 * rounded onto one tick), put back in the order of their tiers, which is the order the
 * whole-document path gives such ties (its sort is stable over the store's order, tier by tier).
 * Only a run of equal starts is held, so the stream stays a stream.
 */
async function* tiesInTierOrder(annotations: AsyncIterable<Annotation>, tiers: readonly Tier[]): AsyncGenerator<Annotation> {
  const rank = new Map(tiers.map((tier, index) => [tier.name, index]));
  const byTier = (a: Annotation, b: Annotation): number => (rank.get(a.tier) ?? 0) - (rank.get(b.tier) ?? 0);
  let run: Annotation[] = [];
  let runStart = Number.NaN;
  for await (const annotation of annotations) {
    const reference = annotation.reference;
    const start = reference.kind === 'media' ? Math.max(0, toMs(reference.interval.start.v, reference.interval.start.r)) : runStart;
    if (start !== runStart && run.length > 0) {
      yield* run.length > 1 ? run.sort(byTier) : run;
      run = [];
    }
    runStart = start;
    run.push(annotation);
  }
  yield* run.length > 1 ? run.sort(byTier) : run;
}

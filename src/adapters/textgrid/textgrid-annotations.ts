import type { SourceDecoder } from '../encoding/source-decoder.js';
import { makeAnnotation, mediaRef, type Annotation } from '../../model/annotation.js';
import type { Provenance } from '../../model/provenance.js';
import type { Tier } from '../../model/tier.js';
import { TimeInterval } from '../../time/time-interval.js';
import { toMs } from '../flat-cues.js';
import { placedInFile } from '../refusal-place.js';
import type { ImportClock } from '../import-clock.js';
import { textGridEvents, type TextGridTier } from './parser.js';
import { TextGridFileTokens } from './stream-reader.js';

export const TEXTGRID_LABEL_SCHEMA = 'annot://schema/textgrid-label/v1';

type Item = TextGridTier['items'][number];

/** The annotation of one TextGrid item: an interval, or a point where start and end are one. One clock, asset and provenance for the file. */
export class TextGridAnnotationFactory {
  /** The line of the item built last: where a refusal of its annotation is named. */
  lastLine = 0;

  constructor(
    private readonly tiers: readonly Tier[],
    private readonly clock: ImportClock,
    private readonly assetId: string,
    private readonly provenance: Provenance,
    private readonly file: string,
  ) {}

  annotation(tierIndex: number, item: Item): Annotation {
    this.lastLine = item.line;
    const where = `${this.file}:${item.line}`;
    const start = this.clock.seconds(item.start, where);
    const interval = item.start === item.end ? TimeInterval.point(start) : new TimeInterval(start, this.clock.seconds(item.end, where));
    try {
      return makeAnnotation({ tier: this.tiers[tierIndex].name, reference: mediaRef(this.assetId, interval), body: { text: item.text }, body_schema_uri: TEXTGRID_LABEL_SCHEMA, provenance: this.provenance });
    } catch (error) {
      throw placedInFile(error, this.file, { line: item.line });
    }
  }
}

/** The annotations of every tier (`only` undefined) or of one, in file order, from a new reading of the file. */
export function* fileAnnotations(path: string, file: string, decoder: SourceDecoder, factory: TextGridAnnotationFactory, only?: number): Generator<Annotation> {
  const tokens = new TextGridFileTokens(path, file, decoder);
  try {
    let t = -1;
    for (const event of textGridEvents(tokens, file)) {
      if (event.kind === 'tier' && ++t > (only ?? Infinity)) return;
      if (event.kind === 'item' && (only === undefined || t === only)) yield factory.annotation(t, event.item);
    }
  } finally {
    tokens.close();
  }
}

/** Annotations of several readers (one per tier, each in time order) merged in order of start time. */
export async function* mergedByStart(readers: ReadonlyArray<Generator<Annotation>>): AsyncGenerator<Annotation> {
  try {
    const heads = readers.map((reader) => headOf(reader.next()));
    for (;;) {
      let best = -1;
      for (let t = 0; t < heads.length; t++) {
        const head = heads[t];
        if (head !== null && (best === -1 || head.startMs < (heads[best] as { startMs: number }).startMs)) best = t;
      }
      if (best === -1) return;
      yield (heads[best] as { annotation: Annotation }).annotation;
      heads[best] = headOf(readers[best].next());
    }
  } finally {
    for (const reader of readers) reader.return(undefined);
  }
}

function headOf(next: IteratorResult<Annotation>): { annotation: Annotation; startMs: number } | null {
  if (next.done === true) return null;
  const { start } = (next.value.reference as { interval: { start: { v: number; r: number } } }).interval;
  return { annotation: next.value, startMs: toMs(start.v, start.r) };
}

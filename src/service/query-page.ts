import type { Annotation } from '../model/annotation.js';
import { annotationWireJson } from '../model/wire-json.js';
import type { AnnotationStore } from '../store/store.js';
import { hasWireJsonWindows } from '../store/wire-json-reads.js';
import { isPlainWindow, queryAnnotations, queryAnnotationsWireJson, type QueryRequest } from './query-annotations.js';

/** Where a page ended: how many results came before the next page, and the id of the last one. */
export interface PagePosition {
  readonly offset: number;
  readonly lastId: string;
}

export interface Page {
  readonly annotations: Annotation[];
  /** Where the next page starts; null on the last page. */
  readonly next: PagePosition | null;
}

/**
 * One page of a query, resumed after the annotation a previous page ended with. The results keep
 * their order between requests (insertion order, or start, end, id with a window), so the page
 * resumes right after that annotation: appended annotations show up on later pages, and no id is
 * seen twice. Should that annotation have been deleted meanwhile, the page resumes where it was
 * (when other annotations before it were deleted too, as many results may be skipped, never repeated).
 */
export async function queryPage(
  store: AnnotationStore,
  request: QueryRequest,
  limit: number,
  after?: PagePosition,
  continuations?: PageContinuations,
): Promise<Page> {
  const key = (position: PagePosition): string => JSON.stringify([request, position.offset, position.lastId]);
  // Only the full listing is read live from the store (all()); tier and window queries are
  // snapshots, which must be taken afresh for each page to see the changes made in between.
  const live = request.tier === undefined && request.start === undefined && request.end === undefined;
  if (!live) continuations = undefined;
  const resumed = after && continuations?.take(key(after));
  const annotations: Annotation[] = [];
  let iterator: AsyncIterator<Annotation>;
  let index: number;
  let startIndex: number;
  if (resumed) {
    // The listing read on from where the previous page stopped: no rescan from the start.
    ({ iterator, index } = resumed);
    startIndex = index;
    // The annotation read ahead may have changed or gone since: take it as it is now.
    const pending = await store.get(resumed.pending.id);
    if (pending) annotations.push(pending);
    index++;
  } else {
    iterator = queryAnnotations(store, request)[Symbol.asyncIterator]();
    index = 0;
    startIndex = after === undefined ? 0 : -1;
  }
  for (;;) {
    const step = await iterator.next();
    if (step.done) break;
    const annotation = step.value;
    if (startIndex < 0 && after) {
      if (annotation.id === after.lastId) startIndex = index + 1;
      // Not found where it was: it was deleted, and what followed it moved up one place. Resume there.
      else if (index >= after.offset - 1) startIndex = index;
    }
    if (startIndex >= 0 && index >= startIndex) {
      if (annotations.length === limit) {
        const last = annotations[annotations.length - 1];
        const next = { offset: startIndex + annotations.length, lastId: last?.id ?? (after as PagePosition).lastId };
        continuations?.keep(key(next), { iterator, index, pending: annotation });
        return { annotations, next };
      }
      annotations.push(annotation);
    }
    index++;
  }
  if (resumed) {
    // A listing read on may have ended before what was appended meanwhile: look once more, afresh
    // (also when the page is full, to know whether there is a next one).
    const last = annotations[annotations.length - 1];
    const position = { offset: index, lastId: last?.id ?? (after as PagePosition).lastId };
    const rest = await queryPage(store, request, limit - annotations.length, position);
    return { annotations: [...annotations, ...rest.annotations], next: rest.next };
  }
  return { annotations, next: null };
}

/** A page as the surfaces send it: each annotation's wire JSON in the seconds form (wire-json.ts). */
export interface WirePage {
  readonly items: string[];
  readonly next: PagePosition | null;
}

/**
 * queryPage with its annotations as wire JSON texts, the same page byte for byte. A plain window
 * on a store with a read fast path (the `.annot` file) is answered from rows with no annotation
 * objects: the window's texts are taken afresh, as queryPage takes every window, and the page
 * resumes in them as it would there.
 */
export async function queryWirePage(
  store: AnnotationStore,
  request: QueryRequest,
  limit: number,
  after?: PagePosition,
  continuations?: PageContinuations,
): Promise<WirePage> {
  if (hasWireJsonWindows(store) && isPlainWindow(request)) {
    const texts = await queryAnnotationsWireJson(store, request, Number.POSITIVE_INFINITY, { seconds: true });
    const start = after === undefined ? 0 : resumeIndex(texts, after);
    const items = texts.slice(start, start + limit);
    const more = start + limit < texts.length;
    return { items, next: more ? { offset: start + limit, lastId: idOfWireJson(items[items.length - 1] as string) } : null };
  }
  const page = await queryPage(store, request, limit, after, continuations);
  return { items: page.annotations.map((annotation) => annotationWireJson(annotation, { seconds: true })), next: page.next };
}

/** Where queryPage resumes a snapshot listing: after the last annotation seen, or where it stood when it is gone. */
function resumeIndex(texts: readonly string[], after: PagePosition): number {
  for (let index = 0; index < texts.length; index++) {
    if (idOfWireJson(texts[index] as string) === after.lastId) return index + 1;
    if (index >= after.offset - 1) return index;
  }
  return texts.length;
}

/** The id of an annotation's wire JSON, which begins `{"id":"…"`. */
function idOfWireJson(text: string): string {
  return JSON.parse(text.slice(ID_START, text.indexOf('"', ID_START + 1) + 1)) as string;
}

const ID_START = '{"id":'.length;

interface Continuation {
  readonly iterator: AsyncIterator<Annotation>;
  /** The position of `pending` in the listing. */
  readonly index: number;
  /** The first annotation of the next page, read ahead to know there is one. */
  readonly pending: Annotation;
}

/**
 * Listings left open at the end of a page, so that reading a large store page by page costs one
 * pass instead of one rescan per page. A few are kept (the oldest closed first); a cursor whose
 * listing was dropped still works, by rescanning.
 */
export class PageContinuations {
  private readonly open = new Map<string, Continuation>();

  constructor(private readonly capacity = 16) {}

  take(key: string): Continuation | undefined {
    const found = this.open.get(key);
    this.open.delete(key);
    return found;
  }

  keep(key: string, continuation: Continuation): void {
    this.open.set(key, continuation);
    while (this.open.size > this.capacity) {
      const [oldest, dropped] = this.open.entries().next().value as [string, Continuation];
      this.open.delete(oldest);
      void dropped.iterator.return?.();
    }
  }

  /** Closes every open listing (the service is closing). */
  clear(): void {
    for (const continuation of this.open.values()) void continuation.iterator.return?.();
    this.open.clear();
  }
}

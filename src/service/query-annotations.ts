import type { Annotation } from '../model/annotation.js';
import type { AnnotationStore } from '../store/store.js';
import { readPages } from './read-annotations.js';
import { parseReadRequest, type ReadInput } from './read-request.js';
import { LIBRARY_WORDING } from './read-wording.js';

/** A query as the library takes it: a read's fields without the paging. */
export type QueryRequest = Omit<ReadInput, 'after' | 'limit'>;

/** Pages of this size when a query is streamed whole. */
const STREAM_PAGE = 1000;

/**
 * The annotations a query asks for, streamed page by page through the store's paged read (so a
 * query of any size holds one page at a time). Without a window: every annotation (symbolic ones
 * included) or every annotation of the tier, in insertion order. With a window: the interval
 * annotations whose relation to the window is the one asked for (the annotation is the left
 * operand: `during` means inside the window), by start, end and id.
 */
export async function* queryAnnotations(store: AnnotationStore, request: QueryRequest): AsyncGenerator<Annotation> {
  const parsed = parseReadRequest({ ...request, limit: STREAM_PAGE }, LIBRARY_WORDING);
  for await (const page of readPages(store, parsed, 'objects', 'the store')) yield* page;
}

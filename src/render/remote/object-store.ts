/**
 * What the shared render cache needs of an object store: read an object, ask whether one exists,
 * write one (optionally only when absent). Keys are full object keys inside one bucket. The S3
 * implementation is s3-object-store.ts; tests wrap it in a store that injects the faults a real
 * server cannot be made to show on demand.
 */
export interface ObjectStore {
  /** `s3://bucket` or similar, for messages: never a credential. */
  readonly describe: string;
  /** The object's bytes, or undefined when there is none. */
  get(key: string, options: CallOptions): Promise<Uint8Array | undefined>;
  /** The object's size, or undefined when there is none. */
  head(
    key: string,
    options: CallOptions,
  ): Promise<
    | {
        /** Its length in bytes, which the cache compares with the size an entry names before trusting a blob it does not download. */
        size: number;
      }
    | undefined
  >;
  /**
   * Writes an object. With `ifAbsent`, asks the server to refuse when the key exists (S3's
   * `If-None-Match: *`): `exists` when it did refuse. A server that ignores the header answers
   * `written` and may have replaced the object, which callers must allow for.
   */
  put(key: string, bytes: Uint8Array, options: CallOptions & { contentType: string; ifAbsent?: boolean }): Promise<'written' | 'exists'>;
  /** Lets go of connections. */
  close?(): void;
}

/** What every call of an ObjectStore is given: a store must stop and reject when the signal aborts. */
export interface CallOptions {
  /** Aborts the call: a deadline, or the render's own Ctrl-C. */
  signal: AbortSignal;
}

/**
 * An object store that failed: unreachable, too slow, refusing (403, 5xx). The message names the
 * store and the key, never a credential (the text is redacted where it is made).
 */
export class ObjectStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ObjectStoreError';
  }
}

import type { CallOptions, ObjectStore } from '../../src/render/remote/object-store.js';
import { ObjectStoreError } from '../../src/render/remote/object-store.js';

/**
 * A real object store (the S3 one, on s3rver or ANNOT_TEST_S3_URL) with the faults a server
 * cannot be made to show on demand injected in front of it: a conditional write refused (412, as
 * AWS answers a second writer), a torn object (the first bytes only), a blob that went missing,
 * a slow endpoint (no answer until the call's deadline), a failing one. Every call is recorded.
 */
export type Fault =
  | { kind: 'refuse-conditional'; key: RegExp; times?: number }
  | { kind: 'torn'; key: RegExp; bytes: number; times?: number }
  | { kind: 'missing'; key: RegExp; times?: number }
  | { kind: 'hang'; key?: RegExp; times?: number }
  | { kind: 'fail'; key?: RegExp; status: number; times?: number }
  /** After this process's write lands, another writer's bytes land on the same key (a server that ignored If-None-Match, and a second writer). */
  | { kind: 'overwrite-after-put'; key: RegExp; bytes: Uint8Array; times?: number };

export interface RecordedCall {
  op: 'get' | 'head' | 'put';
  key: string;
  ifAbsent?: boolean;
  bytes?: number;
}

export class FaultyObjectStore implements ObjectStore {
  readonly calls: RecordedCall[] = [];
  private readonly faults: Fault[] = [];

  /** Keys being written conditionally now: with `honourConditional`, one at a time, as AWS decides them. */
  private readonly writing = new Map<string, Promise<unknown>>();

  /**
   * `honourConditional`: answers If-None-Match as AWS does (the second writer of a key is refused),
   * for servers such as s3rver that ignore it.
   */
  constructor(
    private readonly inner: ObjectStore,
    private readonly options: { honourConditional?: boolean } = {},
  ) {}

  get describe(): string {
    return this.inner.describe;
  }

  inject(fault: Fault): void {
    this.faults.push({ times: Infinity, ...fault } as Fault);
  }

  clear(): void {
    this.faults.length = 0;
  }

  puts(pattern: RegExp): RecordedCall[] {
    return this.calls.filter((call) => call.op === 'put' && pattern.test(call.key));
  }

  async get(key: string, options: CallOptions): Promise<Uint8Array | undefined> {
    this.calls.push({ op: 'get', key });
    await this.common(key, options);
    if (this.take('missing', key)) return undefined;
    const bytes = await this.inner.get(key, options);
    const torn = this.take('torn', key) as Extract<Fault, { kind: 'torn' }> | undefined;
    return torn && bytes ? bytes.slice(0, torn.bytes) : bytes;
  }

  async head(key: string, options: CallOptions): Promise<{ size: number } | undefined> {
    this.calls.push({ op: 'head', key });
    await this.common(key, options);
    return this.take('missing', key) ? undefined : this.inner.head(key, options);
  }

  async put(key: string, bytes: Uint8Array, options: CallOptions & { contentType: string; ifAbsent?: boolean }): Promise<'written' | 'exists'> {
    this.calls.push({ op: 'put', key, ifAbsent: options.ifAbsent, bytes: bytes.byteLength });
    await this.common(key, options);
    if (options.ifAbsent && this.take('refuse-conditional', key)) return 'exists';
    const written = options.ifAbsent && this.options.honourConditional ? await this.conditionally(key, bytes, options) : await this.inner.put(key, bytes, options);
    const overwrite = this.take('overwrite-after-put', key) as Extract<Fault, { kind: 'overwrite-after-put' }> | undefined;
    if (overwrite) await this.inner.put(key, overwrite.bytes, { ...options, ifAbsent: false });
    return written;
  }

  private async conditionally(key: string, bytes: Uint8Array, options: CallOptions & { contentType: string }): Promise<'written' | 'exists'> {
    const previous = this.writing.get(key) ?? Promise.resolve();
    const mine = previous.then(async () => ((await this.inner.head(key, options)) ? 'exists' : this.inner.put(key, bytes, options)));
    this.writing.set(key, mine.catch(() => undefined));
    return mine;
  }

  close(): void {
    this.inner.close?.();
  }

  /** The faults every operation can meet: a failure, or no answer until the caller's deadline. */
  private async common(key: string, options: CallOptions): Promise<void> {
    const failing = this.take('fail', key) as Extract<Fault, { kind: 'fail' }> | undefined;
    if (failing) throw new ObjectStoreError(`could not reach ${this.describe}/${key} (HTTP ${failing.status} injected)`);
    if (this.take('hang', key)) {
      await new Promise<void>((_, reject) => {
        if (options.signal.aborted) return reject(new ObjectStoreError('no answer in time'));
        options.signal.addEventListener('abort', () => reject(new ObjectStoreError(`could not read ${this.describe}/${key} (no answer in time)`)), { once: true });
      });
    }
  }

  private take(kind: Fault['kind'], key: string): Fault | undefined {
    const fault = this.faults.find((f) => f.kind === kind && (!('key' in f) || f.key === undefined || f.key.test(key)));
    if (!fault) return undefined;
    fault.times = (fault.times ?? Infinity) - 1;
    if (fault.times <= 0) this.faults.splice(this.faults.indexOf(fault), 1);
    return fault;
  }
}

/**
 * The wire JSON texts (seconds form) of recently read rows, by rowid, so that a window read again
 * costs its index lookup and a concatenation instead of building ~450 bytes of JSON per row
 * (GET /annotations reads the same windows over and over while a page is open or an agent
 * polls). Bounded by the texts' total length; the oldest entries go first.
 *
 * The owner drops the entry of every row it updates or deletes (a rowid freed by a delete can
 * come back for another annotation) and clears it whenever another connection has committed
 * (`PRAGMA data_version` moved), so no entry is trusted across a change of its row.
 */
export class WireJsonCache {
  private readonly texts = new Map<number, string>();
  private length = 0;

  /** `maxChars`: the most characters kept in all (64 Mi by default, about 150,000 annotations). */
  constructor(private readonly maxChars = 64 * 1024 * 1024) {}

  get(rowid: number): string | undefined {
    return this.texts.get(rowid);
  }

  has(rowid: number): boolean {
    return this.texts.has(rowid);
  }

  set(rowid: number, text: string): void {
    if (text.length > this.maxChars) return;
    const previous = this.texts.get(rowid);
    if (previous !== undefined) {
      this.length -= previous.length;
      this.texts.delete(rowid);
    }
    // Texts built by concatenation are ropes, which every later join would walk again; asking
    // for a number flattens the string in place, once (V8), and the answer is thrown away.
    void Number(text);
    this.texts.set(rowid, text);
    this.length += text.length;
    for (const [oldest, dropped] of this.texts) {
      if (this.length <= this.maxChars) break;
      this.texts.delete(oldest);
      this.length -= dropped.length;
    }
  }

  delete(rowid: number): void {
    const text = this.texts.get(rowid);
    if (text === undefined) return;
    this.texts.delete(rowid);
    this.length -= text.length;
  }

  clear(): void {
    this.texts.clear();
    this.length = 0;
  }

  get size(): number {
    return this.texts.size;
  }
}

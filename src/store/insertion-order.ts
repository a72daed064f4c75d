/** An entry with its insertion rank: ranks only grow, and an entry keeps its rank for life. */
export interface Ranked {
  readonly seq: number;
}

/**
 * Entries in insertion order with a seek by rank, for the in-memory stores' listings: a sorted
 * array, so the page after rank r starts with a binary search instead of a walk from the first
 * entry. An entry that leaves (deleted, moved to another tier) stays in place until it is
 * compacted away, which happens once half of the array is such leftovers: amortised O(1) per
 * change, and a page costs O(log n + its length + the leftovers it passes).
 */
export class InsertionOrder<E extends Ranked> {
  private entries: E[] = [];
  private left = 0;

  /** `belongs(entry)`: whether the entry is (still) a member; leftovers are skipped and compacted. */
  constructor(private readonly belongs: (entry: E) => boolean) {}

  get isEmpty(): boolean {
    return this.entries.length === this.left;
  }

  /** Adds an entry with a rank above every rank seen so far. */
  append(entry: E): void {
    this.entries.push(entry);
  }

  /** Adds an entry at its rank's place (an older entry moved in); when it left before and is still there, it is simply back. */
  insert(entry: E): void {
    const at = this.firstAfter(entry.seq - 1);
    if (this.entries[at] === entry) this.left--;
    else this.entries.splice(at, 0, entry);
  }

  /** Notes that one entry stopped belonging. */
  leave(): void {
    this.left++;
    if (this.left > 32 && this.left * 2 > this.entries.length) {
      this.entries = this.entries.filter(this.belongs);
      this.left = 0;
    }
  }

  /** The members with a rank above `rank`, in order. */
  *after(rank: number): Generator<E> {
    for (let i = this.firstAfter(rank); i < this.entries.length; i++) {
      const entry = this.entries[i];
      if (this.belongs(entry)) yield entry;
    }
  }

  /** The index of the first entry ranked above `rank`. */
  private firstAfter(rank: number): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid].seq <= rank) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

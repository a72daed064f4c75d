import type { RationalTime } from '../time/rational-time.js';
import type { TimeInterval } from '../time/time-interval.js';
import { compareIds, compareIntervals } from './ordering.js';
import type { CandidateBounds } from './relation-filter.js';

/**
 * An interval index: a treap keyed by (start, end, id) whose nodes carry the largest end in their
 * subtree. The key order is the stores' canonical result order, so an in-order walk returns
 * matches already sorted; the max-end field prunes every subtree that ends before a window, so a
 * window query costs O(log n + candidates) and an insert or removal O(log n), both expected.
 *
 * Every comparison is RationalTime.compare (exact, any rates); no float ever decides a match.
 */
class Node<T> {
  left: Node<T> | null = null;
  right: Node<T> | null = null;
  maxEnd: RationalTime;

  constructor(
    readonly interval: TimeInterval,
    readonly id: string,
    public value: T,
    readonly priority: number,
  ) {
    this.maxEnd = interval.end;
  }
}

function compareKey<T>(interval: TimeInterval, id: string, node: Node<T>): number {
  return compareIntervals(interval, node.interval) || compareIds(id, node.id);
}

function pull<T>(node: Node<T>): Node<T> {
  let max = node.interval.end;
  if (node.left !== null && node.left.maxEnd.compare(max) > 0) max = node.left.maxEnd;
  if (node.right !== null && node.right.maxEnd.compare(max) > 0) max = node.right.maxEnd;
  node.maxEnd = max;
  return node;
}

function rotateRight<T>(node: Node<T>): Node<T> {
  const pivot = node.left as Node<T>;
  node.left = pivot.right;
  pivot.right = pull(node);
  return pull(pivot);
}

function rotateLeft<T>(node: Node<T>): Node<T> {
  const pivot = node.right as Node<T>;
  node.right = pivot.left;
  pivot.left = pull(node);
  return pull(pivot);
}

function insertNode<T>(root: Node<T> | null, node: Node<T>): Node<T> {
  if (root === null) return node;
  if (compareKey(node.interval, node.id, root) < 0) {
    root.left = insertNode(root.left, node);
    if (root.left.priority > root.priority) return rotateRight(root);
  } else {
    root.right = insertNode(root.right, node);
    if (root.right.priority > root.priority) return rotateLeft(root);
  }
  return pull(root);
}

function merge<T>(a: Node<T> | null, b: Node<T> | null): Node<T> | null {
  if (a === null) return b;
  if (b === null) return a;
  if (a.priority > b.priority) {
    a.right = merge(a.right, b);
    return pull(a);
  }
  b.left = merge(a, b.left);
  return pull(b);
}

/** A position in the index's order: an interval and an id. */
export interface IndexKey {
  readonly interval: TimeInterval;
  readonly id: string;
}

export class IntervalIndex<T> {
  private root: Node<T> | null = null;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds `value` under (interval, id). The caller keeps ids unique. */
  insert(interval: TimeInterval, id: string, value: T): void {
    this.root = insertNode(this.root, new Node(interval, id, value, Math.random()));
    this.count += 1;
  }

  /** Removes the entry at (interval, id); false when there is none. */
  remove(interval: TimeInterval, id: string): boolean {
    let removed = false;
    const walk = (node: Node<T> | null): Node<T> | null => {
      if (node === null) return null;
      const c = compareKey(interval, id, node);
      if (c === 0) {
        removed = true;
        return merge(node.left, node.right);
      }
      if (c < 0) node.left = walk(node.left);
      else node.right = walk(node.right);
      return pull(node);
    };
    this.root = walk(this.root);
    if (removed) this.count -= 1;
    return removed;
  }

  /** Replaces the value stored at (interval, id) in place; false when there is none. */
  replace(interval: TimeInterval, id: string, value: T): boolean {
    let node = this.root;
    while (node !== null) {
      const c = compareKey(interval, id, node);
      if (c === 0) {
        node.value = value;
        return true;
      }
      node = c < 0 ? node.left : node.right;
    }
    return false;
  }

  /** The values whose interval lies within `bounds` and passes `accept`, in (start, end, id) order. */
  search(bounds: CandidateBounds, accept: (interval: TimeInterval, value: T) => boolean): T[] {
    return this.page(bounds, accept, null, Number.POSITIVE_INFINITY);
  }

  /**
   * The first `count` of those after the key `after` (exclusive; from the first when null): an
   * in-order walk that skips every subtree whose keys all come before `after`, whose starts fall
   * outside the start bounds or whose largest end is below `endMin`, and stops once it has
   * `count`. A page costs O(log n + count + the candidates it passes over), wherever it starts.
   */
  page(bounds: CandidateBounds, accept: (interval: TimeInterval, value: T) => boolean, after: IndexKey | null, count: number): T[] {
    const { startMin, startMax, endMin, endMax } = bounds;
    const out: T[] = [];
    const visit = (node: Node<T> | null): void => {
      if (node === null || out.length >= count) return;
      if (endMin !== null && node.maxEnd.compare(endMin) < 0) return;
      const start = node.interval.start;
      const belowMin = startMin !== null && start.compare(startMin) < 0;
      const aboveMax = startMax !== null && start.compare(startMax) > 0;
      // Left keys come before this node's, right keys after it; a node at or before `after` has only its right side left.
      const pastAfter = after === null || compareKey(after.interval, after.id, node) < 0;
      if (!belowMin && pastAfter) visit(node.left);
      if (out.length >= count) return;
      if (
        pastAfter && !belowMin && !aboveMax &&
        (endMin === null || node.interval.end.compare(endMin) >= 0) &&
        (endMax === null || node.interval.end.compare(endMax) <= 0) &&
        accept(node.interval, node.value)
      ) {
        out.push(node.value);
      }
      if (!aboveMax) visit(node.right);
    };
    visit(this.root);
    return out;
  }

  /** The values stored at exactly this interval (by value, any rates), ordered by id. */
  at(interval: TimeInterval): T[] {
    return this.search(
      { startMin: interval.start, startMax: interval.start, endMin: interval.end, endMax: interval.end },
      () => true,
    );
  }

  /**
   * The smallest interval strictly greater than `after` (or the smallest of all), found by one
   * descent. Iterating keys this way stays correct while the index changes between steps.
   */
  nextInterval(after: TimeInterval | null): TimeInterval | null {
    let node = this.root;
    let best: TimeInterval | null = null;
    while (node !== null) {
      if (after === null || compareIntervals(node.interval, after) > 0) {
        best = node.interval;
        node = node.left;
      } else {
        node = node.right;
      }
    }
    return best;
  }

  /** Distinct intervals in (start, end) order, one per rational value. */
  *intervals(): Generator<TimeInterval> {
    let key = this.nextInterval(null);
    while (key !== null) {
      yield key;
      key = this.nextInterval(key);
    }
  }
}

import { compare, max, min, ZERO, type Seconds } from './exact-seconds.js';
import type { TtElement } from './ttml-names.js';
import { desiredInterval, explicitTimes, type TimingRules } from './ttml-timing.js';

/**
 * The timing of `body` and `div` elements as the scan meets them, so that a paragraph can be
 * timed the moment its end tag is read, without the document's tree (a million paragraphs must
 * not sit in memory as elements). A container is opened at its start tag and closed at its end
 * tag; in between, its children are timed from it in turn:
 * - its sync base for a child: its begin in a `par`, the end of the previous child in a `seq`;
 * - its window, which cuts its children (par time containment): from its begin to the earliest
 *   end it or an ancestor writes. An end a container only has from its content (the last child's)
 *   never cuts that content, so only written ends are needed, and they are known at the start tag.
 */
export interface ChildBase {
  readonly syncBase: Seconds | null;
  readonly kind: 'par' | 'seq';
  readonly windowBegin: Seconds;
  readonly windowEnd: Seconds | null;
  /** Whether anything in the container can show (it has begun, and not after its window closed). */
  readonly active: boolean;
}

interface Container {
  readonly kind: 'par' | 'seq';
  readonly begin: Seconds | null;
  readonly explicitEnd: Seconds | null;
  readonly windowBegin: Seconds;
  readonly windowEnd: Seconds | null;
  readonly active: boolean;
  /** seq: the sync base of the next child (null once a child has no end). */
  cursor: Seconds | null;
  /** The end the content gives: the latest child end in a par (null: one has none), the last in a seq. */
  implicitEnd: Seconds | null;
}

export class ContainerTiming {
  /** The document (the root of the time containment): from 0, without end. */
  private readonly stack: Container[] = [{ kind: 'par', begin: ZERO, explicitEnd: null, windowBegin: ZERO, windowEnd: null, active: true, cursor: ZERO, implicitEnd: ZERO }];

  constructor(
    private readonly rules: TimingRules,
    /** The latest time shown so far; a container's written times count once it is active. */
    private readonly last: { time: Seconds },
  ) {}

  /** Where the next child of the innermost open container begins and what cuts it. */
  childBase(): ChildBase {
    const container = this.stack[this.stack.length - 1];
    return { syncBase: container.kind === 'par' ? container.begin : container.cursor, kind: container.kind, windowBegin: container.windowBegin, windowEnd: container.windowEnd, active: container.active };
  }

  /** A `body` or `div` start tag. */
  open(element: TtElement): void {
    const base = this.childBase();
    const { begin, explicitEnd } = desiredInterval(explicitTimes(element, this.rules), base.syncBase, this.rules);
    const windowBegin = begin === null ? base.windowBegin : max(begin, base.windowBegin);
    const windowEnd = explicitEnd === null ? base.windowEnd : base.windowEnd === null ? explicitEnd : min(explicitEnd, base.windowEnd);
    const active = base.active && begin !== null && (windowEnd === null || compare(windowBegin, windowEnd) <= 0);
    if (active) this.saw(windowBegin);
    if (active && windowEnd !== null && explicitEnd !== null) this.saw(windowEnd);
    const kind = element.attributes.timeContainer === 'seq' ? 'seq' : 'par';
    this.stack.push({ kind, begin, explicitEnd, windowBegin, windowEnd, active, cursor: begin, implicitEnd: begin });
  }

  /** A child (a paragraph, or a container just closed) ended at `end` (desired, before any cut; null: no end). */
  childEnded(end: Seconds | null): void {
    const container = this.stack[this.stack.length - 1];
    if (container.kind === 'seq') {
      container.cursor = end;
      container.implicitEnd = end;
    } else container.implicitEnd = container.implicitEnd === null || end === null ? null : max(container.implicitEnd, end);
  }

  /** The end tag of the innermost container: its end is reported to its parent. */
  close(): void {
    if (this.stack.length === 1) return;
    const container = this.stack.pop() as Container;
    this.childEnded(container.begin === null ? null : (container.explicitEnd ?? container.implicitEnd));
  }

  private saw(time: Seconds): void {
    if (compare(time, this.last.time) > 0) this.last.time = time;
  }
}

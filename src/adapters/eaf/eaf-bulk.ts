import type { StreamedElements, XmlElement } from './xml-scan.js';

/** Record kinds: a time-aligned annotation or a REF_ANNOTATION. */
export const ALIGNABLE = 0;
export const REFERENCE = 1;

/** A semantic error found while scanning, thrown only once the whole file is known to be well-formed. */
export interface DeferredError {
  /** Which ANNOTATION (in file order) it is at: the first one wins, as in a walk of the whole tree. */
  readonly sequence: number;
  readonly offset: number;
  readonly path: string;
  readonly expected: string;
}

/**
 * The time slots of an EAF file as columns: ids, milliseconds (NaN for an unaligned slot) and how
 * many annotations use each (0, 1 or 2 for "more than one"). A million slots as objects cost
 * hundreds of megabytes; as columns, the ids and one lookup map.
 */
export class SlotColumns {
  count = 0;
  readonly ids: string[] = [];
  /** Dropped once every annotation's slots are resolved. */
  indexOf: Map<string, number> | null = new Map();
  values = new Float64Array(1024);
  uses = new Uint8Array(1024);

  add(id: string, value: number): void {
    if (this.count === this.values.length) {
      this.values = grown(this.values, new Float64Array(this.count * 2));
      this.uses = grown(this.uses, new Uint8Array(this.count * 2));
    }
    this.ids.push(id);
    (this.indexOf as Map<string, number>).set(id, this.count);
    this.values[this.count++] = value;
  }

  use(index: number): void {
    if (this.uses[index] < 2) this.uses[index]++;
  }
}

/**
 * The annotations of an EAF file as columns, in file order, with what the import needs of each
 * element and nothing else: its tier, kind, slots or parent reference, value and where it is.
 */
export class AnnotationColumns {
  count = 0;
  tier = new Int32Array(1024);
  kind = new Uint8Array(1024);
  /** Slot indices (-1 until resolved, and for REF_ANNOTATIONs). */
  slot1 = new Int32Array(1024);
  slot2 = new Int32Array(1024);
  /** Offset of the ALIGNABLE_ANNOTATION or REF_ANNOTATION element in the source, for messages. */
  offset = new Float64Array(1024);
  readonly eafId: string[] = [];
  readonly value: string[] = [];
  readonly ref: Array<string | undefined> = [];
  readonly previous: Array<string | undefined> = [];
  /** CVE_REF, EXT_REF, LANG_REF, SVG_REF, for the few annotations that have any. */
  readonly attributes = new Map<number, Record<string, string>>();

  add(tier: number, kind: number, offset: number, eafId: string, value: string): number {
    if (this.count === this.tier.length) {
      const size = this.count * 2;
      this.tier = grown(this.tier, new Int32Array(size));
      this.kind = grown(this.kind, new Uint8Array(size));
      this.slot1 = grown(this.slot1, new Int32Array(size));
      this.slot2 = grown(this.slot2, new Int32Array(size));
      this.offset = grown(this.offset, new Float64Array(size));
    }
    const index = this.count++;
    this.tier[index] = tier;
    this.kind[index] = kind;
    this.slot1[index] = -1;
    this.slot2[index] = -1;
    this.offset[index] = offset;
    this.eafId.push(eafId);
    this.value.push(value);
    return index;
  }
}

/** An ALIGNABLE_ANNOTATION whose slots were not yet defined when it was met (a TIME_ORDER after its TIER). */
interface PendingSlots {
  readonly record: number;
  readonly sequence: number;
  readonly path: string;
  readonly ref1: string | undefined;
  readonly ref2: string | undefined;
}

const EXTRA_ATTRIBUTES = ['CVE_REF', 'EXT_REF', 'LANG_REF', 'SVG_REF'];

/**
 * Takes the bulk of an EAF file from the scanner as it goes: each TIME_SLOT of a TIME_ORDER and
 * each ANNOTATION of a TIER becomes a row of columns and is then forgotten, so the element tree
 * holds only the document's small parts. Checks are those of a walk of the whole tree, in the
 * same order; their errors wait until the scan has found the file well-formed (a syntax error
 * anywhere comes first, as it did when the tree was built before anything was read).
 */
export class EafBulk implements StreamedElements {
  readonly slots = new SlotColumns();
  readonly annotations = new AnnotationColumns();
  slotError: DeferredError | null = null;
  annotationError: DeferredError | null = null;
  /** Per TIER (in file order): its records' range and the ANNOTATION_REFs of REF_ANNOTATIONs that are no record. */
  readonly tierStart: number[] = [];
  readonly tierEnd: number[] = [];
  readonly otherRefParents: string[][] = [];
  /** ANNOTATION_ID to record; dropped once references are resolved. */
  idIndex: Map<string, number> | null = new Map();
  private readonly pending: PendingSlots[] = [];
  private tierIndex = -1;
  private position = 0;
  private sequence = 0;

  takes(open: readonly XmlElement[], element: XmlElement): boolean {
    if (open.length === 1) {
      if (open[0].name === 'ANNOTATION_DOCUMENT' && element.name === 'TIER') {
        this.tierIndex++;
        this.position = 0;
        this.tierStart.push(this.annotations.count);
        this.tierEnd.push(this.annotations.count);
        this.otherRefParents.push([]);
      }
      return false;
    }
    if (open.length !== 2 || open[0].name !== 'ANNOTATION_DOCUMENT') return false;
    return (element.name === 'TIME_SLOT' && open[1].name === 'TIME_ORDER') || (element.name === 'ANNOTATION' && open[1].name === 'TIER');
  }

  take(element: XmlElement): void {
    if (element.name === 'TIME_SLOT') this.takeSlot(element);
    else this.takeAnnotation(element);
  }

  /** Resolves the slots of annotations met before their TIME_ORDER; then the slot lookup is dropped. */
  finish(): void {
    const slots = this.slots.indexOf as Map<string, number>;
    for (const pending of this.pending) {
      if (this.annotationError !== null && this.annotationError.sequence < pending.sequence) break;
      const offset = this.annotations.offset[pending.record];
      const slot1 = this.slotFor(slots, pending.ref1, 'TIME_SLOT_REF1', pending, offset);
      const slot2 = slot1 === -1 ? -1 : this.slotFor(slots, pending.ref2, 'TIME_SLOT_REF2', pending, offset);
      if (slot2 === -1) break;
      this.annotations.slot1[pending.record] = slot1;
      this.annotations.slot2[pending.record] = slot2;
      this.slots.use(slot1);
      this.slots.use(slot2);
    }
    this.pending.length = 0;
    this.slots.indexOf = null;
  }

  private slotFor(slots: Map<string, number>, id: string | undefined, attribute: string, pending: PendingSlots, offset: number): number {
    const index = id === undefined ? undefined : slots.get(id);
    if (index !== undefined) return index;
    this.annotationError = { sequence: pending.sequence, offset, path: pending.path, expected: slotExpected(attribute, id) };
    return -1;
  }

  private takeSlot(element: XmlElement): void {
    if (this.slotError !== null) return;
    const slots = this.slots;
    const fail = (expected: string): void => {
      this.slotError = { sequence: 0, offset: element.offset, path: `TIME_ORDER/TIME_SLOT[${slots.count + 1}]`, expected };
    };
    const id = element.attributes.TIME_SLOT_ID;
    if (!id) return fail('a TIME_SLOT_ID attribute');
    if ((slots.indexOf as Map<string, number>).has(id)) return fail(`a unique TIME_SLOT_ID; "${id}" is used twice`);
    const written = element.attributes.TIME_VALUE;
    let value = Number.NaN;
    if (written !== undefined) {
      value = Number(written);
      if (written.trim() === '' || !Number.isFinite(value) || value < 0) return fail(`TIME_VALUE in milliseconds (a number >= 0), got "${written}"`);
    }
    slots.add(detached(id), value);
  }

  private takeAnnotation(wrapper: XmlElement): void {
    const tier = this.tierIndex;
    this.position++;
    const sequence = this.sequence++;
    const element = wrapper.children[0];
    const recorded = this.annotationError === null && this.record(tier, sequence, wrapper, element);
    // Every REF_ANNOTATION counts when a tier's symbolic stereotype must be guessed (see the reader).
    for (const child of wrapper.children) {
      if (child.name === 'REF_ANNOTATION' && !(recorded && child === element)) this.otherRefParents[tier].push(detached(child.attributes.ANNOTATION_REF ?? ''));
    }
  }

  private record(tier: number, sequence: number, wrapper: XmlElement, element: XmlElement | undefined): boolean {
    const path = `TIER[${tier + 1}]/ANNOTATION[${this.position}]`;
    const fail = (at: XmlElement, where: string, expected: string): false => {
      this.annotationError = { sequence, offset: at.offset, path: where, expected };
      return false;
    };
    if (!element || (element.name !== 'ALIGNABLE_ANNOTATION' && element.name !== 'REF_ANNOTATION')) {
      return fail(element ?? wrapper, path, 'an <ALIGNABLE_ANNOTATION> or <REF_ANNOTATION> inside <ANNOTATION>');
    }
    const attributes = element.attributes;
    const where = `${path}/${element.name}`;
    const eafId = attributes.ANNOTATION_ID;
    const ids = this.idIndex as Map<string, number>;
    if (!eafId) return fail(element, where, 'an ANNOTATION_ID attribute');
    if (ids.has(eafId)) return fail(element, where, `a unique ANNOTATION_ID; "${eafId}" is used twice`);
    const alignable = element.name === 'ALIGNABLE_ANNOTATION';
    let slots: [number | undefined, number | undefined] = [undefined, undefined];
    let ref: string | undefined;
    if (alignable) {
      const found = this.slotsOf(attributes, sequence, where);
      if (typeof found === 'string') return fail(element, where, found);
      slots = found;
    } else {
      ref = attributes.ANNOTATION_REF;
      if (!ref) return fail(element, where, 'an ANNOTATION_REF attribute naming the parent annotation');
    }
    const valueElement = element.children.find((child) => child.name === 'ANNOTATION_VALUE');
    const id = detached(eafId);
    const index = this.annotations.add(tier, alignable ? ALIGNABLE : REFERENCE, element.offset, id, detached(valueElement ? valueElement.text : ''));
    ids.set(id, index);
    this.tierEnd[tier] = index + 1;
    const [slot1, slot2] = slots;
    if (slot1 !== undefined && slot2 !== undefined) {
      this.annotations.slot1[index] = slot1;
      this.annotations.slot2[index] = slot2;
      this.slots.use(slot1);
      this.slots.use(slot2);
    }
    this.keepReferenceAndExtras(index, attributes, ref);
    return true;
  }

  /** A REF_ANNOTATION's parent and predecessor, and the attributes few annotations have (CVE_REF, EXT_REF...). */
  private keepReferenceAndExtras(index: number, attributes: Readonly<Record<string, string>>, ref: string | undefined): void {
    if (ref !== undefined) {
      this.annotations.ref[index] = detached(ref);
      if (attributes.PREVIOUS_ANNOTATION !== undefined) this.annotations.previous[index] = detached(attributes.PREVIOUS_ANNOTATION);
    }
    let extra: Record<string, string> | undefined;
    for (const name of EXTRA_ATTRIBUTES) {
      if (attributes[name] !== undefined) (extra ??= {})[name] = detached(attributes[name]);
    }
    if (extra) this.annotations.attributes.set(index, extra);
  }

  /**
   * The slot indices of an ALIGNABLE_ANNOTATION, or what is wrong with its slot references. A slot
   * the TIME_ORDER has not defined yet (one written after the tiers) is resolved by finish().
   */
  private slotsOf(attributes: Readonly<Record<string, string>>, sequence: number, where: string): [number | undefined, number | undefined] | string {
    const slots = this.slots.indexOf as Map<string, number>;
    const ref1 = attributes.TIME_SLOT_REF1;
    const ref2 = attributes.TIME_SLOT_REF2;
    if (ref1 === undefined) return slotExpected('TIME_SLOT_REF1', ref1);
    const slot1 = slots.get(ref1);
    let slot2: number | undefined;
    if (slot1 !== undefined) {
      if (ref2 === undefined) return slotExpected('TIME_SLOT_REF2', ref2);
      slot2 = slots.get(ref2);
    }
    if (slot2 === undefined) this.pending.push({ record: this.annotations.count, sequence, path: where, ref1, ref2 });
    return [slot1, slot2];
  }
}

function slotExpected(attribute: string, id: string | undefined): string {
  return `${attribute} naming a TIME_SLOT of the TIME_ORDER${id === undefined ? '' : `; "${id}" is not one`}`;
}

function grown<T extends Int32Array | Uint8Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/**
 * A copy of a string that does not hold on to the source text. V8 makes a substring of 13 or
 * more characters a view into its parent, so one kept annotation value would keep the whole file
 * in memory; a concatenation flattened by slice() is a string of its own. Shorter strings are
 * already copies.
 */
export function detached(value: string): string {
  return value.length < 13 ? value : (' ' + value).slice(1);
}

import type { Annotation } from '../../model/annotation.js';
import type { Tier, TierStereotype } from '../../model/tier.js';
import type { LoadOptions } from '../adapter.js';
import { FormatParseError } from '../errors.js';
import { placedInFile } from '../refusal-place.js';
import type { Finding } from '../finding.js';
import { ImportClock } from '../import-clock.js';
import type { SourceLocation } from '../errors.js';
import type { EafAnnotationBuilder, TierGifts } from './eaf-annotation-builder.js';
import { EafBulk, REFERENCE, type AnnotationColumns, type DeferredError, type SlotColumns } from './eaf-bulk.js';
import { DEFAULT_ASSET_ID, type DocumentParts } from './eaf-model.js';
import { lineAndColumn, scanXml, type XmlElement } from './xml-scan.js';

/** A LINGUISTIC_TYPE as the tiers pass needs it. */
export interface LinguisticType {
  readonly constraint: string | null;
  readonly controlledVocabulary: string | null;
}

/** A tier as the tiers pass works on it, before it becomes a (frozen) Tier. */
export interface TierDraft {
  readonly name: string;
  stereotype: TierStereotype;
  parent: string | null;
  readonly metadata: Record<string, unknown>;
  readonly element: XmlElement;
}

/**
 * What the passes of readEaf share, as ELAN's own reader builds its document in steps: the
 * source and the scan's columns, then what each pass adds (header → time slots → tiers →
 * alignable annotations → references). Each pass is a function of this state, in a file of its
 * own; each field says which pass fills it.
 *
 * The state holds the source text (for lines and columns in messages): nothing built to outlive
 * the read (the annotations streamed after readEaf returns) may keep a reference to it.
 */
export class EafReadState {
  readonly file: string;
  readonly bulk = new EafBulk();
  /** The document's element tree, without the time slots and annotations the scan handed to `bulk`. */
  readonly root: XmlElement;
  readonly rate: number;
  /** The import's clock: counts every rounding once, when an annotation is built. */
  readonly clock: ImportClock;

  // header
  readonly parts: DocumentParts;
  readonly types = new Map<string, LinguisticType>();
  readonly tierElements: XmlElement[] = [];
  asset = DEFAULT_ASSET_ID;

  // tiers: in file order (a record's `tier` is an index into this list), then parents first
  tiers: Tier[] = [];
  ordered: Tier[] = [];
  /** Tiers (by index) that REF_ANNOTATIONs of dependent tiers point into. */
  readonly referredTiers = new Set<number>();
  /** Tiers whose annotations are built during the read: the related ones (parents, children, reference targets). */
  readonly related = new Set<string>();

  // alignable annotations
  /** Times given to unaligned slots, by slot index (see resolveSlotTimes). */
  readonly interpolated = new Map<number, number>();
  builder: EafAnnotationBuilder | null = null;
  /** Annotations built during the read, by record; the others are built as they are consumed. */
  readonly prebuilt = new Map<number, Annotation>();
  readonly recordOfUuid = new Map<string, number>();
  readonly builtFirst = new Set<string>();
  readonly giftsOf = new Map<string, TierGifts>();

  // references: the order annotations are handed to the store in (parents first)
  emitted: Uint8Array = new Uint8Array(0);
  order: Int32Array = new Int32Array(0);
  emittedCount = 0;
  /** Records a reader finding already reported as a broken constraint (not reported again by the constraints check). */
  readonly reportedViolations = new Set<string>();

  constructor(
    readonly text: string,
    readonly options: LoadOptions,
  ) {
    this.file = options.sourceName;
    this.root = scanXml(text, this.file, this.bulk);
    this.rate = options.rate ?? 1000;
    this.clock = new ImportClock(this.rate, options.strictTime);
    this.parts = { attributes: { ...this.root.attributes }, elements: [] };
  }

  get records(): AnnotationColumns {
    return this.bulk.annotations;
  }

  get slots(): SlotColumns {
    return this.bulk.slots;
  }

  failAt(offset: number, path: string, expected: string): never {
    throw new FormatParseError(this.file, { ...lineAndColumn(this.text, offset), path }, `expected ${expected}`);
  }

  fail(element: XmlElement, path: string, expected: string): never {
    return this.failAt(element.offset, path, expected);
  }

  /** Throws an error the scan found (and kept until the file was known to be well-formed). */
  failWith(error: DeferredError | null): void {
    if (error) this.failAt(error.offset, error.path, error.expected);
  }

  report(finding: Omit<Finding, 'file'>): void {
    this.options.report({ ...finding, file: this.file });
  }

  /** `TIER[2]/ANNOTATION[5]/REF_ANNOTATION`: a record's element, as XPath-like steps. */
  recordPath(record: number): string {
    return recordPath(this.records, this.bulk.tierStart, record);
  }

  /** A refusal of the annotation of `record` (the model's: a limit), named at its element (refusal-place.ts). */
  refusalOf(error: unknown, record: number): unknown {
    return placedInFile(error, this.file, this.locationOf(record));
  }

  locationOf(record: number): SourceLocation {
    return { ...lineAndColumn(this.text, this.records.offset[record]), path: this.recordPath(record) };
  }

  /** A refusal of what an element says (a tier's name), named at the element. */
  refusalAt(error: unknown, element: XmlElement, path: string): unknown {
    return placedInFile(error, this.file, this.elementLocation(element, path));
  }

  elementLocation(element: XmlElement, path: string): SourceLocation {
    return { ...lineAndColumn(this.text, element.offset), path };
  }

  tierNameOf(record: number): string {
    return this.tierElements[this.records.tier[record]].attributes.TIER_ID;
  }

  /** The record an ANNOTATION_ID names (the scan's index, complete once the tiers pass has checked the scan's errors). */
  recordOfId(id: string): number | undefined {
    return (this.bulk.idIndex as Map<string, number>).get(id);
  }
}

/** `TIER[2]/ANNOTATION[5]/REF_ANNOTATION`: a record's element, as XPath-like steps (from the columns alone, the text gone or not). */
export function recordPath(records: AnnotationColumns, tierStart: readonly number[], record: number): string {
  const tier = records.tier[record];
  return `TIER[${tier + 1}]/ANNOTATION[${record - tierStart[tier] + 1}]/${records.kind[record] === REFERENCE ? 'REF_ANNOTATION' : 'ALIGNABLE_ANNOTATION'}`;
}

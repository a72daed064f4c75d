import { XMLParser } from 'fast-xml-parser';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readEaf } from '../../src/adapters/eaf/eaf-reader.js';
import { scanXml, type XmlElement } from '../../src/adapters/eaf/xml-scan.js';
import { decodeText } from '../../src/adapters/sniffers.js';
import { RationalTime } from '../../src/time/rational-time.js';

// The EAF reader keeps its own XML scanner (about 2x faster than fast-xml-parser, see
// bench/adapters-eaf.bench.js). This cross-check reads every EAF fixture with both and compares what
// EAF is made of: time slots, tiers, annotation ids, kinds, slot references, parent references and
// values; then checks the reader's annotations against fast-xml-parser's reading. fixtures/ includes
// the other tools' files copied from the shared corpus (fixtures/corpus/eaf).

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function eafFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith('.eaf'))
    .map((entry) => join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name))
    .sort();
}

interface Summary {
  slots: Array<[string, string | null]>;
  tiers: Array<{ id: string; parent: string | null; annotations: Array<{ id: string; kind: string; ts1: string | null; ts2: string | null; ref: string | null; previous: string | null; value: string }> }>;
}

function ourSummary(root: XmlElement): Summary {
  const children = (element: XmlElement, name: string) => element.children.filter((child) => child.name === name);
  return {
    slots: children(root, 'TIME_ORDER').flatMap((order) => children(order, 'TIME_SLOT')).map((slot) => [slot.attributes.TIME_SLOT_ID, slot.attributes.TIME_VALUE ?? null]),
    tiers: children(root, 'TIER').map((tier) => ({
      id: tier.attributes.TIER_ID,
      parent: tier.attributes.PARENT_REF ?? null,
      annotations: children(tier, 'ANNOTATION').flatMap((wrapper) =>
        wrapper.children.map((annotation) => ({
          id: annotation.attributes.ANNOTATION_ID,
          kind: annotation.name,
          ts1: annotation.attributes.TIME_SLOT_REF1 ?? null,
          ts2: annotation.attributes.TIME_SLOT_REF2 ?? null,
          ref: annotation.attributes.ANNOTATION_REF ?? null,
          previous: annotation.attributes.PREVIOUS_ANNOTATION ?? null,
          value: children(annotation, 'ANNOTATION_VALUE')[0]?.text ?? '',
        })),
      ),
    })),
  };
}

type Node = Record<string, unknown>;
const ARRAYS = new Set(['TIME_ORDER', 'TIME_SLOT', 'TIER', 'ANNOTATION', 'ALIGNABLE_ANNOTATION', 'REF_ANNOTATION']);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: false,
  isArray: (name) => ARRAYS.has(name),
});

function text(node: unknown): string {
  if (node === undefined || node === null) return '';
  if (typeof node === 'string') return node;
  const value = (node as Node)['#text'];
  return value === undefined ? '' : String(value);
}

const summaries = new Map<string, Summary>();
function theirSummary(xml: string): Summary {
  const known = summaries.get(xml);
  if (known) return known;
  const summary = parseSummary(xml);
  summaries.set(xml, summary);
  return summary;
}

function parseSummary(xml: string): Summary {
  const document = (parser.parse(xml) as Node).ANNOTATION_DOCUMENT as Node;
  const list = (node: Node, name: string) => (node[name] as Node[] | undefined) ?? [];
  const attribute = (node: Node, name: string) => (node[`@${name}`] as string | undefined) ?? null;
  return {
    slots: list(document, 'TIME_ORDER').flatMap((order) => list(order, 'TIME_SLOT')).map((slot) => [attribute(slot, 'TIME_SLOT_ID')!, attribute(slot, 'TIME_VALUE')]),
    tiers: list(document, 'TIER').map((tier) => ({
      id: attribute(tier, 'TIER_ID')!,
      parent: attribute(tier, 'PARENT_REF'),
      annotations: list(tier, 'ANNOTATION').flatMap((wrapper) =>
        ['ALIGNABLE_ANNOTATION', 'REF_ANNOTATION'].flatMap((kind) =>
          list(wrapper, kind).map((annotation) => ({
            id: attribute(annotation, 'ANNOTATION_ID')!,
            kind,
            ts1: attribute(annotation, 'TIME_SLOT_REF1'),
            ts2: attribute(annotation, 'TIME_SLOT_REF2'),
            ref: attribute(annotation, 'ANNOTATION_REF'),
            previous: attribute(annotation, 'PREVIOUS_ANNOTATION'),
            value: text(annotation.ANNOTATION_VALUE),
          })),
        ),
      ),
    })),
  };
}

// fixtures/validate holds files broken on purpose: the reader reports and drops what fast-xml-parser keeps.
const files = eafFiles(join(ROOT, 'fixtures')).filter((file) => !file.includes(join('fixtures', 'validate')));
const cases = files.map((file) => [file.slice(ROOT.length), file]);

describe('the EAF scanner against fast-xml-parser', () => {
  it('has EAF fixtures to read', () => {
    expect(eafFiles(join(ROOT, 'fixtures')).length).toBeGreaterThan(0);
  });

  it.each(cases)('%s: same slots, tiers, ids, references and values', (_name, file) => {
    const xml = decodeText(readFileSync(file));
    const ours = ourSummary(scanXml(xml, file));
    const theirs = theirSummary(xml);
    expect(ours).toEqual(theirs);
    expect(ours.tiers.length).toBeGreaterThan(0);
  });

  it.each(cases)('%s: the reader yields those annotations, at those slot times', (_name, file) => {
    const xml = decodeText(readFileSync(file));
    let read;
    try {
      const result = readEaf(xml, { sourceName: file, now: new RationalTime(0, 1000), report: () => undefined });
      read = { ...result, annotations: [...result.annotations] };
    } catch {
      return; // a file the reader refuses (the corpus has some) is the reader's own tests' business
    }
    const theirs = theirSummary(xml);
    const slotValue = new Map(theirs.slots);
    const expected = theirs.tiers.flatMap((tier) => tier.annotations.map((annotation) => ({ tier: tier.id, ...annotation })));
    const byEafId = new Map(read.annotations.map((annotation) => [(annotation.body as { annotation_id: string }).annotation_id, annotation]));
    expect([...byEafId.keys()].sort()).toEqual(expected.map((annotation) => annotation.id).sort());
    const aligned = (id: string | null) => (id && /^\d+$/.test(slotValue.get(id) ?? '') ? Number(slotValue.get(id)) / 1000 : null);
    const got = expected.map((annotation) => {
      const found = byEafId.get(annotation.id)!;
      const interval = found.reference.kind === 'media' && aligned(annotation.ts1) !== null && aligned(annotation.ts2) !== null ? [found.reference.interval.start.toSeconds(), found.reference.interval.end.toSeconds()] : null;
      return { tier: found.tier, text: (found.body as { text: string }).text, interval };
    });
    const want = expected.map((annotation) => {
      const interval = annotation.kind === 'ALIGNABLE_ANNOTATION' && aligned(annotation.ts1) !== null && aligned(annotation.ts2) !== null ? [aligned(annotation.ts1), aligned(annotation.ts2)] : null;
      return { tier: annotation.tier, text: annotation.value, interval };
    });
    expect(got).toEqual(want);
  });
});

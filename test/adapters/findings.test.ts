import { join } from 'node:path';
import type { Finding } from '../../src/adapters/finding.js';
import { eafCodec } from '../../src/adapters/eaf/codec.js';
import { textgridCodec } from '../../src/adapters/textgrid/codec.js';
import { webAnnotationCodec } from '../../src/adapters/web-annotation/codec.js';
import { loadWith } from './codec-harness.js';

/** The broken files of fixtures/validate: each is still read, and reports an error finding with its place. */
const VALIDATE = new URL('../../fixtures/validate/', import.meta.url).pathname;

async function findingsOf(codec: Parameters<typeof loadWith>[0], name: string) {
  const findings: Finding[] = [];
  const loaded = await loadWith(codec, join(VALIDATE, name), { sourceName: name, report: (finding) => findings.push(finding) });
  return { findings, annotations: loaded.annotations };
}

it('a TextGrid IntervalTier with overlapping intervals (0-2 "a", 1-3 "b") is a tier_overlap error at the line of "b"', async () => {
  const { findings, annotations } = await findingsOf(textgridCodec, 'textgrid-overlap.TextGrid');
  expect(findings).toEqual([expect.objectContaining({ code: 'tier_overlap', severity: 'error', file: 'textgrid-overlap.TextGrid', location: { line: 20 } })]);
  expect(findings[0].message).toMatch(/interval "b" of tier "words" starts at 1, before the previous interval \("a", line 16\) ends at 2/);
  expect(annotations).toHaveLength(2);
});

it('a Web Annotation whose FragmentSelector has no value is an empty_selector error with its JSON pointer', async () => {
  const { findings, annotations } = await findingsOf(webAnnotationCodec, 'web-annotation-empty-selector.json');
  const selector = findings.find((finding) => finding.code === 'empty_selector');
  expect(selector).toEqual(expect.objectContaining({ severity: 'error', file: 'web-annotation-empty-selector.json', location: { path: '/target/selector' } }));
  expect(annotations).toHaveLength(0);
});

it('an EAF REF_ANNOTATION naming a missing annotation is a missing_reference error; the rest is read', async () => {
  const { findings, annotations } = await findingsOf(eafCodec, 'eaf-missing-reference.eaf');
  expect(findings).toEqual([expect.objectContaining({ code: 'missing_reference', severity: 'error', file: 'eaf-missing-reference.eaf' })]);
  expect(findings[0].location).toEqual(expect.objectContaining({ line: 22 }));
  expect(findings[0].message).toContain('ANNOTATION_REF="a99"');
  expect(annotations.map((annotation) => annotation.body.text).sort()).toEqual(['greeting', 'hello']);
});

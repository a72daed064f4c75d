// Loading a large EAF (200k annotations: half time-aligned, half REF_ANNOTATIONs) through the eaf
// adapter — scan, walk, every annotation built and streamed — against fast-xml-parser's own parse
// of the same file (attributes on, nothing else), measured in the same run. Target: at most 1.3x.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { XMLParser } from 'fast-xml-parser';
import { eafCodec } from '../dist/src/adapters/eaf/codec.js';
import { RationalTime } from '../dist/src/time/rational-time.js';
import { report } from './lib/harness.js';

const ANNOTATIONS = 200_000;

function generate(count) {
  const half = count / 2;
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<ANNOTATION_DOCUMENT AUTHOR="" DATE="2026-01-01T00:00:00+00:00" FORMAT="3.0" VERSION="3.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="http://www.mpi.nl/tools/elan/EAFv3.0.xsd">\n',
    '    <HEADER MEDIA_FILE="" TIME_UNITS="milliseconds">\n        <MEDIA_DESCRIPTOR MEDIA_URL="file:///session.wav" MIME_TYPE="audio/x-wav"/>\n    </HEADER>\n    <TIME_ORDER>\n',
  ];
  for (let i = 0; i < count; i++) parts.push(`        <TIME_SLOT TIME_SLOT_ID="ts${i + 1}" TIME_VALUE="${i * 500}"/>\n`);
  parts.push('    </TIME_ORDER>\n    <TIER LINGUISTIC_TYPE_REF="utterance" PARTICIPANT="S1" TIER_ID="speech">\n');
  for (let i = 0; i < half; i++) {
    parts.push(`        <ANNOTATION>\n            <ALIGNABLE_ANNOTATION ANNOTATION_ID="a${i + 1}" TIME_SLOT_REF1="ts${2 * i + 1}" TIME_SLOT_REF2="ts${2 * i + 2}">\n                <ANNOTATION_VALUE>utterance &amp; number ${i}</ANNOTATION_VALUE>\n            </ALIGNABLE_ANNOTATION>\n        </ANNOTATION>\n`);
  }
  parts.push('    </TIER>\n    <TIER LINGUISTIC_TYPE_REF="translation" PARENT_REF="speech" TIER_ID="translation">\n');
  for (let i = 0; i < half; i++) {
    parts.push(`        <ANNOTATION>\n            <REF_ANNOTATION ANNOTATION_ID="a${half + i + 1}" ANNOTATION_REF="a${i + 1}">\n                <ANNOTATION_VALUE>translation ${i}</ANNOTATION_VALUE>\n            </REF_ANNOTATION>\n        </ANNOTATION>\n`);
  }
  parts.push('    </TIER>\n    <LINGUISTIC_TYPE GRAPHIC_REFERENCES="false" LINGUISTIC_TYPE_ID="utterance" TIME_ALIGNABLE="true"/>\n');
  parts.push('    <LINGUISTIC_TYPE CONSTRAINTS="Symbolic_Association" GRAPHIC_REFERENCES="false" LINGUISTIC_TYPE_ID="translation" TIME_ALIGNABLE="false"/>\n');
  parts.push('    <CONSTRAINT DESCRIPTION="1-1 association with a parent annotation" STEREOTYPE="Symbolic_Association"/>\n</ANNOTATION_DOCUMENT>\n');
  return parts.join('');
}

const dir = mkdtempSync(join(tmpdir(), 'annot-bench-eaf-'));
try {
  const path = join(dir, 'large.eaf');
  writeFileSync(path, generate(ANNOTATIONS));

  const loadOnce = async () => {
    const start = performance.now();
    const document = await eafCodec.load(path, { sourceName: path, now: RationalTime.now(1000), warn: () => undefined });
    let count = 0;
    for await (const annotation of document.annotations) if (annotation) count++;
    const elapsed = performance.now() - start;
    if (count !== ANNOTATIONS) throw new Error(`loaded ${count} annotations, expected ${ANNOTATIONS}`);
    return elapsed;
  };
  const parseOnce = () => {
    const start = performance.now();
    // Reading the file is part of both measurements.
    const text = readFileSync(path, 'utf8');
    const document = new XMLParser({ ignoreAttributes: false }).parse(text);
    const elapsed = performance.now() - start;
    if (!document.ANNOTATION_DOCUMENT) throw new Error('fast-xml-parser found no ANNOTATION_DOCUMENT');
    return elapsed;
  };

  // Alternating runs, best of two each, so a burst of load from other processes on this shared
  // machine does not land on one side only.
  await loadOnce(); // warm-up: JIT and file cache
  const ours = [];
  const reference = [];
  for (let round = 0; round < 2; round++) {
    globalThis.gc?.();
    ours.push(await loadOnce());
    globalThis.gc?.();
    reference.push(parseOnce());
  }

  report({
    name: 'eaf load, 200k annotations',
    figure: Math.min(...ours),
    unit: 'ms',
    reference: 'fast-xml-parser parse of the same file',
    referenceFigure: Math.min(...reference),
    higherIsBetter: false,
    target: 1.3,
    targetText: '<= 1.3x fast-xml-parser parse',
    extra: { annotations: ANNOTATIONS, file_mb: (readFileSync(path).length / 1e6).toFixed(1), annotations_per_s: Math.round((ANNOTATIONS / Math.min(...ours)) * 1000), runs_ms: ours.map(Math.round).join('/'), reference_runs_ms: reference.map(Math.round).join('/') },
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}

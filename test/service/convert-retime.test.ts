import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getAdapter } from '../../src/adapters/registry.js';
import type { Finding } from '../../src/adapters/finding.js';
import { convertFile, type ConvertReport } from '../../src/service/convert-file.js';
import { convertAsStream } from '../../src/service/convert-stream.js';
import { AnnotationRetimer } from '../../src/service/retime-annotations.js';
import { makeAnnotation } from '../../src/model/annotation.js';
import { UNKNOWN_GENERATED_AT } from '../../src/model/provenance.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { retimeMap, type RetimeMap } from '../../src/time/retime.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { tempDir } from '../support/sample-annot.js';
import { FIXTURES, fixturesMatching } from './streamed-vs-whole.js';

/**
 * A retime on `convert` (issue 35) in the service: a conversion that streams stays a stream with
 * a retime (convertAsStream converts, rather than declining or falling back), and writes what the
 * whole-document path writes with the same retime, report and findings; a `.annot` source is
 * retimed like the file it was made from; an annotation that refers to a dropped one goes with it.
 */

interface Outcome {
  bytes: Buffer | null;
  report: ConvertReport | null;
  error: string | null;
  findings: Finding[];
}

async function convert(input: string, output: string, stream: boolean, retime: RetimeMap, extra: { strict?: boolean; strictTime?: boolean } = {}): Promise<Outcome> {
  const findings: Finding[] = [];
  let report: ConvertReport | null = null;
  let error: string | null = null;
  try {
    report = await convertFile({ input, output, stream, retime, warn: () => {}, report: (finding) => findings.push(finding), ...extra });
  } catch (caught) {
    error = `${(caught as Error & { code?: string }).code ?? ''} ${(caught as Error).message}`;
  }
  let bytes: Buffer | null = null;
  try {
    bytes = readFileSync(output);
  } catch {
    bytes = null;
  }
  return { bytes, report, error, findings };
}

const RETIMES: Array<[string, RetimeMap]> = [
  ['--shift -1.5 (cuts and drops at 0 s)', retimeMap({ shift: '-1.5' })],
  ['--fps-from 23.976 --fps-to 25 (rounded)', retimeMap({ fps_from: '23.976', fps_to: 25 })],
  ['--within 2,10 --shift 30 (out of time order: the stream falls back)', retimeMap({ within: ['2', '10'], shift: 30 })],
];

describe('conversion with a retime', () => {
  const { dir, cleanup } = tempDir('annot-convert-retime-service-');
  afterAll(cleanup);
  // One codec at a time: jest's ES module loader fails two concurrent first imports of one module.
  beforeAll(async () => {
    for (const name of ['srt', 'webvtt', 'textgrid']) await getAdapter(name).codec();
  });

  it('streams: SRT into WebVTT in one pass and into TextGrid in two, counting the retime once', async () => {
    const input = join(dir, 'stream.srt');
    writeFileSync(input, '1\n00:00:00,500 --> 00:00:01,500\na\n\n2\n00:00:01,000 --> 00:00:04,000\nb\n\n3\n00:00:05,000 --> 00:00:06,000\nc\n');
    for (const target of ['webvtt', 'textgrid']) {
      const outcome = await convertAsStream({
        inputPath: input,
        outputPath: join(dir, `stream.${target}`),
        source: getAdapter('srt'),
        target: getAdapter(target),
        load: { sourceName: input, now: RationalTime.now(1000), report: () => undefined },
        inputName: input,
        targetName: target,
        warn: () => undefined,
        beforeCommit: () => undefined,
        retime: { map: retimeMap({ shift: '-1.5' }) },
      });
      expect(outcome.kind).toBe('converted');
      if (outcome.kind !== 'converted') continue;
      expect(outcome.annotations).toBe(2);
      expect(outcome.retimed).toEqual({
        moved: 3,
        rounded: 0,
        cut: 1,
        dropped: 1,
        dependents: 0,
        findings: ['1 annotation moved to start before 0 s and was cut to start at 0 s', '1 annotation moved wholly before 0 s and was dropped'],
      });
    }
    expect(readFileSync(join(dir, 'stream.webvtt'), 'utf8')).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:02.500\nb\n\n00:00:03.500 --> 00:00:04.500\nc\n\n');
  });

  const sources = [join(FIXTURES, 'talk.vtt'), ...fixturesMatching('srt/other-tools', /\.srt$/).slice(0, 3), join(FIXTURES, 'ass', 'features.ass'), join(FIXTURES, 'textgrid', 'praatio_mary.TextGrid')];
  let n = 0;
  for (const source of sources) {
    for (const [name, map] of RETIMES) {
      it(`${source.slice(FIXTURES.length + 1)} with ${name}: streamed and whole write the same bytes and report`, async () => {
        const k = n++;
        for (const target of ['srt', 'vtt', 'TextGrid']) {
          const streamed = await convert(source, join(dir, `s${k}.${target}`), true, map);
          const whole = await convert(source, join(dir, `w${k}.${target}`), false, map);
          expect(streamed.error).toEqual(whole.error);
          expect(streamed.findings).toEqual(whole.findings);
          expect(streamed.report).toEqual(whole.report);
          if (streamed.error === null && !name.startsWith('--within')) expect(streamed.report?.retimed?.moved).toBeGreaterThan(0);
          expect(streamed.bytes?.equals(whole.bytes as Buffer) ?? whole.bytes === null).toBe(true);
        }
      });
    }
  }

  it('a .annot file is retimed as the file it was made from, and its strict refusal writes nothing', async () => {
    const talk = join(FIXTURES, 'talk.vtt');
    const annot = join(dir, 'talk.annot');
    await convertFile({ input: talk, output: annot, warn: () => {}, report: () => {} });
    const map = retimeMap({ shift: '-1', scale: '1.001' });
    for (const target of ['srt', 'eaf', 'annot']) {
      const fromAnnot = await convert(annot, join(dir, `from-annot.${target}`), true, map);
      const fromText = await convert(talk, join(dir, `from-text.${target}`), true, map);
      expect(fromAnnot.error).toBeNull();
      expect(fromAnnot.report?.retimed).toEqual(fromText.report?.retimed);
      if (target === 'srt') expect(fromAnnot.bytes?.equals(fromText.bytes as Buffer)).toBe(true);
    }
    // Streamed over the store (cues, TextGrid's two passes) or read whole, and out of time order after --within: the same.
    for (const retime of [map, retimeMap({ within: ['2', '10'], shift: 30 }), retimeMap({ shift: '-3.3' })]) {
      for (const target of ['srt', 'vtt', 'TextGrid']) {
        const streamed = await convert(annot, join(dir, `annot-s.${target}`), true, retime);
        const whole = await convert(annot, join(dir, `annot-w.${target}`), false, retime);
        expect(streamed.error).toBeNull();
        expect(streamed.report).toEqual(whole.report);
        expect(streamed.bytes?.equals(whole.bytes as Buffer)).toBe(true);
      }
    }
    const refused = await convert(annot, join(dir, 'refused.srt'), true, retimeMap({ shift: -1 }), { strict: true });
    expect(refused.error).toMatch(/^ANNOT_RETIME_BEFORE_ZERO .*talk\.annot: the annotation at 0–3\.25 s would start at -1 s/);
    expect(refused.bytes).toBeNull();
  });

  it('drops the annotations that refer to one dropped before 0 s (EAF symbolic children) and keeps the file valid', async () => {
    const eaf = join(FIXTURES, 'eaf', 'all-stereotypes.eaf');
    for (const target of ['annot', 'eaf']) {
      const result = await convert(eaf, join(dir, `dependents.${target}`), true, retimeMap({ shift: '-0.5' }));
      expect(result.error).toBeNull();
      expect(result.report?.retimed).toMatchObject({ dropped: 1, dependents: 2, cut: 1 });
      expect(result.report?.retimed?.findings).toContain('2 annotations that referred to a dropped one were dropped with it');
      expect(result.report?.annotations).toBe(7);
    }
  });

  it('AnnotationRetimer drops a reference to a dropped annotation, and keeps one to a cut or moved annotation', () => {
    const asset = 'a.wav';
    const media = (id: string, start: number, end: number) =>
      makeAnnotation({ id, tier: 't', reference: { kind: 'media', asset_id: asset, interval: new TimeInterval(new RationalTime(start, 1000), new RationalTime(end, 1000)) }, body: {}, body_schema_uri: 'annot://schema/x/v1', provenance: { was_generated_by: 'test', generated_at_time: UNKNOWN_GENERATED_AT } });
    const ref = (id: string, target: string) => makeAnnotation({ id, tier: 'r', reference: { kind: 'annotation', target_id: target }, body: {}, body_schema_uri: 'annot://schema/x/v1', provenance: { was_generated_by: 'test', generated_at_time: UNKNOWN_GENERATED_AT } });
    const ids = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000004', '00000000-0000-4000-8000-000000000005'];
    const retimer = new AnnotationRetimer(retimeMap({ shift: -2 }));
    expect(retimer.retime(media(ids[0], 0, 1000))).toBeNull();
    expect(retimer.retime(ref(ids[1], ids[0]))).toBeNull();
    expect(retimer.retime(ref(ids[2], ids[1]))).toBeNull(); // a reference to a dropped reference
    const cut = media(ids[3], 1000, 3000);
    expect(retimer.retime(cut)?.reference).toEqual({ kind: 'media', asset_id: asset, interval: new TimeInterval(new RationalTime(0, 1000), new RationalTime(1000, 1000)) });
    expect(retimer.retime(ref(ids[4], ids[3]))?.id).toBe(ids[4]);
    expect(retimer.counts).toEqual({ moved: 2, rounded: 0, cut: 1, dropped: 1, dependents: 2 });
  });
});

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding } from '../../src/adapters/finding.js';
import { getAdapter } from '../../src/adapters/registry.js';
import { convertFile, type ConvertReport } from '../../src/service/convert-file.js';
import { convertAsStream } from '../../src/service/convert-stream.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { tempDir } from '../support/sample-annot.js';

/**
 * SubStation (ASS/SSA) and SBV stream like SRT (convert-stream.ts): their readers read as they
 * are consumed and their writers write cues as they come, so a conversion between them and SRT,
 * WebVTT or TextGrid goes from reader to writer without a store. It must write exactly what the
 * whole-document path writes, with the same report and findings: every ASS, SSA and SBV fixture
 * is converted to every text format both ways, and a few SRT and WebVTT files into ASS and SBV.
 */
const root = join(import.meta.dirname, '..', '..', 'fixtures');

function fixtures(dir: string, pattern: RegExp): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => pattern.test(name))
    .map((name) => join(root, dir, name))
    .sort();
}

const SOURCES = [...fixtures('ass', /\.(ass|ssa)$/), ...fixtures('sbv', /\.sbv$/), join(root, 'talk.vtt'), ...fixtures('srt/other-tools', /\.srt$/)];
const TARGETS = ['srt', 'vtt', 'ass', 'sbv', 'TextGrid'];

interface Outcome {
  bytes: Buffer | null;
  report: ConvertReport | null;
  error: string | null;
  findings: Finding[];
  warnings: string[];
}

async function convert(input: string, output: string, stream: boolean): Promise<Outcome> {
  const findings: Finding[] = [];
  const warnings: string[] = [];
  let report: ConvertReport | null = null;
  let error: string | null = null;
  try {
    report = await convertFile({ input, output, stream, warn: (message) => warnings.push(message), report: (finding) => findings.push(finding) });
  } catch (caught) {
    error = `${(caught as Error & { code?: string }).code ?? ''} ${(caught as Error).message}`;
  }
  return { bytes: existsSync(output) ? readFileSync(output) : null, report, error, findings, warnings };
}

describe('ASS and SBV in the conversion that streams', () => {
  const { dir, cleanup } = tempDir('annot-convert-stream-subtitles-');
  afterAll(cleanup);

  it('streams ASS into SRT and SBV into ASS: chosen by what the codecs declare, not by name', async () => {
    for (const [input, target] of [[join(root, 'ass', 'features.ass'), 'srt'], [join(root, 'sbv', 'webvtt-py', 'two_captions.sbv'), 'ass']]) {
      const outcome = await convertAsStream({
        inputPath: input,
        outputPath: join(dir, `decl.${target}`),
        source: getAdapter(input.endsWith('.sbv') ? 'sbv' : 'ass'),
        target: getAdapter(target),
        load: { sourceName: input, now: RationalTime.now(1000), report: () => undefined },
        inputName: input,
        targetName: target,
        warn: () => undefined,
        beforeCommit: () => undefined,
      });
      expect(outcome.kind).toBe('converted');
    }
  });

  let n = 0;
  for (const source of SOURCES) {
    for (const target of TARGETS) {
      it(`${source.slice(root.length + 1)} → ${target}: the same bytes, report, findings and errors as the whole-document path`, async () => {
        const i = n++;
        const streamed = await convert(source, join(dir, `s${i}.${target}`), true);
        const whole = await convert(source, join(dir, `w${i}.${target}`), false);
        expect(streamed.error).toEqual(whole.error);
        expect(streamed.findings).toEqual(whole.findings);
        expect(streamed.warnings).toEqual(whole.warnings);
        expect(streamed.report).toEqual(whole.report);
        expect(streamed.bytes === null).toBe(whole.bytes === null);
        if (streamed.bytes !== null && whole.bytes !== null) expect(streamed.bytes.equals(whole.bytes)).toBe(true);
      });
    }
  }

  it('an ASS file whose events are out of time order is written back in its own order, streamed or not', async () => {
    const input = join(dir, 'shuffled.ass');
    writeFileSync(input, '[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 1,0:00:05.00,0:00:06.00,Default,,0,0,0,,sign on top\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,first\n');
    const streamed = await convert(input, join(dir, 'shuffled-s.ass'), true);
    const whole = await convert(input, join(dir, 'shuffled-w.ass'), false);
    expect(streamed.bytes?.toString('utf8')).toContain('Dialogue: 1,0:00:05.00,0:00:06.00,Default,,0,0,0,,sign on top\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,first\n');
    expect(streamed.bytes?.equals(whole.bytes as Buffer)).toBe(true);
    expect(streamed.findings.map((finding) => finding.code)).toEqual(['cues_out_of_order']);
  });
});

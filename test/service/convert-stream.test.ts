import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerBuiltinFormats } from '../../src/adapters/builtin.js';
import type { Finding } from '../../src/adapters/finding.js';
import { convertFile, type ConvertReport } from '../../src/service/convert-file.js';
import { tempDir } from '../support/sample-annot.js';

/**
 * A conversion that streams (SRT and WebVTT to one another, see convert-stream.ts) must write
 * exactly what the whole-document path writes, report the same losses and findings, and fail
 * the same way. Every SRT, WebVTT and TextGrid fixture is converted to every text format both
 * ways and the results compared byte for byte.
 */

const root = join(import.meta.dirname, '..', '..', 'fixtures');

function fixtures(dir: string, extension: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.toLowerCase().endsWith(extension))
    .map((name) => join(root, dir, name))
    .sort();
}

const SOURCES = [...fixtures('srt', '.srt'), ...fixtures('webvtt', '.vtt'), ...fixtures('textgrid', '.textgrid')];
const TARGETS = ['srt', 'vtt', 'TextGrid'];

interface Outcome {
  bytes: Buffer | null;
  report: ConvertReport | null;
  error: string | null;
  findings: Finding[];
  warnings: string[];
}

async function convert(input: string, output: string, stream: boolean, extra: { tier?: string; strict?: boolean } = {}): Promise<Outcome> {
  const findings: Finding[] = [];
  const warnings: string[] = [];
  let report: ConvertReport | null = null;
  let error: string | null = null;
  try {
    report = await convertFile({ input, output, stream, warn: (message) => warnings.push(message), report: (finding) => findings.push(finding), ...extra });
  } catch (caught) {
    error = `${(caught as Error & { code?: string }).code ?? ''} ${(caught as Error).message}`;
  }
  return { bytes: existsSync(output) ? readFileSync(output) : null, report, error, findings, warnings };
}

describe('conversion that streams', () => {
  const { dir, cleanup } = tempDir('annot-convert-stream-');
  beforeAll(() => registerBuiltinFormats());
  afterAll(cleanup);

  it('has fixtures to compare', () => {
    expect(SOURCES.filter((path) => path.endsWith('.srt')).length).toBeGreaterThan(5);
    expect(SOURCES.filter((path) => path.endsWith('.vtt')).length).toBeGreaterThan(30);
    expect(SOURCES.filter((path) => path.toLowerCase().endsWith('.textgrid')).length).toBeGreaterThan(5);
  });

  let case_ = 0;
  for (const source of SOURCES) {
    for (const target of TARGETS) {
      it(`${source.slice(root.length + 1)} → ${target}: the same bytes, report, findings and errors as the whole-document path`, async () => {
        const n = case_++;
        const streamed = await convert(source, join(dir, `s${n}.${target}`), true);
        const whole = await convert(source, join(dir, `w${n}.${target}`), false);
        expect(streamed.error).toEqual(whole.error);
        expect(streamed.findings).toEqual(whole.findings);
        expect(streamed.warnings).toEqual(whole.warnings);
        expect(streamed.report).toEqual(whole.report);
        expect(streamed.bytes === null).toBe(whole.bytes === null);
        if (streamed.bytes !== null && whole.bytes !== null) expect(streamed.bytes.equals(whole.bytes)).toBe(true);
      });
    }
  }

  it('writes cues that arrive out of time order sorted, as the whole-document path does, printing each finding once', async () => {
    const input = join(dir, 'shuffled.srt');
    writeFileSync(input, '1\n00:00:05,000 --> 00:00:06,000\nthird\n\n2\n00:00:01,000 --> 00:00:02,000\nfirst\n\n3\n00:00:03,000 --> 00:00:04,000\nsecond\n');
    const streamed = await convert(input, join(dir, 'shuffled-s.vtt'), true);
    const whole = await convert(input, join(dir, 'shuffled-w.vtt'), false);
    expect(streamed.findings.map((finding) => finding.code)).toEqual(['cues_out_of_order']);
    expect(streamed.findings).toEqual(whole.findings);
    expect(streamed.report).toEqual(whole.report);
    expect(streamed.bytes?.toString('utf8')).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nfirst\n\n00:00:03.000 --> 00:00:04.000\nsecond\n\n00:00:05.000 --> 00:00:06.000\nthird\n\n');
    expect(streamed.bytes?.equals(whole.bytes as Buffer)).toBe(true);
  });

  it('under --strict, fails after printing the findings and leaves no output file behind', async () => {
    const input = join(root, 'srt', 'other-tools', 'webvttpy_missing_timeframe.srt');
    const output = join(dir, 'strict.vtt');
    const streamed = await convert(input, output, true, { strict: true });
    expect(streamed.error).toMatch(/^ANNOT_STRICT_FINDINGS .*nothing was written/);
    expect(streamed.findings.length).toBeGreaterThan(0);
    expect(streamed.bytes).toBeNull();
    expect(readdirSync(dir).filter((name) => name.includes('strict.vtt'))).toEqual([]);
    expect(streamed).toEqual({ ...(await convert(input, output, false, { strict: true })) });
  });

  it('keeps --tier: the tier named on import is the tier written', async () => {
    const input = join(root, 'webvtt', 'features.vtt');
    const streamed = await convert(input, join(dir, 'tier-s.srt'), true, { tier: 'speech' });
    const whole = await convert(input, join(dir, 'tier-w.srt'), false, { tier: 'speech' });
    expect(streamed.error).toBeNull();
    expect(streamed.report).toEqual(whole.report);
    expect(streamed.bytes?.equals(whole.bytes as Buffer)).toBe(true);
  });

  it('a reader error names the file and line, and leaves no output', async () => {
    const input = join(dir, 'garbage.srt');
    writeFileSync(input, 'this is not\na subtitle file\n');
    const output = join(dir, 'garbage.vtt');
    const streamed = await convert(input, output, true);
    expect(streamed.error).toBe(`ANNOT_FORMAT_PARSE ${input}:1:1: expected a sequence number or a timing line like "00:00:01,000 --> 00:00:02,000", found "this is not"`);
    expect(streamed.bytes).toBeNull();
    expect(readdirSync(dir).filter((name) => name.includes('garbage.vtt'))).toEqual([]);
  });
});

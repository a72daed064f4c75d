import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getAdapter } from '../../src/adapters/registry.js';
import { convertAsStream } from '../../src/service/convert-stream.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { tempDir } from '../support/sample-annot.js';
import { convertOutcome, FIXTURES, fixturesMatching, itStreamsAsTheWholeDocument } from './streamed-vs-whole.js';

/**
 * SubStation (ASS/SSA) and SBV stream like SRT (convert-stream.ts): their readers read as they
 * are consumed and their writers write cues as they come, so a conversion between them and SRT,
 * WebVTT or TextGrid goes from reader to writer without a store. It must write exactly what the
 * whole-document path writes, with the same report and findings: every ASS, SSA and SBV fixture
 * is converted to every text format both ways, and a few SRT and WebVTT files into ASS and SBV.
 */
const root = FIXTURES;
const convert = convertOutcome;

const SOURCES = [...fixturesMatching('ass', /\.(ass|ssa)$/), ...fixturesMatching('sbv', /\.sbv$/), join(root, 'talk.vtt'), ...fixturesMatching('srt/other-tools', /\.srt$/)];
const TARGETS = ['srt', 'vtt', 'ass', 'sbv', 'TextGrid'];

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

  itStreamsAsTheWholeDocument(SOURCES, TARGETS, () => dir);

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

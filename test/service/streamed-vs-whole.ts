import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding } from '../../src/adapters/finding.js';
import { convertFile, type ConvertReport } from '../../src/service/convert-file.js';

/**
 * What the streaming conversion tests compare (convert-stream.test.ts, convert-stream-subtitles.test.ts):
 * a conversion that streams (convert-stream.ts) must write exactly what the whole-document path
 * writes, report the same losses and findings, and fail the same way.
 */

export const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');

/** The files under fixtures/`dir` (and its sub-folders) whose names match, sorted. */
export function fixturesMatching(dir: string, pattern: RegExp): string[] {
  return readdirSync(join(FIXTURES, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => pattern.test(name))
    .map((name) => join(FIXTURES, dir, name))
    .sort();
}

export interface Outcome {
  bytes: Buffer | null;
  report: ConvertReport | null;
  error: string | null;
  findings: Finding[];
  warnings: string[];
}

/** One conversion, streamed or not, and everything it said and wrote. */
export async function convertOutcome(input: string, output: string, stream: boolean, extra: { tier?: string; strict?: boolean; variant?: string } = {}): Promise<Outcome> {
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

/** A test per source and target: the streamed conversion against the whole-document one, into `dir()`. */
export function itStreamsAsTheWholeDocument(sources: readonly string[], targets: readonly string[], dir: () => string): void {
  let n = 0;
  for (const source of sources) {
    for (const target of targets) {
      it(`${source.slice(FIXTURES.length + 1)} → ${target}: the same bytes, report, findings and errors as the whole-document path`, async () => {
        const i = n++;
        const streamed = await convertOutcome(source, join(dir(), `s${i}.${target}`), true);
        const whole = await convertOutcome(source, join(dir(), `w${i}.${target}`), false);
        expect(streamed.error).toEqual(whole.error);
        expect(streamed.findings).toEqual(whole.findings);
        expect(streamed.warnings).toEqual(whole.warnings);
        expect(streamed.report).toEqual(whole.report);
        expect(streamed.bytes === null).toBe(whole.bytes === null);
        if (streamed.bytes !== null && whole.bytes !== null) expect(streamed.bytes.equals(whole.bytes)).toBe(true);
      });
    }
  }
}

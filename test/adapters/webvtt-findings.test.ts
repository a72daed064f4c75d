import { join } from 'node:path';
import type { Finding } from '../../src/adapters/finding.js';
import { load as loadSrt } from '../../src/adapters/srt/codec.js';
import { load as loadVtt } from '../../src/adapters/webvtt/codec.js';
import type { Annotation } from '../../src/model/annotation.js';
import { RationalTime } from '../../src/time/rational-time.js';
import type { TimeInterval } from '../../src/time/time-interval.js';

/**
 * What the WebVTT and SRT readers report about the files in fixtures/validate/ (see
 * SOURCES.subtitles.md there): each finding with its code, severity, file and line, the cues they
 * still read, and how they read them.
 */

const folder = join(process.cwd(), 'fixtures', 'validate');

async function read(name: string): Promise<{ annotations: Annotation[]; findings: Finding[] }> {
  const findings: Finding[] = [];
  const load = name.endsWith('.srt') ? loadSrt : loadVtt;
  const document = await load(join(folder, name), { sourceName: name, now: RationalTime.now(1000), report: (finding) => findings.push(finding) });
  const annotations: Annotation[] = [];
  for await (const annotation of document.annotations) annotations.push(annotation);
  return { annotations, findings };
}

const ms = (annotation: Annotation): [number, number] => {
  const { start, end } = (annotation.reference as { interval: TimeInterval }).interval;
  return [(start.v * 1000) / start.r, (end.v * 1000) / end.r];
};
const brief = (finding: Finding): unknown => ({ code: finding.code, severity: finding.severity, file: finding.file, line: finding.location.line });

describe('findings of the WebVTT and SRT readers', () => {
  it.each(['end-before-start.vtt', 'end-before-start.srt'])('%s: an end before the start is an error at the cue, and the cue is kept as a point at its start', async (name) => {
    const { annotations, findings } = await read(name);
    expect(findings.map(brief)).toEqual([{ code: 'cue_end_before_start', severity: 'error', file: name, line: 6 }]);
    expect(findings[0].message).toMatch(/cue ends at 00:00:02[.,]000, before its start 00:00:05[.,]000; read as a point at its start/);
    expect(annotations.map(ms)).toEqual([[1000, 2000], [5000, 5000]]);
    expect(annotations[1].body).toMatchObject({ text: 'ends before it starts', written_end: name.endsWith('.srt') ? '00:00:02,000' : '00:00:02.000' });
  });

  it.each(['out-of-order.vtt', 'out-of-order.srt'])('%s: a cue that starts before the one above it is a warning, and both cues are kept', async (name) => {
    const { annotations, findings } = await read(name);
    expect(findings.map(brief)).toEqual([{ code: 'cues_out_of_order', severity: 'warning', file: name, line: 6 }]);
    expect(annotations.map(ms)).toEqual([[5000, 6000], [1000, 2000]]);
  });

  it("malformed.vtt (node-webvtt's): the text after the blank lines is a dropped block, reported at its line", async () => {
    const { annotations, findings } = await read('malformed.vtt');
    expect(annotations.map((a) => [ms(a), a.body.text, a.body.id])).toEqual([[[6313056, 6314390], '', '1096']]);
    expect(findings.map(brief)).toEqual([{ code: 'block_dropped', severity: 'warning', file: 'malformed.vtt', line: 8 }]);
    expect(findings[0].message).toMatch(/not a cue/);
  });

  it('invalid.srt: a timestamp without milliseconds is read, with a warning at its line', async () => {
    const { annotations, findings } = await read('invalid.srt');
    expect(annotations.map(ms)).toEqual([[1000, 10000], [11000, 12000]]);
    expect(findings.map(brief)).toEqual([{ code: 'timestamp_nonstandard', severity: 'warning', file: 'invalid.srt', line: 2 }]);
    expect(findings[0].message).toMatch(/read as 00:00:01,000 --> 00:00:10,000/);
  });

  it('reports a code at most 20 times, then how many more there were', async () => {
    const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'annot-findings-'));
    try {
      const cues = Array.from({ length: 30 }, (_, i) => `00:00:${String(40 - i).padStart(2, '0')}.000 --> 00:00:${String(41 - i).padStart(2, '0')}.000\ncue ${i}\n`);
      const path = join(dir, 'backwards.vtt');
      writeFileSync(path, `WEBVTT\n\n${cues.join('\n')}`);
      const findings: Finding[] = [];
      const document = await loadVtt(path, { sourceName: 'backwards.vtt', now: RationalTime.now(1000), report: (finding) => findings.push(finding) });
      for await (const annotation of document.annotations) void annotation;
      expect(findings.filter((f) => f.code === 'cues_out_of_order')).toHaveLength(21);
      expect(findings[20].message).toBe('9 more cues that start before the cue above them than the 20 reported (the first at this line)');
      expect(findings[20].location.line).toBe(6);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

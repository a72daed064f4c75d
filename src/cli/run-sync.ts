import { formatFinding } from '../adapters/finding.js';
import { UsageError } from '../errors/annot-error.js';
import type { SyncReport } from '../service/sync-subtitles.js';
import { fractionToDecimal } from '../time/decimal.js';
import { plural } from './finding-output.js';
import type { FlagValues } from './flag-specs.js';
import { notice, writeJson } from './output.js';
import type { SYNC_FLAGS } from './sync-flags.js';

/**
 * `annot sync SUBS MEDIA [OUT]` and `annot sync SUBS --reference OTHER [OUT]`: the estimate on
 * stderr (`offset +2.500 s, ratio 1, confidence 0.93`), or as JSON on stdout with `--json`; the
 * retimed file written to OUT when it is given and the alignment is clear. A low confidence is a
 * warning and writes nothing (exit 0); `--strict` makes it a failure (exit 1).
 */
export async function runSync(positionals: readonly string[], flags: FlagValues<typeof SYNC_FLAGS>): Promise<void> {
  const { subs, media, output } = placesOf(positionals, flags.reference);
  const maxOffsetSeconds = Number(flags['max-offset']);
  if (!(maxOffsetSeconds > 0) || !Number.isFinite(maxOffsetSeconds)) throw new UsageError(`--max-offset: expected a positive number of seconds, got ${JSON.stringify(flags['max-offset'])}`);
  const { syncSubtitles } = await import('../service/sync-subtitles.js');
  const report = await syncSubtitles({
    subs,
    media,
    reference: flags.reference,
    output,
    to: flags.to,
    read: { from: flags.from, rate: flags.rate, encoding: flags.encoding },
    maxOffsetSeconds,
    fixFramerate: flags['fix-framerate'],
    strict: flags.strict,
    strictTime: flags['strict-time'],
    report: (finding) => notice(formatFinding(finding)),
    warn: (message) => notice(`warning: ${message}`),
  });
  await printReport(report, subs, output);
  if (flags.json) writeJson(syncJson(report));
}

/** SUBS, MEDIA and OUT from the positional arguments: with --reference there is no MEDIA. */
function placesOf(positionals: readonly string[], reference: string | undefined): { subs: string; media?: string; output?: string } {
  const usage = reference === undefined ? 'annot sync SUBS MEDIA [OUT]' : 'annot sync SUBS --reference OTHER [OUT]';
  const most = reference === undefined ? 3 : 2;
  const least = reference === undefined ? 2 : 1;
  if (positionals.length < least || positionals.length > most) {
    throw new UsageError(`sync takes ${usage} (${plural(positionals.length, 'argument')} given)${reference === undefined && positionals.length === 1 ? '; give the media, or --reference OTHER' : ''}`);
  }
  const [subs, ...rest] = positionals;
  if (reference === undefined) return { subs, media: rest[0], output: rest[1] };
  return { subs, output: rest[0] };
}

async function printReport(report: SyncReport, subs: string, output: string | undefined): Promise<void> {
  const { describeOffset } = await import('../service/sync-subtitles.js');
  const { describeRatio } = await import('../sync/framerate-ratios.js');
  const { estimate } = report;
  notice(`offset ${describeOffset(estimate)}, ratio ${describeRatio(estimate.ratio)}, confidence ${estimate.confidence.toFixed(2)}`);
  if (report.lowConfidence) {
    notice(`warning: no clear alignment (confidence ${estimate.confidence.toFixed(2)}, under 0.5): ${subs} is left as it was${output === undefined ? '' : `, ${output} not written`} (--strict makes this a failure)`);
    return;
  }
  const written = report.written;
  if (written === null) {
    notice('nothing written: give OUT to write the retimed file');
    return;
  }
  for (const line of written.retimeFindings) notice(`warning: ${line}`);
  for (const { what, count } of written.dropped) notice(`${written.format} keeps no ${what}: dropped for ${plural(count, 'annotation')}`);
  notice(`wrote ${written.path} (${written.format}): ${plural(written.annotations, 'annotation')}`);
}

/** The report as JSON: exact values as strings (`"2.5"`, `"25/24"`) beside their numbers. */
function syncJson(report: SyncReport): Record<string, unknown> {
  const { estimate, written } = report;
  const { offset, ratio } = estimate;
  return {
    offset: fractionToDecimal(offset.num, offset.den),
    offset_seconds: Number(offset.num) / Number(offset.den),
    ratio: ratio.den === 1n ? String(ratio.num) : `${ratio.num}/${ratio.den}`,
    ratio_value: Number(ratio.num) / Number(ratio.den),
    confidence: estimate.confidence,
    low_confidence: report.lowConfidence,
    against: estimate.against,
    cues: estimate.cues,
    reference_seconds: estimate.referenceSeconds,
    speech_seconds: estimate.speechSeconds,
    ...(estimate.decodeSeconds === undefined ? {} : { decode_seconds: estimate.decodeSeconds }),
    align_seconds: estimate.alignSeconds,
    written: written === null ? null : { path: written.path, format: written.format, annotations: written.annotations, cut: written.counts.cut, dropped: written.counts.dropped, rounded: written.counts.rounded },
  };
}

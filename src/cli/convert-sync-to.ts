import { formatFinding } from '../adapters/finding.js';
import { UsageError } from '../errors/annot-error.js';
import type { RetimeMap } from '../time/retime.js';
import { notice } from './output.js';

/** What `--sync-to` needs of the conversion's flags. */
export interface SyncToRequest {
  /** The file being converted. */
  readonly input: string;
  /** The media whose speech the cues are aligned to. */
  readonly media: string;
  /** The input's reading options, as the conversion reads it. */
  readonly from?: string;
  readonly rate?: number;
  readonly encoding?: string;
  /** `--strict`: a low confidence refuses (ANNOT_SYNC_UNCERTAIN) instead of writing nothing. */
  readonly strict?: boolean;
}

/**
 * `annot convert IN OUT --sync-to MEDIA`: what `annot sync IN MEDIA` finds, as the retime the
 * conversion then applies, with the same line on stderr. A low confidence leaves everything as it
 * was, as `annot sync` does: a warning and null (nothing is written), or under `--strict` its error.
 */
export async function retimeSyncedTo(request: SyncToRequest): Promise<RetimeMap | null> {
  const [{ syncSubtitles, describeOffset }, { describeRatio }] = await Promise.all([import('../service/sync-subtitles.js'), import('../sync/framerate-ratios.js')]);
  const report = await syncSubtitles({
    subs: request.input,
    media: request.media,
    read: { from: request.from, rate: request.rate, encoding: request.encoding },
    strict: request.strict,
    report: (finding) => notice(formatFinding(finding)),
  });
  const { estimate } = report;
  notice(`${request.input}: synced to ${request.media}: offset ${describeOffset(estimate)}, ratio ${describeRatio(estimate.ratio)}, confidence ${estimate.confidence.toFixed(2)}`);
  if (!report.lowConfidence) return report.map;
  notice(`warning: no clear alignment (confidence ${estimate.confidence.toFixed(2)}, under 0.5): nothing written (--strict makes this a failure)`);
  return null;
}

/** `--sync-to` finds the whole retime itself, for one file: the flags it cannot go with. */
export function checkSyncToFlags(retimeGiven: boolean, batch: boolean): void {
  if (retimeGiven) throw new UsageError('--sync-to: it finds the offset and frame-rate ratio itself; leave out --shift, --fps-from, --fps-to, --scale, --sync and --within (or retime the synced output again)');
  if (batch) throw new UsageError('--sync-to: one media goes with one file (annot convert IN OUT --sync-to MEDIA); run it once for each file, not with --out-dir');
}

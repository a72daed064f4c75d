import type { RenderEvent } from '../render/events.js';
import type { SceneUnitResult } from '../render/render-scene.js';
import type { SceneJobReport } from '../render/scene-job.js';
import { notice, writeJsonLine, writeLine } from './output.js';
import type { RenderProgress } from './render-progress.js';

/**
 * What `annot render scene` shows while it renders: a progress bar on a terminal (notices held
 * until it is gone), one JSON line per finished unit on a pipe or with --json, or nothing but
 * the summary with --quiet. It counts what the summary says.
 */
export class SceneRenderView {
  private hits = 0;
  private skipped = 0;
  private readonly held: string[] = [];

  private constructor(
    private readonly quiet: boolean,
    private readonly jsonLines: boolean,
    private readonly progress: RenderProgress | undefined,
  ) {}

  static async open(options: { quiet: boolean; json: boolean; terminal: boolean; total: number }): Promise<SceneRenderView> {
    const jsonLines = !options.quiet && (options.json || !options.terminal);
    const progress = jsonLines || options.quiet ? undefined : await (await import('./render-progress.js')).renderProgress(options.total);
    return new SceneRenderView(options.quiet, jsonLines, progress);
  }

  /** A notice for the user: now, or after the progress bar when one is drawn. */
  readonly say = (text: string): void => {
    if (this.quiet) return;
    if (this.progress) this.held.push(text);
    else notice(`annot: ${text}`);
  };

  readonly event = (event: RenderEvent): void => {
    if (event.type === 'notice' && event.message) this.say(event.message);
    this.progress?.event(event);
  };

  readonly unit = async ({ kind, id, result }: SceneUnitResult): Promise<void> => {
    if ('skipped' in result) this.skipped++;
    else if (result.cache_hit) this.hits++;
    if (this.jsonLines) await writeJsonLine({ unit: kind, id, ...result });
    else this.progress?.finished({ unit: kind, id, cacheHit: result.cache_hit });
  };

  /** The bar goes; the notices it held are printed. */
  stop(): void {
    this.progress?.stop();
    for (const text of this.held.splice(0)) notice(`annot: ${text}`);
  }

  /** After a render that was not interrupted: the failed units as JSON lines, then the one-line summary. */
  async finish(report: SceneJobReport, title: string, provider: string, seconds: string): Promise<void> {
    const { outcome } = report;
    if (this.jsonLines) {
      for (const f of outcome.manifest.failures ?? []) await writeJsonLine({ unit: f.unit, id: f.id, failed: true, error: f.error, code: f.code });
    }
    const done = outcome.finished.length;
    const total = done + outcome.failures.length + outcome.notStarted;
    const summary =
      `${title || 'scene'}: ${done} of ${total} units in ${seconds} s — ${done - this.hits - this.skipped} rendered, ${this.hits} cached, ${this.skipped} skipped, ${outcome.failures.length} failed` +
      `${outcome.notStarted > 0 ? `, ${outcome.notStarted} not started` : ''} (${provider}); manifest ${report.manifestPath}${report.manifestWritten ? '' : ' (unchanged)'}` +
      outputsText(report) +
      remoteText(report);
    if (this.jsonLines) notice(summary);
    else writeLine(summary);
  }
}

/** What the shared cache did: units pulled from it and shared to it, or why it was left alone. */
function remoteText({ remote }: SceneJobReport): string {
  if (!remote) return '';
  const { stats } = remote;
  const mode = remote.mode === 'read' ? ', read-only' : '';
  const state = remote.unavailable ? 'unavailable, not used' : `${stats.hits} units pulled (${stats.bytes_pulled} bytes), ${stats.entries_written} shared`;
  return `; shared cache ${remote.url}${mode}: ${state}`;
}

function outputsText({ outputs }: SceneJobReport): string {
  const unchanged = (written: boolean) => (written ? '' : ' (unchanged)');
  const parts: string[] = [];
  if (outputs.assets) parts.push(`${outputs.assets.count} assets in ${outputs.assets.dir}`);
  if (outputs.animatic) parts.push(`animatic ${outputs.animatic.path} (${outputs.animatic.duration.toFixed(2)} s)${unchanged(outputs.animatic.written)}`);
  if (outputs.timeline) parts.push(`timeline ${outputs.timeline.path}${unchanged(outputs.timeline.written)}`);
  if (outputs.storyboard) parts.push(`storyboard ${outputs.storyboard.path}${unchanged(outputs.storyboard.written)}`);
  return parts.length > 0 ? `; ${parts.join('; ')}` : '';
}

import { formatFinding } from '../adapters/finding.js';
import type { FlagValues } from './flag-specs.js';
import { parseHold } from './hold-flag.js';
import { notice, stdoutIsTerminal } from './output.js';
import { exitNow } from './process-guards.js';
import type { RENDER_SCENE_FLAGS } from './render-scene-flags.js';

/** Exit status after Ctrl-C: 128 + SIGINT, as shells report it. */
const EXIT_INTERRUPTED = 130;

/**
 * `annot render scene SCENE` as both the oclif command and the start-up fast path run it: the
 * scene job (src/render/scene-job.ts) prepared from the flags, its units rendered with the
 * progress view, the first Ctrl-C stopping new work and a second one exiting at once.
 */
export async function runRenderScene(sceneFile: string, flags: FlagValues<typeof RENDER_SCENE_FLAGS>): Promise<void> {
  const started = Date.now();
  const [{ SceneJob }, { SceneRenderView }] = await Promise.all([import('../render/scene-job.js'), import('./scene-render-view.js')]);
  const quiet = flags.quiet ?? false;
  const job = await SceneJob.prepare(
    {
      sceneFile,
      provider: flags.provider,
      ttsQuality: flags['tts-quality'],
      lipsyncQuality: flags['lipsync-quality'],
      shotQuality: flags['shot-quality'],
      shotsAsVideo: flags['shots-as-video'],
      force: flags.force,
      concurrency: flags.concurrency,
      keepGoing: flags['keep-going'],
      manifest: flags.manifest,
      out: flags.out,
      timeline: flags.timeline,
      storyboard: flags.storyboard,
      animatic: flags.animatic,
      hold: parseHold(flags.hold),
      strict: flags.strict,
      remoteCache: flags['remote-cache'],
      remoteCacheMode: flags['remote-cache-mode'],
      queue: flags.queue ? { redisUrl: flags.redis, queueName: flags['queue-name'] } : undefined,
    },
    {
      notice: (text) => !quiet && notice(`annot: ${text}`),
      // The scene's findings, as `annot validate` prints them (with --quiet only when --strict refuses on them).
      finding: (finding) => (!quiet || flags.strict) && notice(formatFinding(finding)),
    },
  );
  const view = await SceneRenderView.open({ quiet, json: flags.json ?? false, terminal: stdoutIsTerminal(), total: job.unitCount });
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) exitNow(EXIT_INTERRUPTED);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  let report;
  try {
    report = await job.run({ signal: controller.signal, onEvent: view.event, onUnit: view.unit }, { notice: (text) => notice(`annot: ${text}`) });
  } finally {
    process.off('SIGINT', onSigint);
    view.stop();
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (report.interrupted) {
    const farm = flags.queue ? ' Units no other caller waits for were taken off the render queue, or stopped on their workers.' : '';
    notice(`annot: interrupted after ${seconds} s: ${report.outcome.finished.length} of ${job.unitCount} units finished and are cached; queued model requests were cancelled, running ones are collected by the next run.${farm} Run the same command again to resume. The manifest was not written.`);
    // An exit code rather than process.exit(): the JSON lines already written must drain to the pipe.
    process.exitCode = EXIT_INTERRUPTED;
    return;
  }
  await view.finish(report, job.scene.title, job.renderedBy, seconds);
  if (report.outcome.error) throw report.outcome.error;
}

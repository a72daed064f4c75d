import { Args } from '@oclif/core';
import { AnnotCommand } from '../../src/cli/base-command.js';
import { formatFinding } from '../../src/adapters/finding.js';
import { exitNow } from '../../src/cli/process-guards.js';
import { notice, stdoutIsTerminal } from '../../src/cli/output.js';
import { parseHold } from '../../src/cli/hold-flag.js';
import { oclifFlags } from '../../src/cli/oclif-flags.js';
import { RENDER_SCENE_FLAGS } from '../../src/cli/render-scene-flags.js';

/** Exit status after Ctrl-C: 128 + SIGINT, as shells report it. */
const EXIT_INTERRUPTED = 130;

export default class RenderScene extends AnnotCommand {
  static override description =
    'Render every shot and beat of a scene file, after printing what `annot validate` finds in it, streaming progress (a progress bar on a terminal, one JSON line per finished unit otherwise), then write the manifest. Unchanged units come from the cache. Exit 0 when all rendered or skipped, 1 when a unit failed, the scene file is invalid or --strict refused its findings, 2 on usage errors, 130 after Ctrl-C (finished units stay cached)';
  static override examples = [
    '<%= config.bin %> render scene fixtures/scenes/lighthouse.yaml',
    '<%= config.bin %> render scene scene.yaml --provider local --out build --timeline build/scene.vtt --storyboard build/scene.html',
    '<%= config.bin %> render scene scene.yaml --concurrency 8 --keep-going --json > units.jsonl',
  ];
  static override args = {
    scene: Args.string({ description: 'scene file (.yaml or .json)', required: true }),
  };
  static override flags = oclifFlags(RENDER_SCENE_FLAGS);

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RenderScene);
    const started = Date.now();
    const [{ SceneJob }, { SceneRenderView }] = await Promise.all([import('../../src/render/scene-job.js'), import('../../src/cli/scene-render-view.js')]);
    const quiet = flags.quiet;
    const job = await SceneJob.prepare(
      {
        sceneFile: args.scene,
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
      },
      {
        notice: (text) => !quiet && notice(`annot: ${text}`),
        // The scene's findings, as `annot validate` prints them (with --quiet only when --strict refuses on them).
        finding: (finding) => (!quiet || flags.strict) && notice(formatFinding(finding)),
      },
    );
    const view = await SceneRenderView.open({ quiet, json: flags.json, terminal: stdoutIsTerminal(), total: job.unitCount });
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
      notice(`annot: interrupted after ${seconds} s: ${report.outcome.finished.length} of ${job.unitCount} units finished and are cached; queued model requests were cancelled, running ones are collected by the next run. Run the same command again to resume. The manifest was not written.`);
      // An exit code rather than this.exit(): the JSON lines already written must drain to the pipe.
      process.exitCode = EXIT_INTERRUPTED;
      return;
    }
    await view.finish(report, job.scene.title, job.provider.name, seconds);
    if (report.outcome.error) throw report.outcome.error;
  }
}

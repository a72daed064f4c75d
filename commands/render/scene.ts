import { Args, Flags } from '@oclif/core';
import { AnnotCommand } from '../../src/cli/base-command.js';
import { exitNow } from '../../src/cli/process-guards.js';
import { notice, stdoutIsTerminal, writeJsonLine, writeLine } from '../../src/cli/output.js';
import { holdFlag, parseHold } from '../../src/cli/hold-flag.js';
import { forceFlag, providerFlag, sceneQualityFlags } from '../../src/cli/render-flags.js';

/** Exit status after Ctrl-C: 128 + SIGINT, as shells report it. */
const EXIT_INTERRUPTED = 130;

export default class RenderScene extends AnnotCommand {
  static override description =
    'Render every shot and beat of a scene file, streaming progress (a progress bar on a terminal, one JSON line per finished unit otherwise), then write the manifest. Unchanged units come from the cache. Exit 0 when all rendered or skipped, 1 when a unit failed or the scene file is invalid, 2 on usage errors, 130 after Ctrl-C (finished units stay cached)';
  static override examples = [
    '<%= config.bin %> render scene fixtures/scenes/lighthouse.yaml',
    '<%= config.bin %> render scene scene.yaml --provider local --out build --timeline build/scene.vtt --storyboard build/scene.html',
    '<%= config.bin %> render scene scene.yaml --concurrency 8 --keep-going --json > units.jsonl',
  ];
  static override args = {
    scene: Args.string({ description: 'scene file (.yaml or .json)', required: true }),
  };
  static override flags = {
    ...sceneQualityFlags,
    'shots-as-video': Flags.boolean({ description: 'make a short clip from each still' }),
    force: forceFlag,
    concurrency: Flags.integer({ description: 'units rendered at once (1: serial, shots then beats in scene order)', min: 1, default: 1 }),
    provider: providerFlag,
    manifest: Flags.string({
      description:
        'manifest path (default: DIR/<title>.manifest.json with --out DIR, else <cache dir>/scenes/<title>.manifest.json); rewritten only when its content changes, refused when it belongs to another scene file',
    }),
    out: Flags.string({ description: 'place the final assets in DIR/<title>/ as shot-<id>.png, beat-<id>.mp4 (copies, reflinked where the file system can; never links into the cache)' }),
    quiet: Flags.boolean({ char: 'q', description: 'print only the one-line summary (and errors)' }),
    'keep-going': Flags.boolean({ description: 'after a failed unit, render all the others instead of stopping new work' }),
    json: Flags.boolean({ description: 'one JSON line per finished unit on stdout even on a terminal' }),
    timeline: Flags.string({ description: 'also write the scene as a timeline (.vtt, .srt, .otio, .annot, .eaf, ...): lines, speakers and shots tiers' }),
    storyboard: Flags.string({ description: 'also write a self-contained HTML storyboard page' }),
    animatic: Flags.string({ description: 'also assemble the scene into one H.264/AAC mp4 (talking videos, or stills with the speech; lines as a mov_text track and a sidecar .vtt); rebuilt only when its media change' }),
    hold: holdFlag,
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RenderScene);
    const started = Date.now();
    const [{ loadSceneFile }, { chooseProvider }, { runScene }, { manifestPathFor }, { writeManifest, placeAssets, checkManifestScene, manifestSceneOf, touchIfOlder }] = await Promise.all([
      import('../../src/render/scene.js'),
      import('../../src/render/provider-choice.js'),
      import('../../src/render/scene-run.js'),
      import('../../src/render/manifest.js'),
      import('../../src/render/output-files.js'),
    ]);
    const hold = parseHold(flags.hold);
    const scene = await loadSceneFile(args.scene);
    const manifestPath = flags.manifest ?? manifestPathFor(scene, flags.out);
    checkManifestScene(manifestPath, args.scene);
    const quiet = flags.quiet;
    if (flags.timeline) {
      // A timeline name no format claims is a mistake to report before anything is rendered.
      const [{ inferFormat }, { registerBuiltinFormats }] = await Promise.all([import('../../src/adapters/registry.js'), import('../../src/adapters/builtin.js')]);
      registerBuiltinFormats();
      inferFormat({ path: flags.timeline });
    }
    const provider = chooseProvider(flags.provider, { notice: (text) => !quiet && notice(`annot: ${text}`) });
    const jsonLines = !quiet && (flags.json || !stdoutIsTerminal());
    const total = scene.shots.length + scene.beats.length;
    const progress = jsonLines || quiet ? undefined : await (await import('../../src/cli/render-progress.js')).renderProgress(total);
    const heldNotices: string[] = [];
    const say = (text: string) => (quiet ? undefined : progress ? heldNotices.push(text) : notice(`annot: ${text}`));

    const controller = new AbortController();
    const onSigint = () => {
      if (controller.signal.aborted) exitNow(EXIT_INTERRUPTED);
      controller.abort();
    };
    process.on('SIGINT', onSigint);
    let hits = 0;
    let skipped = 0;
    let outcome;
    try {
      outcome = await runScene(
        scene,
        {
          provider,
          ttsQuality: flags['tts-quality'],
          lipsyncQuality: flags['lipsync-quality'],
          shotQuality: flags['shot-quality'],
          shotsAsVideo: flags['shots-as-video'],
          force: flags.force,
          concurrency: flags.concurrency,
          keepGoing: flags['keep-going'],
          durableAssets: true,
          signal: controller.signal,
          onEvent: (event) => {
            if (event.type === 'notice' && event.message) say(event.message);
            progress?.event(event);
          },
        },
        async ({ unit, id, result }) => {
          if ('skipped' in result) skipped++;
          else if (result.cache_hit) hits++;
          if (jsonLines) await writeJsonLine({ unit, id, ...result });
          else progress?.finished({ unit, id, cacheHit: result.cache_hit });
        },
      );
    } finally {
      process.off('SIGINT', onSigint);
      progress?.stop();
      for (const text of heldNotices) notice(`annot: ${text}`);
    }
    const { failures } = outcome;
    // The layout (prompts, lines, beats' shots) lets the derived files be built from the manifest alone.
    const { sceneLayout } = await import('../../src/render/scene-layout.js');
    const manifest = { ...outcome.manifest, layout: sceneLayout(scene) };
    const interrupted = controller.signal.aborted;
    if (jsonLines && !interrupted) for (const f of failures) await writeJsonLine({ unit: f.unit, id: f.id, failed: true, error: f.error, code: f.code });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const done = outcome.finished.length;
    if (interrupted) {
      notice(`annot: interrupted after ${seconds} s: ${done} of ${total} units finished and are cached; queued model requests were cancelled, running ones are collected by the next run. Run the same command again to resume. The manifest was not written.`);
      // An exit code rather than this.exit(): the JSON lines already written must drain to the pipe.
      process.exitCode = EXIT_INTERRUPTED;
      return;
    }

    const written = await writeManifest(manifestPath, manifest, manifestSceneOf(manifestPath, args.scene));
    const extras: string[] = [];
    if (failures.length === 0) {
      // Unchanged but older than the scene (which was touched): newer now, so make is satisfied.
      if (!written) touchIfOlder(manifestPath, [args.scene]);
      if (flags.out) extras.push(`${(await placeAssets(manifest, flags.out)).length} assets in ${flags.out}`);
      if (flags.animatic) {
        const { writeAnimatic } = await import('../../src/render/animatic.js');
        const a = await writeAnimatic(manifest, flags.animatic, { hold, signal: controller.signal });
        if (!a.written) touchIfOlder(flags.animatic, [manifestPath, args.scene]);
        extras.push(`animatic ${flags.animatic} (${a.duration.toFixed(2)} s)${a.written ? '' : ' (unchanged)'}`);
      }
      if (flags.timeline) {
        const { writeTimeline } = await import('../../src/render/timeline.js');
        const t = await writeTimeline(scene, manifest, flags.timeline, (m) => notice(`annot: ${m}`), { hold, animatic: flags.animatic });
        if (!t.written) touchIfOlder(flags.timeline, [manifestPath, args.scene]);
        extras.push(`timeline ${flags.timeline}${t.written ? '' : ' (unchanged)'}`);
      }
      if (flags.storyboard) {
        const { writeStoryboard } = await import('../../src/render/storyboard.js');
        const w = await writeStoryboard(scene, manifest, flags.storyboard);
        if (!w) touchIfOlder(flags.storyboard, [manifestPath, args.scene]);
        extras.push(`storyboard ${flags.storyboard}${w ? '' : ' (unchanged)'}`);
      }
    }
    const rendered = done - hits - skipped;
    const summary =
      `${scene.title || 'scene'}: ${done} of ${total} units in ${seconds} s — ${rendered} rendered, ${hits} cached, ${skipped} skipped, ${failures.length} failed` +
      `${outcome.notStarted > 0 ? `, ${outcome.notStarted} not started` : ''} (${provider.name}); manifest ${manifestPath}${written ? '' : ' (unchanged)'}` +
      `${extras.length > 0 ? `; ${extras.join('; ')}` : ''}`;
    if (jsonLines) notice(summary);
    else writeLine(summary);
    if (outcome.error) throw outcome.error;
  }
}

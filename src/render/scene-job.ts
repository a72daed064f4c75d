import { readFile } from 'node:fs/promises';
import type { Finding } from '../adapters/finding.js';
import { ACTION_ONLY_SKIP, isActionOnly } from './action-only.js';
import { SceneFindingsError } from './errors.js';
import type { RenderEvent } from './events.js';
import { manifestPathFor, type SceneManifest } from './manifest.js';
import { checkManifestScene, manifestSceneOf, placeAssets, touchIfOlder, writeManifest } from './output-files.js';
import { animaticSubtitlesPath, checkDistinctOutputs } from './output-paths.js';
import type { RenderFarmClient } from './farm/farm-client.js';
import type { FarmProvider } from './farm/unit-job.js';
import { chooseProvider } from './provider-choice.js';
import type { Provider } from './providers/provider.js';
import type { RemoteCache, RemoteCacheStats } from './remote/remote-cache.js';
import { runScene, type SceneRunOutcome, type SceneUnitResult } from './render-scene.js';
import { sceneLayout } from './scene-layout.js';
import { sceneFindings } from './scene-validation.js';
import { parseSceneText, type Scene } from './scene.js';

/** What `annot render scene` was asked to do, flags already read. */
export interface SceneJobRequest {
  sceneFile: string;
  /** auto, fal or local (see chooseProvider). */
  provider: string;
  ttsQuality?: string;
  lipsyncQuality?: string;
  shotQuality?: string;
  shotsAsVideo?: boolean;
  force?: boolean;
  concurrency?: number;
  keepGoing?: boolean;
  /** Default: manifestPathFor(scene, out). */
  manifest?: string;
  /** Place the final assets in DIR/<title>/. */
  out?: string;
  timeline?: string;
  storyboard?: string;
  animatic?: string;
  /** Seconds a shot without beats is shown (animatic, timelines). */
  hold: number;
  /** Refuse a scene with findings (errors or warnings), as `annot validate --strict` fails it. */
  strict?: boolean;
  /** The shared cache, `s3://BUCKET/PREFIX` (see remote/open-remote-cache.ts). */
  remoteCache?: string;
  /** `readwrite` (default) or `read`. */
  remoteCacheMode?: string;
  /** Send the units to the render workers through this queue instead of rendering here. */
  queue?: { redisUrl?: string; queueName?: string };
}

export interface SceneJobHooks {
  /** Something the user should know: which provider, content a timeline format drops. */
  notice?: (text: string) => void;
  /** Each finding of the scene (what `annot validate` reports), before anything is rendered. */
  finding?: (finding: Finding) => void;
}

export interface SceneJobControls {
  signal: AbortSignal;
  onEvent?: (event: RenderEvent) => void;
  /** Each unit as it finishes (an action-only beat already marked skipped). */
  onUnit?: (unit: SceneUnitResult) => void | Promise<void>;
}

/** The derived files written after a render with no failure; absent when not asked for. */
export interface SceneOutputs {
  assets?: { dir: string; count: number };
  animatic?: { path: string; duration: number; written: boolean };
  timeline?: { path: string; written: boolean };
  storyboard?: { path: string; written: boolean };
}

export interface SceneJobReport {
  outcome: SceneRunOutcome;
  /** What the shared cache did in this run, when there is one. */
  remote?: { url: string; mode: string; stats: RemoteCacheStats; unavailable?: string };
  /** Ctrl-C: the manifest and the derived files were not written. */
  interrupted: boolean;
  manifestPath: string;
  manifestWritten: boolean;
  outputs: SceneOutputs;
}

/**
 * One `annot render scene`: everything that can be refused is checked first (the scene file, its
 * findings under --strict, the manifest of another scene, a timeline format, two outputs on one
 * path, a provider without its key), so nothing is rendered or paid for a render that cannot
 * finish; then the units are rendered, the manifest written once, and the derived files after it.
 */
export class SceneJob {
  private constructor(
    readonly request: SceneJobRequest,
    readonly scene: Scene,
    readonly findings: readonly Finding[],
    readonly manifestPath: string,
    readonly provider: Provider,
    private readonly tiers: RenderTiers,
  ) {}

  static async prepare(request: SceneJobRequest, hooks: SceneJobHooks = {}): Promise<SceneJob> {
    const text = await readFile(request.sceneFile, 'utf8');
    const scene = parseSceneText(text, request.sceneFile);
    const findings = sceneFindings(scene, text, request.sceneFile);
    for (const finding of findings) hooks.finding?.(finding);
    if (request.strict && findings.length > 0) {
      const errors = findings.filter((finding) => finding.severity === 'error').length;
      throw new SceneFindingsError(request.sceneFile, errors, findings.length - errors);
    }
    const manifestPath = request.manifest ?? manifestPathFor(scene, request.out);
    checkDistinctOutputs(request.sceneFile, [
      { flag: '--manifest', path: manifestPath },
      { flag: '--animatic', path: request.animatic },
      { flag: 'the subtitles beside --animatic', path: request.animatic === undefined ? undefined : animaticSubtitlesPath(request.animatic) },
      { flag: '--timeline', path: request.timeline },
      { flag: '--storyboard', path: request.storyboard },
    ]);
    checkManifestScene(manifestPath, request.sceneFile);
    if (request.timeline) await checkTimelineFormat(request.timeline);
    const tiers = await openRenderTiers(request, hooks);
    return new SceneJob(request, scene, findings, manifestPath, tiers.provider, tiers);
  }

  get unitCount(): number {
    return this.scene.shots.length + this.scene.beats.length;
  }

  /** Who renders: the provider, here or on the render workers. */
  get renderedBy(): string {
    return this.tiers.farm ? `${this.provider.name} on the render workers of queue "${this.tiers.farm.queueName}"` : this.provider.name;
  }

  async run(controls: SceneJobControls, hooks: SceneJobHooks = {}): Promise<SceneJobReport> {
    try {
      return await this.render(controls, hooks);
    } finally {
      await this.tiers.close();
    }
  }

  private async render(controls: SceneJobControls, hooks: SceneJobHooks): Promise<SceneJobReport> {
    const { request, scene } = this;
    const actionOnly = new Set(scene.beats.filter(isActionOnly).map((beat) => beat.id));
    controls.signal.addEventListener('abort', () => this.tiers.abort.abort(), { once: true });
    const outcome = await runScene(
      scene,
      {
        provider: this.provider,
        ttsQuality: request.ttsQuality,
        lipsyncQuality: request.lipsyncQuality,
        shotQuality: request.shotQuality,
        shotsAsVideo: request.shotsAsVideo,
        force: request.force,
        // On the workers, every unit is sent at once: each worker's own --concurrency sets the pace.
        concurrency: this.tiers.farm ? Math.max(1, this.unitCount) : request.concurrency,
        keepGoing: request.keepGoing,
        durableAssets: true,
        remoteCache: this.tiers.remote,
        executor: this.tiers.farm,
        signal: controls.signal,
        onEvent: controls.onEvent,
      },
      async (unit) => {
        // The description's result for a beat with an action and no line is an empty one; the CLI says why.
        if (unit.kind === 'beat' && !('skipped' in unit.result) && actionOnly.has(unit.id)) Object.assign(unit.result, { skipped: ACTION_ONLY_SKIP });
        await controls.onUnit?.(unit);
      },
    );
    const report: SceneJobReport = { outcome, interrupted: controls.signal.aborted, manifestPath: this.manifestPath, manifestWritten: false, outputs: {} };
    const remote = this.tiers.remote;
    if (remote) report.remote = { url: remote.url, mode: remote.mode, stats: remote.stats, unavailable: remote.unavailableBecause };
    if (report.interrupted) return report;
    // The layout (prompts, lines, beats' shots) lets the derived files be built from the manifest alone.
    const manifest = { ...outcome.manifest, layout: sceneLayout(scene) };
    report.manifestWritten = await writeManifest(this.manifestPath, manifest, manifestSceneOf(this.manifestPath, request.sceneFile));
    if (outcome.failures.length > 0) return report;
    // Unchanged but older than the scene (which was touched): newer now, so make is satisfied.
    if (!report.manifestWritten) touchIfOlder(this.manifestPath, [request.sceneFile]);
    report.outputs = await this.writeOutputs(manifest, controls.signal, hooks);
    return report;
  }

  /** The derived files asked for, each left alone (made newer than its inputs) when unchanged. */
  private async writeOutputs(manifest: SceneManifest, signal: AbortSignal, hooks: SceneJobHooks): Promise<SceneOutputs> {
    const { request, scene } = this;
    const inputs = [this.manifestPath, request.sceneFile];
    const outputs: SceneOutputs = {};
    if (request.out) {
      outputs.assets = { dir: request.out, count: (await placeAssets(manifest, request.out)).length };
    }
    if (request.animatic) {
      const { writeAnimatic } = await import('./animatic.js');
      const a = await writeAnimatic(manifest, request.animatic, { hold: request.hold, signal });
      if (!a.written) touchIfOlder(request.animatic, inputs);
      outputs.animatic = { path: request.animatic, duration: a.duration, written: a.written };
    }
    if (request.timeline) {
      const { writeTimeline } = await import('./timeline.js');
      const t = await writeTimeline(scene, manifest, request.timeline, (message) => hooks.notice?.(message), { hold: request.hold, animatic: request.animatic });
      if (!t.written) touchIfOlder(request.timeline, inputs);
      outputs.timeline = { path: request.timeline, written: t.written };
    }
    if (request.storyboard) {
      const { writeStoryboard } = await import('./storyboard.js');
      const written = await writeStoryboard(scene, manifest, request.storyboard);
      if (!written) touchIfOlder(request.storyboard, inputs);
      outputs.storyboard = { path: request.storyboard, written };
    }
    return outputs;
  }
}

/** The provider, the shared cache and the render workers of one render, opened before anything is rendered. */
export interface RenderTiers {
  provider: Provider;
  remote?: RemoteCache;
  farm?: RenderFarmClient;
  /** Ctrl-C of the render, for the workers' client (opened before the render's own signal exists). */
  abort: AbortController;
  close(): Promise<void>;
}

/**
 * The tiers a render asks for, each refused before anything is rendered when it cannot be used
 * (an s3:// URL that is not one, a Redis that does not answer). With a queue the caller needs no
 * key: `auto` means fal there, rendered with the workers' own keys.
 */
export async function openRenderTiers(
  request: { provider: string; remoteCache?: string; remoteCacheMode?: string; queue?: { redisUrl?: string; queueName?: string } },
  hooks: { notice?: (text: string) => void } = {},
): Promise<RenderTiers> {
  const choice = request.queue && request.provider === 'auto' ? 'fal' : request.provider;
  const provider = chooseProvider(choice, { notice: hooks.notice, requireKey: !request.queue });
  const abort = new AbortController();
  let remote: RemoteCache | undefined;
  let farm: RenderFarmClient | undefined;
  const close = async () => {
    await farm?.close();
    remote?.close();
  };
  try {
    if (request.remoteCache) remote = await (await import('./remote/open-remote-cache.js')).openRemoteCache(request.remoteCache, { mode: request.remoteCacheMode });
    if (request.queue) {
      const { RenderFarmClient } = await import('./farm/farm-client.js');
      farm = await RenderFarmClient.open({ ...request.queue, provider: choice as FarmProvider, remoteCache: remote, signal: abort.signal });
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { provider, remote, farm, abort, close };
}

/** A timeline name no format claims is a mistake to report before anything is rendered. */
async function checkTimelineFormat(path: string): Promise<void> {
  const { inferFormat } = await import('../adapters/registry.js');
  inferFormat({ path });
}

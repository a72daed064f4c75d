import { InvalidInputError } from '../errors/annot-error.js';
import type { FlagValues } from './flag-specs.js';
import { parseHold } from './hold-flag.js';
import { writeLine } from './output.js';
import type { RENDER_TIMELINE_FLAGS } from './render-timeline-flags.js';

/**
 * `annot render timeline PATH --manifest M` as both the oclif command and the start-up fast path
 * run it: the timeline written from the manifest alone, rewritten only when it changes.
 */
export async function runRenderTimeline(path: string, flags: FlagValues<typeof RENDER_TIMELINE_FLAGS>): Promise<void> {
  const hold = parseHold(flags.hold);
  const [{ readManifestFile }, { isLinkedTimeline, writeLinkedTimeline }, { touchIfOlder }] = await Promise.all([
    import('../render/manifest-file.js'),
    import('../render/timeline.js'),
    import('../render/output-files.js'),
  ]);
  if (!isLinkedTimeline(path)) throw new InvalidInputError(`${path}: expected a timeline name ending in .otio, .eaf or .vtt`);
  const manifest = readManifestFile(flags.manifest);
  const t = await writeLinkedTimeline(manifest, path, { hold, animatic: flags.animatic });
  // Unchanged, but older than its inputs: newer now, so a make rule on them is satisfied.
  if (!t.written) touchIfOlder(path, flags.animatic ? [flags.manifest, flags.animatic] : [flags.manifest]);
  writeLine(`timeline ${path} (${t.format})${t.written ? '' : ' (unchanged)'}`);
}

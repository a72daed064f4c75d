import { existsSync, statSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { InvalidInputError } from '../../errors/annot-error.js';
import type { AnnotationStore } from '../../store/store.js';
import { MEDIA_EXTENSIONS } from '../routes/media.js';

/** The file the page plays and why that one: `--media`, the annotations' own asset, or the served file's namesake. */
export interface MediaChoice {
  readonly path: string;
  readonly origin: 'flag' | 'asset' | 'same-name';
}

/**
 * The media file the timeline page plays: `--media` when given (it must be a readable file),
 * else the asset the first annotation refers to, when that names a local file (absolute, or
 * relative to the served file's folder or the working directory), else a media file beside the
 * served file with the same name (`talk.vtt` plays `talk.mp4`), as video players pick up the
 * subtitles named like the video. Decided once at start-up by whoever runs the server, so a
 * client cannot make the server read a file by naming it as an asset.
 */
export async function mediaSource(store: AnnotationStore, flag: string | undefined, servedFile: string | undefined): Promise<MediaChoice | undefined> {
  if (flag !== undefined) {
    const path = resolve(flag);
    if (!isFile(path)) throw new InvalidInputError(`--media ${flag}: no such file`);
    return { path, origin: 'flag' };
  }
  const asset = await ownAsset(store, servedFile);
  if (asset !== undefined) return { path: asset, origin: 'asset' };
  const namesake = servedFile === undefined ? undefined : sameNameMedia(servedFile);
  return namesake === undefined ? undefined : { path: namesake, origin: 'same-name' };
}

async function ownAsset(store: AnnotationStore, servedFile: string | undefined): Promise<string | undefined> {
  for await (const annotation of store.all()) {
    if (annotation.reference.kind !== 'media') continue;
    const asset = annotation.reference.asset_id.replace(/^file:\/\//, '');
    const candidates = isAbsolute(asset) ? [asset] : [...(servedFile ? [resolve(dirname(servedFile), asset)] : []), resolve(asset)];
    return candidates.find(isFile);
  }
  return undefined;
}

/** `talk.mp4` (or `.webm`, `.wav`...: video first) beside `talk.vtt`. */
function sameNameMedia(servedFile: string): string | undefined {
  const stem = basename(servedFile, extname(servedFile));
  return MEDIA_EXTENSIONS.map((extension) => resolve(join(dirname(servedFile), stem + extension))).find(isFile);
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

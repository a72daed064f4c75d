import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { InvalidInputError } from '../../errors/annot-error.js';
import type { AnnotationStore } from '../../store/store.js';

/**
 * The media file the timeline page plays: `--media` when given (it must be a readable file),
 * else the asset the first annotation refers to, when that names a local file (absolute, or
 * relative to the .annot file's folder or the working directory). Decided once at start-up by
 * whoever runs the server, so a client cannot make the server read a file by naming it as an asset.
 */
export async function mediaSource(store: AnnotationStore, flag: string | undefined, annotFile: string | undefined): Promise<string | undefined> {
  if (flag !== undefined) {
    const path = resolve(flag);
    if (!existsSync(path) || !statSync(path).isFile()) throw new InvalidInputError(`--media ${flag}: no such file`);
    return path;
  }
  for await (const annotation of store.all()) {
    if (annotation.reference.kind !== 'media') continue;
    const asset = annotation.reference.asset_id.replace(/^file:\/\//, '');
    const candidates = isAbsolute(asset) ? [asset] : [...(annotFile ? [resolve(dirname(annotFile), asset)] : []), resolve(asset)];
    return candidates.find((path) => existsSync(path) && statSync(path).isFile());
  }
  return undefined;
}

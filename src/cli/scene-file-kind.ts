import { readFileSync } from 'node:fs';

/**
 * Whether a file is a scene file rather than an annotation file: YAML, or JSON shaped like a
 * scene. Kept apart from the scene validator so `annot validate` on an annotation file loads no
 * render code.
 */
export function isSceneFile(path: string): boolean {
  if (/\.ya?ml$/i.test(path)) return true;
  if (!/\.json$/i.test(path)) return false;
  const head = readFileSync(path, 'utf8').slice(0, 65536);
  return /^\s*\{/.test(head) && /"(?:beats|shots)"\s*:/.test(head) && /"characters"\s*:/.test(head);
}

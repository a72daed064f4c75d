import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { runToEnd, srtOfCues } from './file-safety.js';

/**
 * An output a conversion is about to replace, as it was before: what the tests of refused and
 * interrupted conversions compare it with afterwards, bytes and modification time alike (`make`
 * decides what to rebuild by the time alone).
 */
export interface ExistingOutput {
  readonly path: string;
  readonly bytes: Buffer;
  readonly mtimeNs: bigint;
}

/** Every format annot writes, by the extension that chooses it. */
export const OUTPUT_EXTENSIONS = ['srt', 'vtt', 'ass', 'sbv', 'ttml', 'eaf', 'TextGrid', 'jams', 'otio', 'labelstudio.json', 'jsonld', 'annot'] as const;

/** A long ago modification time: one set again by a write shows as now, at any clock resolution. */
const LONG_AGO = new Date('2001-02-03T04:05:06.789Z');

/**
 * `folder/<name>.<extension>` written by annot itself (a real `.annot` is an SQLite file in WAL mode),
 * its modification time set long ago, alone in its folder.
 */
export async function existingOutput(folder: string, extension: string, name = 'out'): Promise<ExistingOutput> {
  mkdirSync(folder, { recursive: true });
  const source = join(dirname(folder), `${basename(folder)}-${name}-previous.srt`);
  writeFileSync(source, srtOfCues(3, 'previous'));
  const path = join(folder, `${name}.${extension}`);
  const made = await runToEnd(['convert', source, path]);
  if (made.code !== 0) throw new Error(`could not write ${path}: ${made.stderr}`);
  utimesSync(path, LONG_AGO, LONG_AGO);
  return { path, bytes: readFileSync(path), mtimeNs: statSync(path, { bigint: true }).mtimeNs };
}

/**
 * What a test asserts of the output afterwards: the same bytes and modification time, and nothing
 * beside it (no temporary, no SQLite side file).
 */
export function stateOf(existing: ExistingOutput, others: readonly string[] = []): { sameBytes: boolean; sameTime: boolean; folder: string[] } {
  return {
    sameBytes: readFileSync(existing.path).equals(existing.bytes),
    sameTime: statSync(existing.path, { bigint: true }).mtimeNs === existing.mtimeNs,
    folder: readdirSync(dirname(existing.path)).filter((name) => !others.includes(name)).sort(),
  };
}

/** stateOf an output nothing touched. */
export function untouched(existing: ExistingOutput): { sameBytes: boolean; sameTime: boolean; folder: string[] } {
  return { sameBytes: true, sameTime: true, folder: [basename(existing.path)] };
}

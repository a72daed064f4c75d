import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { makeScratchFolder, removeScratchFolder } from '../io/temporary-files.js';

/** Standard input copied into a temporary file, for readers that need a path (and a head to sniff). */
export interface SpooledInput {
  readonly path: string;
  /** Removes the temporary file. */
  dispose(): void;
}

/** Reads a stream (standard input) to its end into a temporary file. */
export async function spoolInput(stream: NodeJS.ReadableStream = process.stdin): Promise<SpooledInput> {
  const dir = makeScratchFolder('annot-stdin-');
  const path = join(dir, 'stdin');
  try {
    await pipeline(stream, createWriteStream(path));
  } catch (error) {
    removeScratchFolder(dir);
    throw error;
  }
  return { path, dispose: () => removeScratchFolder(dir) };
}

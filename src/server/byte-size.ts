import { InvalidInputError } from '../errors/annot-error.js';

const UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1000, kib: 1024, m: 1024 ** 2, mb: 1000 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gb: 1000 ** 3, gib: 1024 ** 3 };

/** A size flag (`1048576`, `512k`, `64MiB`, `1GB`) in bytes; k/M/G alone are binary. */
export function parseByteSize(text: string, flag: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = match ? UNITS[match[2].toLowerCase()] : undefined;
  const bytes = match && unit !== undefined ? Math.floor(Number(match[1]) * unit) : Number.NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1) {
    throw new InvalidInputError(`${flag}: expected a size like 1048576, 512k, 64MiB or 1GB, got ${JSON.stringify(text)}`);
  }
  return bytes;
}

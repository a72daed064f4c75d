import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { inferFormat, readHead } from '../../src/adapters/registry.js';

/**
 * The real files the consumer suites convert: every fixture family (a folder of fixtures/), each
 * file with the format annot reads it as. Left out: the deliberately broken files of
 * `fixtures/validate/`, scenes and media, licences and notes, and the expected results of the
 * WebVTT cue-text suite. The large TTML test suites (IMSC's tests, ttconv's references) give one
 * file per feature folder, so every family is covered without converting a thousand files.
 */
export const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');

export interface FixtureInput {
  readonly path: string;
  /** The path below fixtures/, as test names show it. */
  readonly name: string;
  readonly format: string;
}

const SKIPPED_FOLDERS = new Set(['validate', 'scenes', 'tour', 'isd-references']);
const SKIPPED_FILES = /(^LICENSE|^SOURCES|\.md$|\.txt$|\.mp4$|\.mk$|\.yaml$)/i;

export function fixtureInputs(): FixtureInput[] {
  const inputs: FixtureInput[] = [];
  walk(FIXTURES, inputs);
  return inputs.sort((a, b) => a.name.localeCompare(b.name));
}

function walk(dir: string, into: FixtureInput[]): void {
  const entries = readdirSync(dir).sort();
  const sampledSuite = /imsc-tests/.test(dir);
  let tookOne = false;
  for (const entry of entries) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry)) walk(path, into);
      continue;
    }
    if (SKIPPED_FILES.test(entry) || (/wpt-cue-text-parsing/.test(dir) && entry.endsWith('.json'))) continue;
    if (sampledSuite && tookOne) continue;
    const format = formatOf(path);
    if (format === null) continue;
    into.push({ path, name: relative(FIXTURES, path), format });
    tookOne = true;
  }
}

function formatOf(path: string): string | null {
  try {
    return inferFormat({ path, head: readHead(path) }).name;
  } catch {
    return null;
  }
}

/** The inputs of one format, or of every format but some. */
export function inputsOf(format: string): FixtureInput[] {
  return fixtureInputs().filter((input) => input.format === format);
}

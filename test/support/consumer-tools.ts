import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * A program of another project that reads what annot writes (Praat, xmllint...). The consumer
 * tests run it on annot's output; `.ci/run` installs its Debian package.
 */
export interface ConsumerTool {
  /** As a person names it in a message. */
  readonly name: string;
  /** The executable, looked for on PATH. */
  readonly command: string;
  /** The Debian package that has it (`.ci/run` installs it). */
  readonly debian: string;
  /** An environment variable that names the executable instead (for a machine that keeps it elsewhere). */
  readonly env: string;
}

export const XMLLINT: ConsumerTool = { name: 'xmllint', command: 'xmllint', debian: 'libxml2-utils', env: 'ANNOT_XMLLINT' };
export const PRAAT: ConsumerTool = { name: 'Praat', command: 'praat', debian: 'praat', env: 'ANNOT_PRAAT' };

/** The tool's executable, or null when it is not installed. */
export function toolPath(tool: ConsumerTool): string | null {
  const named = process.env[tool.env];
  if (named !== undefined && named !== '') return executable(named) ? named : null;
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    if (folder === '' || !isAbsolute(folder)) continue;
    const candidate = join(folder, tool.command);
    if (executable(candidate)) return candidate;
  }
  return null;
}

/**
 * The tool's executable for a test file that needs it, or null. Outside CI a missing tool skips
 * those tests with a loud message; under CI=true it is an error (thrown while jest collects the
 * file), so CI never passes by skipping them, as the browser tests do with chromium.
 */
export function requireTool(tool: ConsumerTool, what: string): string | null {
  const found = toolPath(tool);
  if (found !== null) return found;
  const named = process.env[tool.env];
  const looked = named !== undefined && named !== '' ? `${tool.env}=${named} is not an executable` : `no ${tool.command} on PATH, nor ${tool.env}`;
  const missing = `${tool.name} is not installed (${looked}); .ci/run installs it with apt-get install ${tool.debian}`;
  if (process.env.CI === 'true') throw new Error(`${missing}: CI must run ${what}`);
  console.warn(`\n!!! SKIPPING ${what}: ${missing} !!!\n`);
  return null;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

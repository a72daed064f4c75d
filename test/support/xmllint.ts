import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The schemas of fixtures/schemas/ (their sources and licences are in the SOURCES.md beside them). */
export const TTML2_XSD = fileURLToPath(new URL('../../fixtures/schemas/ttml2/ttml2.xsd', import.meta.url));
export const EAF_XSD = fileURLToPath(new URL('../../fixtures/schemas/eaf/EAFv3.0.xsd', import.meta.url));

/** Files given to one xmllint run: the schema is parsed once per run, and the command line stays short. */
const FILES_PER_RUN = 200;

/**
 * Validates files against an XML Schema with `xmllint --noout --schema` (libxml2, as ELAN's and
 * TTML's users check their files). Returns, by file, what xmllint said is wrong with it: an empty
 * list for a file that validates. A file xmllint says nothing about (it could not read it) gets a
 * message saying so. The schema's own parser warnings (TTML2's modules import the TTML namespace
 * from several files, which libxml2 notes and skips) are not about the files and are left out.
 */
export function validateWithXsd(xmllint: string, schema: string, files: readonly string[]): Map<string, string[]> {
  const results = new Map<string, string[]>(files.map((file) => [file, []]));
  for (let at = 0; at < files.length; at += FILES_PER_RUN) {
    const batch = files.slice(at, at + FILES_PER_RUN);
    const run = spawnSync(xmllint, ['--noout', '--schema', schema, ...batch], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    if (run.error) throw run.error;
    const said = new Set<string>();
    for (const line of run.stderr.split('\n')) {
      if (line === '' || line.includes('Schemas parser warning')) continue;
      const file = batch.find((candidate) => line.startsWith(`${candidate}:`) || line.startsWith(`${candidate} `));
      if (file === undefined) {
        // Not about one file: the schema itself failed to load, or xmllint failed.
        if (run.status !== 0 && run.status !== 3) throw new Error(`xmllint --schema ${schema} failed (exit ${run.status}): ${line}`);
        continue;
      }
      said.add(file);
      if (line === `${file} validates`) continue;
      if (line === `${file} fails to validate`) continue;
      (results.get(file) as string[]).push(line);
    }
    for (const file of batch) {
      if (!said.has(file)) (results.get(file) as string[]).push(`${file}: xmllint said neither that it validates nor what is wrong (exit ${run.status})`);
    }
    // "fails to validate" without a message of its own (xmllint prints one per error; this is a guard).
    for (const file of batch) {
      if (run.stderr.includes(`${file} fails to validate`) && (results.get(file) as string[]).length === 0) (results.get(file) as string[]).push(`${file} fails to validate`);
    }
  }
  return results;
}

/** The messages of every file that does not validate, for an assertion that shows them all. */
export function invalidFiles(results: ReadonlyMap<string, readonly string[]>): string[] {
  return [...results.values()].filter((messages) => messages.length > 0).flat();
}

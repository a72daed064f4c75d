import { existsSync, readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AnnotError } from '../../src/errors/annot-error.js';
import { convertFile, type ConvertReport } from '../../src/service/convert-file.js';
import { writeSampleAnnot } from './sample-annot.js';

/**
 * The fixture families: every format annot reads, with the fixture files of each (fixtures/<family>/
 * and fixtures/corpus/<family>/, by extension), for tests that convert "from every input format"
 * and hand the output to another program. The `annot` family is made on the spot (annot's own
 * files are not fixtures): the sample .annot of the tests, and two fixtures converted into .annot.
 */
export const FIXTURE_FAMILIES = ['srt', 'webvtt', 'ass', 'sbv', 'ttml', 'textgrid', 'eaf', 'jams', 'otio', 'label_studio', 'web_annotation', 'annot'] as const;
export type FixtureFamily = (typeof FIXTURE_FAMILIES)[number];

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(ROOT, 'fixtures');

const EXTENSIONS: Readonly<Record<Exclude<FixtureFamily, 'annot'>, RegExp>> = {
  srt: /\.srt$/i,
  webvtt: /\.vtt$/i,
  ass: /\.(ass|ssa)$/i,
  sbv: /\.sbv$/i,
  ttml: /\.(ttml|dfxp|xml)$/i,
  textgrid: /\.textgrid$/i,
  eaf: /\.eaf$/i,
  jams: /\.(jams|jamz)$/i,
  otio: /\.otio$/i,
  label_studio: /\.json$/i,
  web_annotation: /\.(json|jsonld)$/i,
};

/** The fixture files of a family (not `annot`: see annotInputs), sorted. */
export function fixtureFiles(family: Exclude<FixtureFamily, 'annot'>): string[] {
  return [join(FIXTURES, family), join(FIXTURES, 'corpus', family)].flatMap((folder) => filesUnder(folder)).filter((path) => EXTENSIONS[family].test(path));
}

function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(join(folder, entry.name)) : [join(folder, entry.name)]));
}

/** The `annot` family: .annot files written into `dir` (the sample file, an EAF and a TextGrid converted). */
export async function annotInputs(dir: string): Promise<string[]> {
  const sample = join(dir, 'sample.annot');
  await writeSampleAnnot(sample);
  const made = [sample];
  for (const source of ['tour/interview.eaf', 'textgrid/praatio_mary.TextGrid']) {
    const target = join(dir, `${basename(source).replace(/\.[^.]+$/, '')}.annot`);
    await convertFile({ input: join(FIXTURES, source), output: target, warn: () => undefined, report: () => undefined });
    made.push(target);
  }
  return made;
}

/** One input converted: what was written and the report, or the refusal. */
export interface Conversion {
  readonly family: FixtureFamily;
  /** The input, relative to the repository (or the made .annot's name). */
  readonly input: string;
  readonly output: string;
  readonly report?: ConvertReport;
  readonly refused?: AnnotError;
}

/**
 * A deadline, not a speed: a test that converts a whole family (the TTML family is 300 documents)
 * may take minutes on a machine busy with other work, and still must not fail for it.
 */
export const FAMILY_DEADLINE_MS = 15 * 60_000;

/**
 * Every input of a family converted to `to`, written into `dir` as `<family>-<n>-<name>.<extension>`.
 * An input annot refuses (a fixture that is broken on purpose) is returned with its error: the
 * caller says which refusals it expects. Any error that is not annot's own is thrown.
 */
export async function convertFamily(family: FixtureFamily, to: string, extension: string, dir: string): Promise<Conversion[]> {
  const conversions: Conversion[] = [];
  const inputs = family === 'annot' ? await annotInputs(dir) : fixtureFiles(family);
  for (const [n, input] of inputs.entries()) {
    const output = join(dir, `${family}-${n + 1}-${basename(input).replace(/\.[^.]+$/, '')}.${extension}`);
    const name = input.startsWith(ROOT) ? relative(ROOT, input) : basename(input);
    try {
      const report = await convertFile({ input, output, from: family, to, warn: () => undefined, report: () => undefined });
      conversions.push({ family, input: name, output, report });
    } catch (error) {
      if (!(error instanceof AnnotError) || error.code === 'ANNOT_INTERNAL') throw error;
      conversions.push({ family, input: name, output, refused: error });
    }
  }
  return conversions;
}

/** convertFamily for every family, one after the other. */
export async function convertEveryFamily(to: string, extension: string, dir: string): Promise<Conversion[]> {
  const conversions: Conversion[] = [];
  for (const family of FIXTURE_FAMILIES) conversions.push(...(await convertFamily(family, to, extension, dir)));
  return conversions;
}

/** The inputs annot refused, by input, with the error's message (for comparison with what a test expects). */
export function refusals(conversions: readonly Conversion[]): Record<string, string> {
  return Object.fromEntries(conversions.filter((conversion) => conversion.refused !== undefined).map((conversion) => [conversion.input, `${conversion.refused?.code}: ${conversion.refused?.message}`]));
}

/** The inputs of these conversions that a table of expected refusals names, sorted (to compare with refusals()). */
export function expectedRefusals(conversions: readonly Conversion[], ...tables: ReadonlyArray<Readonly<Record<string, string>>>): string[] {
  const inputs = new Set(conversions.map((conversion) => conversion.input));
  return tables.flatMap((table) => Object.keys(table)).filter((input) => inputs.has(input)).sort();
}

/** The fixtures annot refuses to read, whatever the target: each is broken on purpose. */
export const BROKEN_ON_PURPOSE: Readonly<Record<string, string>> = {
  'fixtures/corpus/webvtt/webvttpy_empty_0_bytes.vtt': 'an empty file: no WebVTT signature',
  'fixtures/sbv/webvtt-py/invalid_format.sbv': 'no timing line',
  'fixtures/corpus/jams/jams_fixture_invalid_negative_time.jams': 'a negative time, which JAMS forbids',
};

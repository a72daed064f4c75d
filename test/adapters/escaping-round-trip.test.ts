import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { plainCueText } from '../../src/adapters/plain-cue-text.js';
import { makeAnnotation, mediaRef, type Annotation } from '../../src/model/annotation.js';
import { makeTier } from '../../src/model/tier.js';
import { convertFile } from '../../src/service/convert-file.js';
import { loadDocument } from '../../src/adapters/load-document.js';
import { loadIntoStore } from '../../src/adapters/load-into-store.js';
import { getAdapter } from '../../src/adapters/registry.js';
import { MemoryStore } from '../../src/store/memory.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { collect } from '../store/fixtures.js';
import { loadEveryCodec } from '../support/codecs.js';

/**
 * Plain text through every writer, into `.annot`, and out through every other writer: each
 * reader must give back exactly the text that went in, whatever it holds of what formats escape
 * (`<`, `>`, `&`, `{`, `}`, `\`, quotes, `-->`), with line breaks, right-to-left text, combining
 * marks and emoji. Each writer escapes what its format needs and each reader unescapes it.
 */

/** Each format with the file name its output gets (`.json` is claimed by three formats). */
const FORMATS: ReadonlyArray<readonly [string, string]> = [
  ['srt', 'out.srt'],
  ['webvtt', 'out.vtt'],
  ['ass', 'out.ass'],
  ['ttml', 'out.ttml'],
  ['sbv', 'out.sbv'],
  ['textgrid', 'out.TextGrid'],
  ['eaf', 'out.eaf'],
  ['jams', 'out.jams'],
  ['otio', 'out.otio'],
  ['label_studio', 'out.labelstudio.json'],
  ['web_annotation', 'out.jsonld'],
  ['annot', 'out.annot'],
];

/** Pieces a text is made of: what formats escape, and the scripts and marks a writer must not touch. */
const PIECES = [
  'a', 'Tom', 'Jerry', ' ', ' ', '1', '2', '0', ':', ';', '.', ',', '!', '?', '#',
  '<', '>', '&', '{', '}', '\\', '"', "'", '""', '-->', '--', '<i>', '</b>', '<v Bob>', '<lacht>', '< 2 >', '<3',
  '&amp;', '&lt;', '&nbsp;', '&#65;', '{\\an8}', '\\N', '\\h', '\\n', '{\\i1}',
  'שלום', 'مرحبا', '\u200f', 'e\u0301', 'n\u0303', '👍🏽', '👨‍👩‍👧', '„Wie geht\'s?“', 'Äußerung', '漢字',
];

/**
 * One line of text: pieces joined, with no white space at either end (subtitle formats trim or
 * keep it inconsistently, and no format has a way to say it) and no two spaces in a row.
 */
const line = fc
  .array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 8 })
  .map((pieces) => pieces.join('').replace(/ {2,}/g, ' ').trim())
  .filter((text) => text.length > 0);

/** A cue text of one to three lines (a blank line would end a subtitle: no format can hold one). */
const cueText = fc.array(line, { minLength: 1, maxLength: 3 }).map((lines) => lines.join('\n'));

const provenance = { was_generated_by: 'test', generated_at_time: new RationalTime(0, 1000) };

async function seedAnnot(path: string, texts: readonly string[]): Promise<void> {
  const store = await SqliteStore.open(path, { create: true });
  try {
    await store.addTier(makeTier({ name: 'lines' }));
    await store.addMany(
      texts.map((text, i) =>
        makeAnnotation({
          tier: 'lines',
          reference: mediaRef('talk.wav', new TimeInterval(new RationalTime(i * 2000, 1000), new RationalTime(i * 2000 + 1500, 1000))),
          body: { text },
          body_schema_uri: 'annot://schema/word/v1',
          provenance,
        }),
      ),
    );
  } finally {
    await store.close();
  }
}

/**
 * The plain texts annot reads from a file, in time order, without the empty intervals a TextGrid
 * fills its gaps with (they stay annotations once read, so they are in every file after one).
 */
async function textsOf(path: string, format: string, writer: string): Promise<string[]> {
  const store = new MemoryStore();
  const codec = await getAdapter(format).codec();
  await loadIntoStore(await loadDocument(codec, path, { sourceName: path, now: RationalTime.now(1000), report: () => undefined }), store);
  const all = (await collect(store.all())) as Annotation[];
  const start = (annotation: Annotation): number => {
    const interval = (annotation.reference as { interval: TimeInterval }).interval;
    return interval.start.v / interval.start.r;
  };
  const texts = all.sort((a, b) => start(a) - start(b)).map((annotation) => plainCueText(annotation) ?? '');
  return format === 'textgrid' || writer === 'textgrid' ? texts.filter((text) => text.length > 0) : texts;
}

async function convert(input: string, output: string, to: string): Promise<void> {
  await convertFile({ input, output, to, warn: () => undefined, report: () => undefined });
}

describe('escaping: plain text through every writer, .annot and every other writer', () => {
  beforeAll(loadEveryCodec);

  it.each(FORMATS.map(([name]) => name))('%s written, read into .annot, and written by every format reads back as the same plain text', async (writer) => {
    const writerFile = (FORMATS.find(([name]) => name === writer) as readonly [string, string])[1];
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(cueText, { minLength: 1, maxLength: 12 }), async (texts) => {
        const work = mkdtempSync(join(tmpdir(), `annot-escaping-${writer}-`));
        try {
          const seed = join(work, 'seed.annot');
          await seedAnnot(seed, texts);
          const written = join(work, `w-${writerFile}`);
          await convert(seed, written, writer);
          const middle = join(work, 'middle.annot');
          await convert(written, middle, 'annot');
          expect({ writer, texts: await textsOf(middle, 'annot', writer) }).toEqual({ writer, texts });
          for (const [target, file] of FORMATS) {
            const out = join(work, `${run}-${file}`);
            await convert(middle, out, target);
            expect({ writer, target, texts: await textsOf(out, target, writer) }).toEqual({ writer, target, texts });
          }
          run++;
        } finally {
          rmSync(work, { recursive: true, force: true });
        }
      }),
      { numRuns: Number(process.env.ANNOT_ESCAPING_RUNS ?? 8) },
    );
  });
});

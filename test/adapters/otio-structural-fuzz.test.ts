import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FUZZ_FORMATS, random, runCase } from '../fuzz/fuzz-core.js';

/**
 * The byte fuzzer (test/fuzz) mostly breaks the JSON, so the OTIO walk sees few of its mutants.
 * This one mutates the tree of real OTIO files instead: a value replaced by one of another type,
 * a key deleted, an item duplicated, a schema renamed. The contract is the fuzzer's (runCase): a
 * document that validates against our own schemas and round-trips, or a typed error.
 */
// OTIO_TREE_CASES and OTIO_TREE_SEED run more, or other, cases.
const CASES = Number(process.env.OTIO_TREE_CASES ?? 300);
const SEED = Number(process.env.OTIO_TREE_SEED ?? 20261127);
const FIXTURES = new URL('../../fixtures/otio/', import.meta.url).pathname;
const otio = FUZZ_FORMATS.find((format) => format.name === 'otio');
if (!otio) throw new Error('the fuzzer has no otio format');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const REPLACEMENTS: Json[] = [null, true, false, 0, -1, 7.5, 1e300, '', 'x', [], {}, [1], { a: 1 }, { OTIO_SCHEMA: 'Clip.2' }, { OTIO_SCHEMA: 'RationalTime.1', rate: 0, value: 1 }, { OTIO_SCHEMA: 'Gap.1' }];
const SCHEMAS = ['Clip.1', 'Clip.2', 'Gap.1', 'Stack.1', 'Track.1', 'Transition.1', 'Marker.2', 'Timeline.1', 'BogusName.3', 'SerializableCollection.1'];

/** Every container in the tree with a key (or index) in it. */
function slots(value: Json, out: Array<[Json[] | Record<string, Json>, string | number]> = []): Array<[Json[] | Record<string, Json>, string | number]> {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      out.push([value, index]);
      slots(item, out);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      out.push([value, key]);
      slots(value[key], out);
    }
  }
  return out;
}

function mutateTree(tree: Json, next: () => number): Json {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  for (let m = 1 + Math.floor(next() * 3); m > 0; m--) {
    const all = slots(tree);
    if (all.length === 0) break;
    const [holder, key] = pick(all);
    const kind = Math.floor(next() * 4);
    if (Array.isArray(holder)) {
      if (kind === 0) holder.splice(key as number, 1);
      else if (kind === 1) holder.splice(key as number, 0, structuredClone(holder[key as number]));
      else holder[key as number] = structuredClone(pick(REPLACEMENTS));
    } else if (kind === 0) delete holder[key];
    else if (kind === 1 && key === 'OTIO_SCHEMA') holder[key] = pick(SCHEMAS);
    else holder[key] = structuredClone(pick(REPLACEMENTS));
  }
  return tree;
}

describe('OTIO reader on mutated timelines (structure, not bytes)', () => {
  it(`survives ${CASES} mutants: a document our own validation accepts and that round-trips, or a typed error`, async () => {
    const seeds = readdirSync(FIXTURES).filter((name) => name.endsWith('.otio') && statSync(join(FIXTURES, name)).size <= 64 * 1024).sort().map((name) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Json);
    const next = random(SEED);
    const work = mkdtempSync(join(tmpdir(), 'annot-otio-tree-fuzz-'));
    const failures: string[] = [];
    try {
      for (let index = 0; index < CASES; index++) {
        const input = Buffer.from(JSON.stringify(mutateTree(structuredClone(seeds[Math.floor(next() * seeds.length)]), next)));
        const outcome = await runCase(otio, input, work);
        // OTIO_TREE_SAVE=<folder> keeps each failing input there, to replay it.
        if (!outcome.ok && process.env.OTIO_TREE_SAVE) writeFileSync(join(process.env.OTIO_TREE_SAVE, `fail-${SEED}-${index}.otio`), input);
        if (!outcome.ok) failures.push(`${outcome.problem} <- ${input.toString('utf8').slice(0, 200)}`);
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    expect(failures).toEqual([]);
  }, Math.max(60_000, CASES * 200));
});

// The tier-constraint guard on edits (src/service/tier-constraint-guard.ts). A store of U
// utterances (NONE) of 4 s, each holding 9 INCLUDED_IN words, as an .annot file. The guard reads
// only the edit's neighbourhood by window queries, so its cost must not grow with the store:
// a guarded update (service.updateAnnotation, as PATCH runs it) on a 100,000-annotation store is
// measured beside the same update on a 10,000-annotation store (target <= 1.5x), for a word
// retimed inside its utterance and for an utterance grown around its 9 words. The same update on
// a 100,000-annotation store whose words tier is NONE (no constraint to check) is reported beside
// them: the guard's own overhead per edit. Last, what still grows: a symbolic child has no time,
// so a deletion on a tier with a symbolic child tier finds the children by target, compared in SQL
// over the whole table (there is no index by target); a refused delete of an utterance with its
// SYMBOLIC_ASSOCIATION translation, 50,000 utterances and 50,000 translations, beside the same on
// a 10x smaller store (reported, no target).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { annotationEtag } from '../dist/src/digest/etag.js';
import { makeAnnotation, mediaRef } from '../dist/src/model/annotation.js';
import { makeTier } from '../dist/src/model/tier.js';
import { AnnotationService } from '../dist/src/service/annotation-service.js';
import { SqliteStore } from '../dist/src/store/sqlite.js';
import { RationalTime } from '../dist/src/time/rational-time.js';
import { TimeInterval } from '../dist/src/time/time-interval.js';
import { latencies, report } from './lib/harness.js';

const WORDS = 9;
const RUNS = 2000;
const ASSET = 'talk.wav';
const provenance = { was_generated_by: 'bench', generated_at_time: new RationalTime(1_700_000_000_000, 1000) };
const scratch = mkdtempSync(join(tmpdir(), 'annot-bench-guard-'));

const at = (id, tier, startMs, endMs) =>
  makeAnnotation({ id, tier, reference: mediaRef(ASSET, new TimeInterval(new RationalTime(startMs, 1000), new RationalTime(endMs, 1000))), body: { text: tier }, body_schema_uri: 'annot://schema/label/v1', provenance });
const uttId = (i) => `00000000-0000-4000-8000-${(i * 16).toString(16).padStart(12, '0')}`;
const wordId = (i, k) => `00000000-0000-4000-8000-${(i * 16 + k + 1).toString(16).padStart(12, '0')}`;
const retime = (startMs, endMs) => ({ reference: { kind: 'media', asset_id: ASSET, interval: { start: { v: startMs, r: 1000 }, end: { v: endMs, r: 1000 } } } });

async function openStore(name, utterances, stereotype) {
  const store = await SqliteStore.open(join(scratch, `${name}.annot`), { create: true });
  await store.addTier(makeTier({ name: 'utt' }));
  await store.addTier(stereotype === 'NONE' ? makeTier({ name: 'words' }) : makeTier({ name: 'words', stereotype, parent: 'utt' }));
  const all = [];
  for (let i = 0; i < utterances; i++) {
    all.push(at(uttId(i), 'utt', i * 5000, i * 5000 + 4000));
    for (let k = 0; k < WORDS; k++) all.push(at(wordId(i, k), 'words', i * 5000 + k * 400 + 100, i * 5000 + k * 400 + 400));
  }
  await store.addMany(all);
  return { store, service: new AnnotationService(store), utterances };
}

/** Whether the annotation is where openStore put it (each run moves it away, or back: never a no-op). */
const inPlace = (annotation, startMs) => annotation.reference.interval.start.equals(new RationalTime(startMs, 1000));

/** p50/p99 of updates moving a different word by 50 ms inside its utterance each run (or back). */
function retimeWords({ store, service, utterances }) {
  return latencies(async (n) => {
    const i = (n * 7919) % utterances;
    const k = n % WORDS;
    const current = await store.get(wordId(i, k));
    const shift = inPlace(current, i * 5000 + k * 400 + 100) ? 50 : 0;
    await service.updateAnnotation(wordId(i, k), retime(i * 5000 + k * 400 + 100 + shift, i * 5000 + k * 400 + 400 + shift), annotationEtag(current), 'bench');
  }, { runs: RUNS, warmup: 100 });
}

/** p50/p99 of updates growing a different utterance by 100 ms at its end each run (or back). */
function growUtterances({ store, service, utterances }) {
  return latencies(async (n) => {
    const i = (n * 104729) % utterances;
    const current = await store.get(uttId(i));
    const grow = current.reference.interval.end.equals(new RationalTime(i * 5000 + 4000, 1000)) ? 100 : 0;
    await service.updateAnnotation(uttId(i), retime(i * 5000, i * 5000 + 4000 + grow), annotationEtag(current), 'bench');
  }, { runs: RUNS, warmup: 100 });
}

try {
  const large = await openStore('large', 10_000, 'INCLUDED_IN');
  const small = await openStore('small', 1_000, 'INCLUDED_IN');
  const free = await openStore('free', 10_000, 'NONE');
  const largeCount = (await large.store.count()).toLocaleString('en');
  const smallCount = (await small.store.count()).toLocaleString('en');

  for (const [what, measure] of [['an INCLUDED_IN word retimed inside its parent', retimeWords], ['a parent grown around its 9 INCLUDED_IN children', growUtterances]]) {
    const onLarge = await measure(large);
    const onSmall = await measure(small);
    const unguarded = await measure(free);
    report({
      name: `guarded update (PATCH) of ${what}, ${largeCount} annotations (sqlite)`,
      figure: onLarge.p50,
      unit: 'ms (p50)',
      reference: `the same on ${smallCount} annotations`,
      referenceFigure: onSmall.p50,
      higherIsBetter: false,
      target: 1.5,
      targetText: '<= 1.5x the 10x smaller store',
      extra: { p99_ms: onLarge.p99.toFixed(3), same_update_words_tier_NONE_p50_ms: unguarded.p50.toFixed(3), same_update_words_tier_NONE_p99_ms: unguarded.p99.toFixed(3) },
    });
  }
  for (const { store } of [large, small, free]) await store.close();

  const refusedDeletes = async (name, utterances) => {
    const store = await SqliteStore.open(join(scratch, `${name}.annot`), { create: true });
    await store.addTier(makeTier({ name: 'utt' }));
    await store.addTier(makeTier({ name: 'trans', stereotype: 'SYMBOLIC_ASSOCIATION', parent: 'utt' }));
    const all = [];
    for (let i = 0; i < utterances; i++) {
      all.push(at(uttId(i), 'utt', i * 5000, i * 5000 + 4000));
      all.push(makeAnnotation({ id: wordId(i, 0), tier: 'trans', reference: { kind: 'annotation', target_id: uttId(i) }, body: { text: 'translation' }, body_schema_uri: 'annot://schema/label/v1', provenance }));
    }
    await store.addMany(all);
    const service = new AnnotationService(store);
    const timing = await latencies(async (n) => {
      const id = uttId((n * 7919) % utterances);
      const refused = await service.deleteAnnotation(id, 'bench').then(() => false, (error) => error.code === 'ANNOT_TIER_CONSTRAINT');
      if (!refused) throw new Error(`the delete of ${id} was not refused`);
    }, { runs: 200, warmup: 10 });
    const count = await store.count();
    await store.close();
    return { timing, count };
  };
  const symbolicLarge = await refusedDeletes('symbolic-large', 50_000);
  const symbolicSmall = await refusedDeletes('symbolic-small', 5_000);
  report({
    name: `refused delete of a parent with a SYMBOLIC_ASSOCIATION child, ${symbolicLarge.count.toLocaleString('en')} annotations (sqlite; children found by target in SQL)`,
    figure: symbolicLarge.timing.p50,
    unit: 'ms (p50)',
    reference: `the same on ${symbolicSmall.count.toLocaleString('en')} annotations`,
    referenceFigure: symbolicSmall.timing.p50,
    higherIsBetter: false,
    extra: { p99_ms: symbolicLarge.timing.p99.toFixed(3) },
  });
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

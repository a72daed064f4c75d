// Throughput of the two core operations every import and every query leans on: exact parsing of
// decimal seconds (RationalTime.fromSeconds) and Allen's relate. Each is measured beside the
// float shortcut it replaces, on the same inputs in the same run, so the ratio is the price of
// exactness on this machine.
import { report, throughput } from './lib/harness.js';
import { relate } from '../dist/src/time/allen.js';
import { RationalTime } from '../dist/src/time/rational-time.js';
import { TimeInterval } from '../dist/src/time/time-interval.js';

const RATE = 1000;
const COUNT = 4096; // a power of two, so `i & MASK` cycles through the inputs cheaply
const MASK = COUNT - 1;

// A deterministic generator, so every run parses the same strings.
let seed = 0x2545f491;
function random() {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
}

// Millisecond-exact times up to about three hours, spelled as a subtitle or ELAN file would.
const seconds = Array.from({ length: COUNT }, () => (Math.floor(random() * 10_800_000) / 1000).toFixed(3));

let sink = 0;
const parsed = throughput((i) => {
  sink += RationalTime.fromSeconds(seconds[i & MASK], RATE).v;
});
const floatParsed = throughput((i) => {
  sink += Math.round(parseFloat(seconds[i & MASK]) * RATE);
});
report({
  name: 'fromSeconds throughput',
  figure: parsed,
  unit: 'ops/s',
  reference: 'Math.round(parseFloat(s) * rate)',
  referenceFigure: floatParsed,
  higherIsBetter: true,
});

// Interval pairs with every relation represented: short intervals on a small grid collide often
// enough to give meets, starts, equals and points as well as before/after.
function intervalTicks() {
  const start = Math.floor(random() * 40);
  return [start, start + Math.floor(random() * 12)];
}
const tickPairs = Array.from({ length: COUNT }, () => [intervalTicks(), intervalTicks()]);
const sameRate = tickPairs.map(([[as, ae], [bs, be]]) => [
  new TimeInterval(new RationalTime(as, RATE), new RationalTime(ae, RATE)),
  new TimeInterval(new RationalTime(bs, RATE), new RationalTime(be, RATE)),
]);
// The same values with b spelled at 48000 Hz, so every comparison cross-multiplies.
const crossRate = tickPairs.map(([[as, ae], [bs, be]]) => [
  new TimeInterval(new RationalTime(as, RATE), new RationalTime(ae, RATE)),
  new TimeInterval(new RationalTime(bs * 48, 48000), new RationalTime(be * 48, 48000)),
]);
const floats = tickPairs.map(([[as, ae], [bs, be]]) => [as / RATE, ae / RATE, bs / RATE, be / RATE]);

/** The float comparison chain a caller would write by hand: the same 13 tests in the same order. */
function relateFloats([as, ae, bs, be]) {
  const same = as === bs && ae === be;
  if (ae < bs) return 'before';
  if (as > be) return 'after';
  if (ae === bs && !same) return 'meets';
  if (as === be && !same) return 'met_by';
  if (as < bs && bs < ae && ae < be) return 'overlaps';
  if (bs < as && as < be && be < ae) return 'overlapped_by';
  if (as === bs && ae < be) return 'starts';
  if (as === bs && ae > be) return 'started_by';
  if (as > bs && ae < be) return 'during';
  if (as < bs && ae > be) return 'contains';
  if (as > bs && ae === be) return 'finishes';
  if (as < bs && ae === be) return 'finished_by';
  return 'equals';
}

// The two must agree before their speeds are worth comparing.
for (let i = 0; i < COUNT; i++) {
  const expected = relateFloats(floats[i]);
  if (relate(...sameRate[i]) !== expected || relate(...crossRate[i]) !== expected) {
    throw new Error(`relate disagrees with the float chain on pair ${i}: ${sameRate[i][0]} vs ${sameRate[i][1]}`);
  }
}

let relations = 0;
const related = throughput((i) => {
  const [a, b] = sameRate[i & MASK];
  relations += relate(a, b).length;
});
const relatedCross = throughput((i) => {
  const [a, b] = crossRate[i & MASK];
  relations += relate(a, b).length;
});
const floatRelated = throughput((i) => {
  relations += relateFloats(floats[i & MASK]).length;
});
report({
  name: 'relate throughput (same rate)',
  figure: related,
  unit: 'ops/s',
  reference: 'float comparison chain',
  referenceFigure: floatRelated,
  higherIsBetter: true,
  extra: { cross_rate_ops_per_s: Math.round(relatedCross), cross_rate_ratio: (relatedCross / floatRelated).toFixed(3) },
});

// Keep the results observable so no work is optimised away.
if (sink === 0.5 || relations === 0.5) console.log('unreachable');

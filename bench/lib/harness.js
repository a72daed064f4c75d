// The benchmark convention: every benchmark measures its figure AND the reference it is compared
// with in the same run, on the same machine, then reports both and their ratio. A figure without
// a reference measured beside it says nothing on a shared 2-core machine.
import { performance } from 'node:perf_hooks';

/**
 * Prints one human line and one machine line (`BENCH {json}`) that bench/run.js collects into
 * bench/RESULTS.md.
 *
 * higherIsBetter: for throughputs (ops/s). For times, false.
 * target: the ratio figure/reference must reach (throughputs: >= target; times: <= target).
 * met: for an absolute target (under 1 s, at least 50k/s), whether the figure met it.
 */
export function report({ name, figure, unit, reference, referenceFigure, higherIsBetter, target, targetText, met, extra }) {
  const ratio = referenceFigure ? figure / referenceFigure : null;
  let pass = met ?? null;
  if (target !== undefined && ratio !== null) pass = higherIsBetter ? ratio >= target : ratio <= target;
  const line = {
    name,
    figure: round(figure),
    unit,
    reference,
    reference_figure: referenceFigure === undefined ? null : round(referenceFigure),
    ratio: ratio === null ? null : round(ratio, 3),
    target: targetText ?? null,
    pass,
    ...(extra ? { extra } : {}),
  };
  const verdict = pass === null ? '' : pass ? '  PASS' : '  MISS';
  const refText = referenceFigure === undefined ? '' : `  vs ${reference}: ${fmt(referenceFigure)} ${unit}  ratio ${line.ratio}`;
  console.log(`${name}: ${fmt(figure)} ${unit}${refText}${targetText ? `  (target ${targetText})` : ''}${verdict}`);
  if (extra) console.log(`  ${Object.entries(extra).map(([k, v]) => `${k}=${v}`).join('  ')}`);
  console.log(`BENCH ${JSON.stringify(line)}`);
  return line;
}

/** The middle value (the upper of the two middle ones for an even count); the list is not changed. */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Runs fn repeatedly for at least minMs and returns operations per second. */
export function throughput(fn, { minMs = 500, batch = 1000 } = {}) {
  for (let i = 0; i < batch; i++) fn(i); // warm-up
  let ops = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < minMs) {
    for (let i = 0; i < batch; i++) fn(i);
    ops += batch;
    elapsed = performance.now() - start;
  }
  return (ops / elapsed) * 1000;
}

/** Times each call of fn and returns {p50, p99, mean} in milliseconds. */
export async function latencies(fn, { runs = 200, warmup = 20 } = {}) {
  for (let i = 0; i < warmup; i++) await fn(i);
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn(i);
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const at = (q) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  return { p50: at(0.5), p99: at(0.99), mean: samples.reduce((a, b) => a + b, 0) / samples.length };
}

function round(x, digits = 2) {
  if (typeof x !== 'number') return x;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function fmt(x) {
  return typeof x === 'number' ? round(x).toLocaleString('en-US') : String(x);
}

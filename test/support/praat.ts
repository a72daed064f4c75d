import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What Praat itself reads from TextGrid files: `praat --run` on a small dump script
 * (praat-dump.praat), headless, one Praat process for any number of files. The consumer tests
 * compare Praat's reading of annot's output with Praat's reading of the input.
 */

const DUMP_SCRIPT = fileURLToPath(new URL('./praat-dump.praat', import.meta.url));

export interface PraatItem {
  readonly start: number;
  /** The same as start for a point. */
  readonly end: number;
  readonly text: string;
}

export interface PraatTier {
  readonly kind: 'interval' | 'point';
  readonly name: string;
  readonly items: PraatItem[];
}

export interface PraatTextGrid {
  readonly xmin: number;
  readonly xmax: number;
  readonly tiers: PraatTier[];
}

/** Each file as Praat reads it, in the order given. A file Praat refuses throws, with Praat's message. */
export function readWithPraat(praat: string, files: readonly string[]): PraatTextGrid[] {
  if (files.length === 0) return [];
  const folder = mkdtempSync(join(tmpdir(), 'annot-praat-'));
  try {
    const list = join(folder, 'files.txt');
    // Praat reads a relative path from the script's folder: every path goes in absolute.
    writeFileSync(list, files.map((file) => `${resolve(file)}\n`).join(''));
    const run = spawnSync(praat, ['--run', DUMP_SCRIPT, list], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    if (run.error) throw run.error;
    if (run.status !== 0) throw new Error(`praat --run ${DUMP_SCRIPT} failed (exit ${run.status}): ${run.stderr.trim()}`);
    const grids = parseDump(run.stdout);
    if (grids.length !== files.length) throw new Error(`Praat dumped ${grids.length} TextGrids for ${files.length} files: ${run.stderr.trim()}`);
    return grids;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function parseDump(text: string): PraatTextGrid[] {
  const grids: Array<{ xmin: number; xmax: number; tiers: PraatTier[] }> = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const fields = line.split('\t');
    const grid = grids[grids.length - 1];
    const tier = grid?.tiers[grid.tiers.length - 1];
    switch (fields[0]) {
      case 'textgrid':
        grids.push({ xmin: number(fields[1]), xmax: number(fields[2]), tiers: [] });
        break;
      case 'tier':
        grid.tiers.push({ kind: fields[1] as 'interval' | 'point', name: unescape(fields[3]), items: [] });
        break;
      case 'interval':
        tier.items.push({ start: number(fields[1]), end: number(fields[2]), text: unescape(fields[3]) });
        break;
      case 'point':
        tier.items.push({ start: number(fields[1]), end: number(fields[1]), text: unescape(fields[2]) });
        break;
      default:
        throw new Error(`unexpected line in Praat's dump: ${JSON.stringify(line)}`);
    }
  }
  return grids;
}

function number(text: string): number {
  const value = Number(text);
  if (text === '' || !Number.isFinite(value)) throw new Error(`Praat printed ${JSON.stringify(text)} where a time was expected`);
  return value;
}

function unescape(text: string): string {
  return text.replace(/\\([\\tnr])/g, (_, escaped: string) => ({ '\\': '\\', t: '\t', n: '\n', r: '\r' })[escaped] as string);
}

/**
 * A reading in which an IntervalTier without intervals has the one empty interval over the tier
 * that Praat gives it (a file may say `intervals: size = 0`; Praat reads one interval from its
 * xmin to its xmax), for comparing another reader's reading with Praat's.
 */
export function asPraatHasIt(grid: PraatTextGrid, bounds: ReadonlyArray<{ xmin: number; xmax: number }>): PraatTextGrid {
  return { ...grid, tiers: grid.tiers.map((tier, t) => (tier.kind === 'interval' && tier.items.length === 0 ? { ...tier, items: [{ start: bounds[t].xmin, end: bounds[t].xmax, text: '' }] } : tier)) };
}

/**
 * How Praat's reading of one file differs from its reading of another: tiers (class, name, number
 * of items), each item's times and label, the grid's bounds. Times are equal when they are the
 * same double, or within `tolerance` seconds (a conversion that reported rounding, by its error).
 * An empty list: Praat reads the same from both.
 */
export function praatDifferences(expected: PraatTextGrid, actual: PraatTextGrid, tolerance = 0): string[] {
  const differences: string[] = [];
  const time = (what: string, a: number, b: number): void => {
    // Within a tolerance, the doubles both sides hold may differ by their own rounding too (an ulp or two).
    const slack = tolerance > 0 ? tolerance + 4 * Number.EPSILON * Math.max(Math.abs(a), Math.abs(b)) : 0;
    if (a !== b && !(Math.abs(a - b) <= slack)) differences.push(`${what}: ${a} in the input, ${b} in the output`);
  };
  time('the grid xmin', expected.xmin, actual.xmin);
  time('the grid xmax', expected.xmax, actual.xmax);
  if (expected.tiers.length !== actual.tiers.length) differences.push(`${expected.tiers.length} tiers in the input, ${actual.tiers.length} in the output`);
  expected.tiers.forEach((tier, t) => {
    const other = actual.tiers[t];
    if (other === undefined) return;
    const which = `tier ${t + 1} (${JSON.stringify(tier.name)})`;
    if (tier.kind !== other.kind || tier.name !== other.name) differences.push(`${which}: a ${tier.kind} tier ${JSON.stringify(tier.name)} in the input, a ${other.kind} tier ${JSON.stringify(other.name)} in the output`);
    if (tier.items.length !== other.items.length) differences.push(`${which}: ${tier.items.length} items in the input, ${other.items.length} in the output`);
    tier.items.forEach((item, i) => {
      const written = other.items[i];
      if (written === undefined) return;
      time(`${which} item ${i + 1} start`, item.start, written.start);
      time(`${which} item ${i + 1} end`, item.end, written.end);
      if (item.text !== written.text) differences.push(`${which} item ${i + 1}: label ${JSON.stringify(item.text)} in the input, ${JSON.stringify(written.text)} in the output`);
    });
  });
  return differences;
}
